import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeInWords, pairVerdicts, regressionSummary, type VerdictTurn } from '../../src/read/regressions.js';
import type { Verdict } from '../../src/score/types.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore, type BatchRecord, type Store } from '../../src/store/index.js';
import { tempDir } from '../support/cli.js';
import { sharedPgServer } from '../support/pg-shared.js';
import { runCsvBatch } from '../support/two-batches.js';

/** A verdict of `scorer` (version `v`): true passed, false failed, null unscored. */
function verdict(scorer: string, pass: boolean | null, reason: string, v = 'v1', scoredAt = '2026-01-01T00:00:00.000Z'): Verdict {
  return { scorer, version: v, pass, score: pass === null ? null : pass ? 1 : 0, reason, scoredAt, by: 'includes' };
}

const CSV_A = 'id,question\nq1,one\nq2,two\nq3,three\nq4,four\nq5,five\nq6,six\nonlyA,x\n';
const CSV_B = 'id,question\nq6,six\nq5,five\nq4,four\nq3,three\nq2,two\nq1,one\nonlyB,y\n';

for (const adapter of ['SQLite', 'PostgreSQL'] as const) {
  describe(`pairVerdicts: two batches' verdicts paired by item id and scorer name (${adapter})`, () => {
    let sim: Sim;
    let store: Store;
    let a: BatchRecord;
    let b: BatchRecord;
    beforeAll(async () => {
      sim = await startSim({ defaultDurationMs: 5 });
      const dir = tempDir('resq-regressions-');
      store = await openStore(adapter === 'SQLite' ? join(dir, 'resq.db') : await (await sharedPgServer()).createDatabase('regressions_pair'));
      a = await runCsvBatch(sim, store, dir, 'before', CSV_A, null);
      b = await runCsvBatch(sim, store, dir, 'after', CSV_B, null);
      // mentions: q1, q2 regress; q3 fixed; q4 both pass; q5 both fail; q6 unscored in B.
      const inA: Record<string, boolean | null> = { q1: true, q2: true, q3: false, q4: true, q5: false, q6: true, onlyA: true };
      const inB: Record<string, boolean | null> = { q1: false, q2: false, q3: true, q4: true, q5: false, q6: null, onlyB: false };
      for (const [id, pass] of Object.entries(inA)) await store.recordVerdicts(a.id, id, [verdict('mentions', pass, `A says ${id}`), verdict('exact', true, 'same', 'e1')]);
      for (const [id, pass] of Object.entries(inB)) await store.recordVerdicts(b.id, id, [verdict('mentions', pass, `B says ${id}`)]);
      // exact: judged in B with other settings, and an older version of q1's verdict kept beside it.
      for (const id of ['q1', 'q2']) await store.recordVerdicts(b.id, id, [verdict('exact', false, `exact no ${id}`, 'e2', '2026-01-02T00:00:00.000Z')]);
      await store.recordVerdicts(b.id, 'q1', [verdict('exact', true, 'older', 'e0', '2025-12-01T00:00:00.000Z')]);
    }, 30_000);
    afterAll(async () => {
      await store?.close();
      await sim?.close();
    });

    it('counts regressed, fixed, both pass, both fail and unscored per scorer over the paired ids only, read in small pages', async () => {
      const p = await pairVerdicts(store, a, b, 2);
      expect(p.paired).toBe(6);
      const mentions = p.scorers.find((s) => s.scorer === 'mentions')!;
      expect(mentions).toMatchObject({ regressed: 2, fixed: 1, bothPass: 1, bothFail: 1, unscored: 1, versionsDiffer: false, versionsA: ['v1'], versionsB: ['v1'] });
      expect(mentions.p).toBeCloseTo(1, 10);
      expect(mentions.words).toBe('could be chance (exact McNemar p = 1.0)');
    });

    it('matches a scorer by name and says its versions differ; the latest verdict of a name is the one compared', async () => {
      const p = await pairVerdicts(store, a, b, 3);
      const exact = p.scorers.find((s) => s.scorer === 'exact')!;
      expect(exact).toMatchObject({ versionsA: ['e1'], versionsB: ['e2'], versionsDiffer: true, regressed: 2, fixed: 0, bothPass: 0, unscored: 4 });
    });

    it('lists the regressed items then the fixed ones, in B\'s file order (scorers by name), each with both verdicts\' reasons', async () => {
      const p = await pairVerdicts(store, a, b, 2);
      const all: VerdictTurn[] = [];
      for (const change of ['regressed', 'fixed'] as const) for await (const t of p.turns(change)) all.push(t);
      expect(all.map((t) => [t.change, t.id, t.scorer])).toEqual([
        ['regressed', 'q2', 'exact'],
        ['regressed', 'q2', 'mentions'],
        ['regressed', 'q1', 'exact'],
        ['regressed', 'q1', 'mentions'],
        ['fixed', 'q3', 'mentions'],
      ]);
      expect(all[1]).toMatchObject({ question: 'two', a: { pass: true, reason: 'A says q2' }, b: { pass: false, reason: 'B says q2' } });
    });

    it('the summary a page shows: counts, the first turned items up to a limit, and whether more turned', async () => {
      const s = await regressionSummary(store, a, b, 2);
      expect(s.regressed.map((t) => t.id)).toEqual(['q2', 'q2']);
      expect(s.fixed.map((t) => t.id)).toEqual(['q3']);
      expect(s.more).toBe(true);
      expect((await regressionSummary(store, a, b, 10)).more).toBe(false);
    });

    it('nothing scored in either batch: no scorer, nothing turned', async () => {
      const dir = tempDir('resq-regressions-none-');
      const x = await runCsvBatch(sim, store, dir, 'x', 'id,question\nq1,one\n', null);
      const y = await runCsvBatch(sim, store, dir, 'y', 'id,question\nq1,one\n', null);
      expect(await regressionSummary(store, x, y)).toEqual({ paired: 1, scorers: [], regressed: [], fixed: [], more: false });
    });
  });
}

describe('changeInWords', () => {
  it('says whether the split is more than chance, which way, and the exact p', () => {
    expect(changeInWords(0, 0, 1)).toBe('no paired item changed its verdict');
    expect(changeInWords(3, 1, 0.625)).toBe('could be chance (exact McNemar p = 0.63)');
    expect(changeInWords(10, 30, 0.0022)).toBe('more than chance: better in the second batch (exact McNemar p = 0.0022)');
    expect(changeInWords(30, 2, 1e-7)).toBe('more than chance: worse in the second batch (exact McNemar p < 0.001)');
  });
});
