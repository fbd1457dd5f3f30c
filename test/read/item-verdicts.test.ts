import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemsWithVerdicts, VerdictCursor, verdictByScorer } from '../../src/read/item-verdicts.js';
import type { Verdict } from '../../src/score/types.js';
import { openStore, type BatchRecord, type Store } from '../../src/store/index.js';
import { tempDir } from '../support/cli.js';
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
