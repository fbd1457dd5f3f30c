// A database on a disk that fills up mid-batch is a plain stop, not a bug: one line naming the
// database and the full disk, that nothing was lost and how to carry on; exit 1. The disk is
// "full" through SQLite's max_page_count (RESQ_TEST_SQLITE_MAX_PAGES, a test-only switch), so
// no small disk is needed. The real CLI as child processes, the simulator over loopback.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { runCliChild, tempDir } from '../support/cli.js';

const N = 120;

describe('a full disk under the database', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
  });
  afterAll(async () => sim.close());

  it('stops with one plain line (database, full disk, nothing lost, the resume command), exit 1; the resume then finishes with every question sent once', async () => {
    const dir = tempDir('resq-full-');
    const q = join(dir, 'full.csv');
    // Long questions: each run's record grows the file, so it fills up a few pages past the load.
    writeFileSync(q, `id,question\n${Array.from({ length: N }, (_, i) => `f${i},Full ${i} ${'x'.repeat(500)}`).join('\n')}\n`);
    const db = join(dir, 'r.db');
    const env = { RESQ_BASE_URL: sim.url, RESQ_API_KEY: sim.keys[0] ?? '' };
    expect((await runCliChild(['run', q, '--db', db, '--dry-run'], env)).code).toBe(0);
    const pages = (() => {
      const d = new Database(db, { readonly: true });
      try {
        return d.pragma('page_count', { simple: true }) as number;
      } finally {
        d.close();
      }
    })();

    const full = await runCliChild(['run', q, '--db', db, '--no-download'], { ...env, RESQ_TEST_SQLITE_MAX_PAGES: String(pages + 6) });
    expect(full.code).toBe(1);
    expect(full.stderr).not.toContain('internal error');
    expect(full.stderr).not.toMatch(/^\s+at /m);
    const said = full.stderr.split('\n').filter((l) => l.startsWith('resq:'));
    expect(said).toEqual([
      `resq: stopped: the database ${db} is on a full disk (database or disk is full): nothing was lost, the items stay queued or in flight as stored; free some space, then \`resq resume full --db ${db}\``,
    ]);
    expect(sim.counters().runsAdmitted).toBeLessThan(N);

    // Space freed (no cap): the command as printed finishes the batch, each question admitted once.
    const resume = /then `resq ([^`]*)`/.exec(said[0]!)![1]!.split(' ');
    const done = await runCliChild(resume, env);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`batch full: ${N} items — ${N} completed`);
    const admitted = sim.counters().admissionsByInput;
    for (let i = 0; i < N; i++) expect(admitted[`Full ${i} ${'x'.repeat(500)}`], `f${i}`).toBe(1);
  });

  it('a command that is not running a batch says the same, with "run the same command again"', async () => {
    const dir = tempDir('resq-full-');
    const q = join(dir, 'big.csv');
    writeFileSync(q, `id,question\n${Array.from({ length: N }, (_, i) => `b${i},Big ${i} ${'y'.repeat(3000)}`).join('\n')}\n`);
    const db = join(dir, 'r.db');
    // A fresh database holds its schema in a few dozen pages: the questions do not fit in 60.
    const r = await runCliChild(['run', q, '--db', db, '--dry-run'], { RESQ_TEST_SQLITE_MAX_PAGES: '60' });
    expect(r.stdout).toBe('');
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('internal error');
    expect(r.stderr.trim().split('\n')).toEqual([
      `resq: the database ${db} is on a full disk (database or disk is full): nothing was lost, the write that failed was not kept; free some space, then run the same command again`,
    ]);
  });
});
