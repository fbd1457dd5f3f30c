import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore } from '../../../src/store/index.js';
import { tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';
import { runCsvBatch } from '../../support/two-batches.js';

describe('resq compare', () => {
  let sim: Sim;
  let db: string;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
    const dir = tempDir();
    db = join(dir, 'resq.db');
    const store = await openStore(db);
    await runCsvBatch(sim, store, dir, 'before', 'id,question\nsame,plain\nplan,plan @confirm=5\ngone,x\nbell,ring\n', { confirm_scope: { approve_max_cost: 10 } });
    // an id with a terminal escape: printed escaped, never raw
    await runCsvBatch(sim, store, dir, 'after', 'id,question\nsame,plain\nplan,plan @confirm=5 @fail\nnew,y\n"bell\x1b[31m",ring\n', { confirm_scope: { approve_max_cost: 10 } });
    await store.close();
  }, 30_000);
  afterAll(async () => sim.close());

  it('prints the counts and one line per item that differs, a changed question said as such', async () => {
    const r = await runInProcess(['compare', 'before', 'after', '--db', db]);
    expect(r.code).toBe(0);
    const [head, ...rest] = r.stdout.trimEnd().split('\n');
    expect(head).toBe('before → after: 2 in both (1 the same), 2 only in before, 2 only in after; state changed 1, question changed 1, answer changed 1, decisions differ 0, files changed 0');
    expect(rest.map((l) => l.trim())).toEqual([
      'plan: completed → failed; question changed: "plan @confirm=5" → "plan @confirm=5 @fail"; answer changed (-0 +2 lines)',
      'gone: only in before',
      'bell: only in before',
      'new: only in after',
      'bell\\x1b[31m: only in after',
    ]);
    expect(r.stdout).not.toContain('\x1b');
  });

  it('--json: one object per item, every item, the counts on stderr (--format jsonl, a hidden alias, the same)', async () => {
    const r = await runInProcess(['compare', 'before', 'after', '--db', db, '--json']);
    expect(await runInProcess(['compare', 'before', 'after', '--db', db, '--format', 'jsonl'])).toEqual(r);
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { id: string; changed: boolean; stateChanged: boolean });
    expect(rows.map((x) => [x.id, x.changed])).toEqual([['same', false], ['plan', true], ['gone', true], ['bell', true], ['new', true], ['bell\x1b[31m', true]]);
    expect(rows[1]!.stateChanged).toBe(true);
    expect(r.stderr).toContain('2 in both');
  });

  it('an unknown second batch is a plain error (exit 2)', async () => {
    const r = await runInProcess(['compare', 'before', 'nope', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`resq: no batch named "nope"; the batches: resq batches --db ${db}\n`);
  });
});
