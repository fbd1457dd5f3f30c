import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alongsideVerdicts, itemsWithVerdicts, scorerNames, VerdictCursor, verdictByScorer, verdictsByName } from '../../src/read/item-verdicts.js';
import type { Verdict } from '../../src/score/types.js';
import { openStore, type BatchRecord, type Store } from '../../src/store/index.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';
import { completedBatch, verdictOf } from '../support/completed-batch.js';
import { testSettings } from '../support/in-process.js';

const v = (scorer: string, version: string, scoredAt: string, pass: boolean | null = true): Verdict => ({ scorer, version, pass, score: null, reason: `${scorer}@${version}`, scoredAt, by: 'includes' });

describe('verdictByScorer', () => {
  it("one verdict per name: the batch's own version when it names the scorer (none if that version has not judged), else the latest", () => {
    const all = [v('a', 'old', '2026-01-02'), v('a', 'new', '2026-01-01'), v('b', 'x', '2026-01-01'), v('b', 'y', '2026-01-03'), v('c', 'z', '2026-01-01')];
    const picked = verdictByScorer(all, new Map([['a', 'new'], ['c', 'other']]));
    expect([...picked].map(([k, x]) => `${k}=${x.version}`)).toEqual(['a=new', 'b=y']);
  });
});

describe('reading verdicts alongside items (real SQLite)', () => {
  let store: Store;
  let batch: BatchRecord;
  beforeAll(async () => {
    store = await openStore(join(tempDir('resq-item-verdicts-'), 'resq.db'));
    const loader = await store.beginBatchLoad({ id: 'b1', name: 'b1', kind: 'runs', sourcePath: '/q.csv', sourceSha256: 'sha', baseUrl: null, settings: testSettings(2), policy: null });
    for (let i = 0; i < 20; i++) await loader.add({ id: `i${i}`, seq: i, line: i + 2, question: `q${i}`, threadKey: null, meta: {} });
    await loader.commit([]);
    batch = (await store.findBatch('b1'))!;
    // Every third item judged, one of them twice over (two versions).
    for (let i = 0; i < 20; i += 3) await store.recordVerdicts(batch.id, `i${i}`, [v('s', 'v1', '2026-01-01', i % 2 === 0)]);
    await store.recordVerdicts(batch.id, 'i9', [v('s', 'v2', '2026-02-01', null)]);
  });
  afterAll(async () => store?.close());

  it('a cursor gives each seq its verdicts, reading a page at a time; items without any get none', async () => {
    const cursor = new VerdictCursor(store, batch.id, 2);
    const seen: string[] = [];
    for (let seq = 0; seq < 20; seq++) for (const x of await cursor.at(seq)) seen.push(`${seq}:${x.version}`);
    expect(seen).toEqual(['0:v1', '3:v1', '6:v1', '9:v1', '9:v2', '12:v1', '15:v1', '18:v1']);
  });

  it('items in file order, each with one verdict per scorer (the latest here: the batch names no scorers)', async () => {
    const rows: string[] = [];
    for await (const { item, verdicts } of itemsWithVerdicts(store, batch, 4)) rows.push(`${item.id}:${verdicts.has('s') ? String(verdicts.get('s')!.pass) : '-'}`);
    expect(rows).toHaveLength(20);
    expect(rows.slice(0, 10)).toEqual(['i0:true', 'i1:-', 'i2:-', 'i3:false', 'i4:-', 'i5:-', 'i6:true', 'i7:-', 'i8:-', 'i9:null']);
  });
});

describe('verdicts read alongside completed items (real SQLite)', () => {
  let store: SqliteStore;
  beforeAll(async () => {
    store = await completedBatch(8);
    for (const i of [1, 2, 4, 7]) await store.recordVerdicts('b1', `q${i}`, [verdictOf('mentions', 'v1', i !== 4, { reason: `item ${i}` })]);
  });
  afterAll(async () => store?.close());

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
      const cursor = new VerdictCursor(counted, 'b1', size);
      const seen = [];
      for (let seq = 0; seq < 8; seq++) seen.push((await cursor.at(seq)).map((x) => x.reason).join());
      expect(seen, `page size ${size}`).toEqual(['', 'item 1', 'item 2', '', 'item 4', '', '', 'item 7']);
      // Four judged items: never more than a page held, and each page read once.
      expect(pages.reduce((a, b) => a + b, 0)).toBe(4);
    }
  });

  it('skips the verdicts of items passed over (an export of the failed items only)', async () => {
    const cursor = new VerdictCursor(store, 'b1', 1);
    expect((await cursor.at(4)).map((x) => x.pass)).toEqual([false]);
    expect(await cursor.at(6)).toEqual([]);
    expect((await cursor.at(7)).map((x) => x.reason)).toEqual(['item 7']);
    expect(await cursor.at(9)).toEqual([]);
  });

  it('verdictsByName: every shown scorer present, null where not judged; other versions left out; of two shown versions the later judged', () => {
    const refs = [{ name: 'mentions', version: 'v1' }, { name: 'mentions', version: 'v2' }, { name: 'exact', version: 'e1' }];
    expect(scorerNames(refs)).toEqual(['mentions', 'exact']);
    const got = verdictsByName(refs, [
      verdictOf('mentions', 'v2', false, { reason: 'newer', scoredAt: '2026-02-01T00:00:00.000Z' }),
      verdictOf('mentions', 'v1', true, { reason: 'older' }),
      verdictOf('value', 'n1', true),
    ]);
    expect(got).toEqual({ mentions: { pass: false, score: 0, reason: 'newer' }, exact: { pass: null, score: null, reason: null } });
    expect(verdictsByName([{ name: 'mentions', version: 'v1' }], [verdictOf('mentions', 'v0', true)])).toEqual({ mentions: { pass: null, score: null, reason: null } });
  });

  it('alongsideVerdicts: rows read a page at a time, each with its verdicts; with no store no verdict is read', async () => {
    const rows = (after: number, limit: number) => Promise.resolve([1, 4, 5, 7].filter((s) => s > after).slice(0, limit));
    const seen: string[] = [];
    for await (const { row, verdicts } of alongsideVerdicts(store, 'b1', rows, (s) => s, 2)) seen.push(`${row}:${verdicts.map((x) => String(x.pass)).join()}`);
    expect(seen).toEqual(['1:true', '4:false', '5:', '7:true']);
    const bare: string[] = [];
    for await (const { row, verdicts } of alongsideVerdicts(null, 'b1', rows, (s) => s, 3)) bare.push(`${row}:${verdicts.length}`);
    expect(bare).toEqual(['1:0', '4:0', '5:0', '7:0']);
  });
});
