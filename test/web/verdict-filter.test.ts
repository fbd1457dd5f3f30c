import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchRecord } from '../../src/store/index.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { verdictFilterOf } from '../../src/web/verdict-filter.js';
import { completedBatch, verdictOf } from '../support/completed-batch.js';

let store: SqliteStore;
let batch: BatchRecord;
beforeAll(async () => {
  store = await completedBatch(2);
  await store.recordVerdicts('b1', 'q0', [verdictOf('mentions', 'v1', true), verdictOf('exact', 'e1', false)]);
  batch = (await store.findBatch('b1'))!;
});
afterAll(async () => store?.close());

describe('the verdict filter of an items query', () => {
  it('names the scorer at the version the batch shows, and offers the scorers there are', async () => {
    expect(await verdictFilterOf(store, batch, {})).toEqual({ ok: true, filter: undefined, scorers: ['exact', 'mentions'] });
    expect(await verdictFilterOf(store, batch, { scorer: 'mentions', verdict: 'unscored' })).toEqual({ ok: true, filter: { scorer: 'mentions', version: 'v1', is: 'unscored' }, scorers: ['exact', 'mentions'] });
    const named = { ...batch, settings: { ...batch.settings, scorers: [{ name: 'mentions', kind: 'includes' as const, version: 'v9', settings: {} }] } };
    expect(await verdictFilterOf(store, named, { scorer: 'mentions', verdict: 'passed' })).toMatchObject({ ok: true, filter: { version: 'v9' }, scorers: ['mentions'] });
  });

  it('refuses a scorer without a verdict (and the other way round), and a scorer the batch has not, in one line', async () => {
    expect(await verdictFilterOf(store, batch, { scorer: 'mentions' })).toMatchObject({ ok: false, error: 'query: scorer and verdict go together (scorer=NAME&verdict=passed|failed|unscored)' });
    expect(await verdictFilterOf(store, batch, { verdict: 'failed' })).toMatchObject({ ok: false });
    expect(await verdictFilterOf(store, batch, { scorer: 'nope', verdict: 'failed' })).toMatchObject({ ok: false, error: 'query: scorer: no scorer "nope" judges this batch (scorers: exact, mentions)' });
    const bare = await completedBatch(1);
    try {
      const b = (await bare.findBatch('b1'))!;
      expect(await verdictFilterOf(bare, b, { scorer: 'x', verdict: 'passed' })).toMatchObject({ ok: false, error: 'query: scorer: no scorer "x" judges this batch (it has none)' });
    } finally {
      await bare.close();
    }
  });
});
