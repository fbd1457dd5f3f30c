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

describe('resq compare with verdicts: regressions first', () => {
  let sim: Sim;
  let db: string;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
    const dir = tempDir();
    db = join(dir, 'resq.db');
    const store = await openStore(db);
    const csv = 'id,question\nr1,one\nr2,two\nfix,three\nok,four\n"evil\x1b[2J",five\n';
    const a = await runCsvBatch(sim, store, dir, 'before', csv, null);
    const b = await runCsvBatch(sim, store, dir, 'after', csv, null);
    const v = (pass: boolean, reason: string, version = 'v1') => ({ scorer: 'mentions', version, pass, score: pass ? 1 : 0, reason, scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes' });
    const marks: [string, boolean, boolean][] = [['r1', true, false], ['r2', true, false], ['fix', false, true], ['ok', true, true], ['evil\x1b[2J', true, false]];
    for (const [id, inA, inB] of marks) {
      await store.recordVerdicts(a.id, id, [v(inA, `was ${inA}`)]);
      await store.recordVerdicts(b.id, id, [v(inB, inB ? 'mentions it' : `no "${id}" in the answer\x07`, 'v2')]);
    }
    await store.close();
  }, 30_000);
  afterAll(async () => sim.close());

  it('text: the counts per scorer with the McNemar line and its versions, the regressed items, then the fixed, escaped', async () => {
    const r = await runInProcess(['compare', 'before', 'after', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/[\x07\x1b]/);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(1)).toEqual([
      'verdicts on 5 paired items:',
      '  mentions: 3 regressed, 1 fixed, 1 both pass, 0 both fail, 0 unscored in either; could be chance (exact McNemar p = 0.63); versions differ (v1 in before, v2 in after): the same name, other settings',
      'regressed (passed in before, fail in after):',
      '  r1 [mentions]: no "r1" in the answer\\x07',
      '  r2 [mentions]: no "r2" in the answer\\x07',
      '  evil\\x1b[2J [mentions]: no "evil\\x1b[2J" in the answer\\x07',
      'fixed (failed in before, pass in after):',
      '  fix [mentions]: mentions it',
    ]);
  });

  it('--json: one object per scorer, then the regressed and the fixed items, then every item', async () => {
    const r = await runInProcess(['compare', 'before', 'after', '--db', db, '--json']);
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; id?: string; scorer?: string; regressed?: number; p?: number });
    expect(rows.map((x) => `${x.type}:${x.id ?? x.scorer}`)).toEqual(['scorer:mentions', 'regressed:r1', 'regressed:r2', 'regressed:evil\x1b[2J', 'fixed:fix', 'item:r1', 'item:r2', 'item:fix', 'item:ok', 'item:evil\x1b[2J']);
    expect(rows[0]).toMatchObject({ regressed: 3, fixed: 1, versionsDiffer: true });
    expect(rows[0]!.p).toBeCloseTo(0.625, 10);
    expect(r.stderr).toContain('mentions: 3 regressed, 1 fixed');
  });
});
