import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scorerNames, verdictCursor, verdictsByName } from '../../src/read/verdict-cursor.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { completedBatch, verdictOf as v } from '../support/completed-batch.js';

let store: SqliteStore;
beforeAll(async () => {
  store = await completedBatch(8);
  for (const i of [1, 2, 4, 7]) await store.recordVerdicts('b1', `q${i}`, [v('mentions', 'v1', i !== 4, { reason: `item ${i}` })]);
});
afterAll(async () => store?.close());

describe('verdicts read alongside the items', () => {
  it('gives each item its verdicts, reading a page of judged items at a time, whatever the page size', async () => {
    for (const size of [1, 2, 3, 100]) {
      const pages: number[] = [];
      const counted = {
        verdictsPage: async (id: string, q: { afterSeq: number; limit: number }) => {
          const page = await store.verdictsPage(id, q);
          pages.push(page.length);
          expect(page.length).toBeLessThanOrEqual(size);
          return page;
        },
      };
      const cursor = verdictCursor(counted, 'b1', size);
      const seen = [];
      for (let seq = 0; seq < 8; seq++) seen.push((await cursor.at(seq)).map((x) => x.reason).join());
      expect(seen, `page size ${size}`).toEqual(['', 'item 1', 'item 2', '', 'item 4', '', '', 'item 7']);
      // Four judged items: never more than a page held, and each page read once.
      expect(pages.reduce((a, b) => a + b, 0)).toBe(4);
    }
  });

  it('skips the verdicts of items passed over (an export of the failed items only)', async () => {
    const cursor = verdictCursor(store, 'b1', 1);
    expect((await cursor.at(4)).map((x) => x.pass)).toEqual([false]);
    expect(await cursor.at(6)).toEqual([]);
    expect((await cursor.at(7)).map((x) => x.reason)).toEqual(['item 7']);
    expect(await cursor.at(9)).toEqual([]);
  });

  it('verdictsByName: every shown scorer present, null where not judged; other versions left out; of two shown versions the later judged', () => {
    const refs = [{ name: 'mentions', version: 'v1' }, { name: 'mentions', version: 'v2' }, { name: 'exact', version: 'e1' }];
    expect(scorerNames(refs)).toEqual(['mentions', 'exact']);
    const got = verdictsByName(refs, [
      v('mentions', 'v2', false, { reason: 'newer', scoredAt: '2026-02-01T00:00:00.000Z' }),
      v('mentions', 'v1', true, { reason: 'older' }),
      v('value', 'n1', true),
    ]);
    expect(got).toEqual({ mentions: { pass: false, score: 0, reason: 'newer' }, exact: { pass: null, score: null, reason: null } });
    expect(verdictsByName([{ name: 'mentions', version: 'v1' }], [v('mentions', 'v0', true)])).toEqual({ mentions: { pass: null, score: null, reason: null } });
  });
});
