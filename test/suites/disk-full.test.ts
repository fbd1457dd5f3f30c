// A database on a disk that fills up mid-batch is a plain stop, not a bug: one line naming the
// database and the full disk, that nothing was lost and how to carry on; exit 1. The disk is
// "full" through SQLite's max_page_count (RESQ_TEST_SQLITE_MAX_PAGES, a test-only switch), so
// no small disk is needed. The real CLI as child processes, the simulator over loopback.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { idempotencyKey } from '../../src/store/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { runCliChild, tempDir } from '../support/cli.js';

const N = 120;

describe('a full disk under the database', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
  });
  afterAll(async () => sim.close());

  it('stops with one plain line (database, full disk, nothing lost, the resume command), exit 1; reopened, the database is whole and holds every run the service admitted; the resume then finishes with every question sent once', async () => {
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
      `resq: stopped: the database ${db} is on a full disk (database or disk is full): nothing was lost, the items stay queued or in flight as stored; free some space, then: resq resume full --db ${db}`,
    ]);
    expect(sim.counters().runsAdmitted).toBeLessThan(N);

    // Nothing was lost: reopened (no cap now), the file is whole, every item is there, and every
    // run the simulator admitted is either recorded on its item or left in `submitting` under
    // the key it was sent with (so the resume replays the key and finds it, never sends it anew).
    const question = (i: number): string => `Full ${i} ${'x'.repeat(500)}`;
    const sent = new Map(sim.ledger().runs.filter((r) => r.input.startsWith('Full ')).map((r) => [r.input, r]));
    expect(sent.size).toBeGreaterThan(0);
    const store = SqliteStore.open(db);
    try {
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
      const batch = (await store.findBatch('full'))!;
      expect(batch.totalItems).toBe(N);
      let recorded = 0;
      for (let i = 0; i < N; i++) {
        const item = (await store.getItem(batch.id, `f${i}`))!;
        expect(item.question, `f${i}`).toBe(question(i));
        const run = sent.get(question(i));
        if (run) {
          expect(run.idempotencyKey, `f${i}`).toBe(idempotencyKey(batch.id, item.id, 0));
          if (item.runId !== null) recorded++;
          expect(item.runId === run.id || (item.runId === null && item.state === 'submitting'), `f${i} ${item.state} ${item.runId} sent as ${run.id}`).toBe(true);
        } else {
          expect(item.runId, `f${i}`).toBeNull();
          expect(['queued', 'submitting'], `f${i}`).toContain(item.state);
        }
      }
      expect(recorded).toBeGreaterThan(0);
    } finally {
      await store.close();
    }

    // Space freed (no cap): the command as printed finishes the batch, each question admitted once.
    const resume = /then: resq (.*)$/.exec(said[0]!)![1]!.split(' ');
    const done = await runCliChild(resume, env);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`batch full: ${N} items — ${N} completed`);
    const admitted = sim.counters().admissionsByInput;
    for (let i = 0; i < N; i++) expect(admitted[question(i)], `f${i}`).toBe(1);
    // Each item holds the one run the simulator made for its question.
    const runs = new Map(sim.ledger().runs.map((r) => [r.input, r.id]));
    const after = SqliteStore.open(db);
    try {
      const batch = (await after.findBatch('full'))!;
      for (let i = 0; i < N; i++) expect(await after.getItem(batch.id, `f${i}`), `f${i}`).toMatchObject({ state: 'completed', runId: runs.get(question(i)) });
    } finally {
      await after.close();
    }
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
    // Reopened: the file is whole and the load that failed left nothing (no batch, no item).
    const store = SqliteStore.open(db);
    try {
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(await store.findBatch('big')).toBeNull();
      expect(store.db.prepare('SELECT count(*) FROM items').pluck().get()).toBe(0);
    } finally {
      await store.close();
    }
    // And the same command, the space freed, loads it whole.
    const again = await runCliChild(['run', q, '--db', db, '--dry-run', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout.trim().split('\n').at(-1)!)).toMatchObject({ type: 'dry-run', items: N, invalid: 0 });
  });
});
