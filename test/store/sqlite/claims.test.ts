import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/clock.js';
import { claim } from '../../../src/store/sqlite/claims.js';
import { contextOf, ItemKeys } from '../../../src/store/sqlite/database.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import type { NewBatch } from '../../../src/store/shapes.js';
import { snap } from '../snapshot.js';

const B = 'cb';
const BATCH: NewBatch = {
  id: B, name: 'claims', kind: 'runs', sourcePath: '/q.csv', sourceSha256: 'sha', baseUrl: 'http://svc/api/v1',
  settings: { concurrency: 4, follow: 'sse', download: { enabled: false, concurrency: 2, out: null }, pipelineFile: null, service: 'sim' }, policy: null,
};

let store: SqliteStore;
beforeEach(async () => {
  store = SqliteStore.open(':memory:');
  const loader = await store.beginBatchLoad(BATCH);
  for (let i = 0; i < 4; i++) await loader.add({ id: `i${i}`, seq: i, line: i + 2, question: `q${i}?`, threadKey: i < 2 ? 't' : null, meta: {} });
  await loader.flush();
  await loader.commit([]);
});
afterEach(async () => store.close());

/** The entries of the items' indexes an item's row is in (the state and sort indexes leave queued rows out). */
function entries(): Record<string, string[]> {
  const of = (index: string, where: string): string[] => store.db.prepare(`SELECT id FROM items INDEXED BY ${index} WHERE batch_num = 1 AND ${where} ORDER BY seq`).pluck().all() as string[];
  return { state: of('items_for_state_pages', "state <> 'queued'"), sort: of('items_for_web_sort', "state <> 'queued'"), rate: of('items_for_rate', 'finished_at IS NOT NULL') };
}

describe('SQLite claims', () => {
  it('a claim writes the flight alone: the item row stays as it was queued, in no state or sort index; its end inserts entries there and the row takes its start', async () => {
    const rows = (): unknown[] => store.db.prepare('SELECT * FROM items ORDER BY seq').all();
    const before = rows();
    const w = (await store.registerWorker(B, { host: 'h', pid: 1 })).id;
    const got = await store.claimItems(B, { workerId: w, leaseMs: 60_000, max: 4, cap: 4, afterSeq: -1 });
    // The thread's second item waits behind its first (an item with a flight is not finished, though its row says queued).
    expect(got.items.map((i) => [i.id, i.state])).toEqual([['i0', 'submitting'], ['i2', 'submitting'], ['i3', 'submitting']]);
    expect(rows()).toEqual(before);
    expect(entries()).toEqual({ state: [], sort: [], rate: [] });
    expect(store.db.prepare('SELECT count(*) FROM flights').pluck().get()).toBe(3);
    // Read back as the claim gave it: the flight laid over the row, its start among it.
    const i0 = (await store.getItem(B, 'i0'))!;
    expect(i0).toMatchObject({ state: 'submitting', owner: w, startedAt: got.items[0]!.startedAt, pendingKey: got.items[0]!.pendingKey });
    expect(i0.startedAt).not.toBeNull();
    expect(await store.itemCounts(B)).toMatchObject({ queued: 1, submitting: 3 });
    expect((await store.listItems(B, { states: ['queued'] })).map((i) => i.id)).toEqual(['i1']);
    expect((await store.listItems(B, { states: ['submitting'] })).map((i) => i.id)).toEqual(['i0', 'i2', 'i3']);
    expect(await store.claimItems(B, { workerId: w, leaseMs: 60_000, max: 4, cap: 8, afterSeq: -1 })).toMatchObject({ items: [] });
    expect(await store.claimNextInThread(B, 't', 0, { workerId: w, leaseMs: 60_000, cap: 8 })).toBeNull();
    // Cancel ends the queued item only.
    expect(await store.cancelBatch(B)).toBe(1);
    const ran = await store.markAdmitted(got.items[0]!, { id: 'r0', status: 'running', threadId: 'th', step: 0, parentRunId: null, idempotencyKey: got.items[0]!.pendingKey! });
    const done = await store.markFinished(ran, snap('r0'), 'completed');
    expect(done).toMatchObject({ state: 'completed', startedAt: i0.startedAt });
    expect(store.db.prepare("SELECT state, started_at FROM items WHERE id = 'i0'").get()).toEqual({ state: 'completed', started_at: i0.startedAt });
    expect(entries()).toEqual({ state: ['i0', 'i1'], sort: ['i0', 'i1'], rate: ['i0', 'i1'] });
  });

  it("takes every orphan over even when the connection's kept keys fill up midway (their keys come from their rows)", async () => {
    const w1 = (await store.registerWorker(B, { host: 'h', pid: 1 })).id;
    const w2 = (await store.registerWorker(B, { host: 'h', pid: 2 })).id;
    const now = Date.now();
    expect((await store.claimItems(B, { workerId: w1, leaseMs: 1_000, max: 4, cap: 4, afterSeq: -1 }, now)).items).toHaveLength(3);
    // A connection whose kept keys are two short of full: the third orphan's keep lets the first two go.
    const cx = contextOf(store.db, systemClock);
    for (let i = 0; i < ItemKeys.MOST - 2; i++) cx.keys.keep('other', `x${i}`, i);
    const got = claim(cx, B, { workerId: w2, leaseMs: 60_000, max: 4, cap: 4, afterSeq: 3 }, now + 2_000);
    expect(got.items.map((i) => [i.id, i.owner])).toEqual([['i0', w2], ['i2', w2], ['i3', w2]]);
    expect(store.db.prepare('SELECT owner, fence FROM flights ORDER BY item_key').all()).toEqual([
      { owner: w2, fence: 2 },
      { owner: w2, fence: 2 },
      { owner: w2, fence: 2 },
    ]);
  });

  it('a takeover that could not write one of its flights takes none: the claim fails whole, every flight still the dead worker\'s', async () => {
    const w1 = (await store.registerWorker(B, { host: 'h', pid: 1 })).id;
    const w2 = (await store.registerWorker(B, { host: 'h', pid: 2 })).id;
    const now = Date.now();
    await store.claimItems(B, { workerId: w1, leaseMs: 1_000, max: 4, cap: 4, afterSeq: -1 }, now);
    // The fault: i2's flight refuses the takeover's write (the statement goes on, that row unwritten).
    store.db.exec(`CREATE TEMP TRIGGER keep_i2 BEFORE UPDATE OF owner ON flights
      WHEN old.item_key = (SELECT key FROM items WHERE id = 'i2') BEGIN SELECT RAISE(IGNORE); END`);
    const owners = (): unknown[] => store.db.prepare('SELECT owner, fence FROM flights ORDER BY item_key').all();
    const before = owners();
    expect(before).toHaveLength(3);
    await expect(store.claimItems(B, { workerId: w2, leaseMs: 60_000, max: 4, cap: 4, afterSeq: 3 }, now + 2_000)).rejects.toThrow('takeover wrote 2 of 3 flights');
    expect(owners()).toEqual(before);
    store.db.exec('DROP TRIGGER keep_i2');
    expect((await store.claimItems(B, { workerId: w2, leaseMs: 60_000, max: 4, cap: 4, afterSeq: 3 }, now + 2_000)).items.map((i) => i.owner)).toEqual([w2, w2, w2]);
  });
});
