import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateWords, readScoreRates, scoreRateOf, scorersShown } from '../../src/read/score-rates.js';
import type { ScorerSpec } from '../../src/score/types.js';
import type { BatchRecord } from '../../src/store/index.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { completedBatch, verdictOf } from '../support/completed-batch.js';

// A real SQLite file: a batch of three completed items and verdicts recorded as scorers record them.

const v = verdictOf;
const spec = (name: string, version: string): ScorerSpec => ({ name, kind: 'includes', version, settings: {} });

let store: SqliteStore;
let batch: BatchRecord;
beforeAll(async () => {
  store = await completedBatch(3);
  await store.recordVerdicts('b1', 'q0', [v('mentions', 'v1', true), v('mentions', 'v2', false), v('exact', 'e1', false)]);
  await store.recordVerdicts('b1', 'q1', [v('mentions', 'v2', true)]);
  batch = (await store.findBatch('b1'))!;
});
afterAll(async () => store?.close());

describe('pass rates', () => {
  it('scoreRateOf: the rate over the judged items with its 95% Wilson interval; nulls when none was judged', () => {
    const r = scoreRateOf({ scorer: 'm', version: 'v', passed: 8, failed: 2, unscored: 5 });
    expect(r).toMatchObject({ name: 'm', version: 'v', passed: 8, failed: 2, unscored: 5, passRate: 0.8 });
    expect(r.low).toBeCloseTo(0.4902, 4);
    expect(r.high).toBeCloseTo(0.9433, 4);
    expect(scoreRateOf({ scorer: 'm', version: 'v', passed: 0, failed: 0, unscored: 3 })).toEqual({ name: 'm', version: 'v', passed: 0, failed: 0, unscored: 3, passRate: null, low: null, high: null });
  });

  it('rateWords says the rate and interval, or that nothing was judged', () => {
    expect(rateWords(scoreRateOf({ scorer: 'm', version: 'v', passed: 8, failed: 2, unscored: 0 }))).toBe('80.0% (95% CI 49.0–94.3%)');
    expect(rateWords({ passRate: null, low: null, high: null })).toBe('no verdict yet');
  });

  it("scorersShown: the batch's own scorers when its settings name them, else every scorer version with verdicts", async () => {
    expect(await scorersShown(store, batch)).toEqual([
      { name: 'exact', version: 'e1' },
      { name: 'mentions', version: 'v1' },
      { name: 'mentions', version: 'v2' },
    ]);
    const named = { ...batch, settings: { ...batch.settings, scorers: [spec('mentions', 'v2'), spec('value', 'n1')] } };
    expect(await scorersShown(store, named)).toEqual([
      { name: 'mentions', version: 'v2' },
      { name: 'value', version: 'n1' },
    ]);
    expect(await scorersShown(store, { ...batch, settings: { ...batch.settings, scorers: [] } })).toHaveLength(3);
  });

  it('readScoreRates counts each shown scorer over the completed items', async () => {
    const named = { ...batch, settings: { ...batch.settings, scorers: [spec('mentions', 'v2'), spec('value', 'n1')] } };
    expect((await readScoreRates(store, named)).map((r) => [r.name, r.passed, r.failed, r.unscored, r.passRate])).toEqual([
      ['mentions', 1, 1, 1, 0.5],
      ['value', 0, 0, 3, null],
    ]);
  });
});
