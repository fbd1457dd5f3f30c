import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/port.js';
import type { NewBatch } from '../../src/store/shapes.js';
import { snap } from './snapshot.js';

/**
 * threadWaits (issue 38): the queued items that wait behind an unfinished earlier item of
 * their thread, each with that item and its state as readers see it (held, in flight), in
 * SQLite and PostgreSQL alike, written against `Store` only.
 */

const NOW = 1_700_000_000_000;
const B = 'tw';

function newBatch(id: string): NewBatch {
  return {
    id,
    name: `waits-${id}`,
    kind: 'runs',
    sourcePath: `/data/${id}.csv`,
    sourceSha256: 'sha',
    baseUrl: 'http://svc/api/v1',
    settings: { concurrency: 4, follow: 'sse', download: { enabled: false, concurrency: 2, out: null }, pipelineFile: null, service: 'sim' },
    policy: null,
  };
}

/** q300 (no thread), q301..q303 in thread `T-ünï`, q304..q305 in thread `u`. */
async function load(store: Store): Promise<void> {
  const loader = await store.beginBatchLoad(newBatch(B));
  const threads = [null, 'T-ünï', 'T-ünï', 'T-ünï', 'u', 'u'];
  for (let i = 0; i < threads.length; i++) await loader.add({ id: `q30${i}`, seq: i, line: i + 2, question: `q ${i}?`, threadKey: threads[i]!, meta: {} });
  expect(await loader.flush()).toEqual([]);
  await loader.commit([]);
}

export function threadWaitsContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store threadWaits: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
      await load(store);
    });
    afterEach(async () => {
      await store.close();
    });

    it('names, for each queued item behind an earlier one of its thread, the first unfinished item of the thread', async () => {
      const w = await store.threadWaits(B, 10);
      expect(w.byState).toEqual({ queued: 3 });
      expect(w.first).toEqual([
        { id: 'q302', threadKey: 'T-ünï', behindId: 'q301', behindState: 'queued' },
        { id: 'q303', threadKey: 'T-ünï', behindId: 'q301', behindState: 'queued' },
        { id: 'q305', threadKey: 'u', behindId: 'q304', behindState: 'queued' },
      ]);
      expect((await store.threadWaits(B, 1)).first.map((x) => x.id)).toEqual(['q302']);
    });

    it('reads one item alone when named: behind what it waits, or nothing for an item that waits behind none', async () => {
      const one = await store.threadWaits(B, 10, { itemId: 'q303' });
      expect(one).toEqual({ byState: { queued: 1 }, first: [{ id: 'q303', threadKey: 'T-ünï', behindId: 'q301', behindState: 'queued' }] });
      expect(await store.threadWaits(B, 10, { itemId: 'q301' })).toEqual({ byState: {}, first: [] });
      expect(await store.threadWaits(B, 10, { itemId: 'q300' })).toEqual({ byState: {}, first: [] });
    });

    it('sees the item waited on held, and in flight, and none once it ended', async () => {
      const wk = (await store.registerWorker(B, { host: 'h', pid: 1 }, NOW)).id;
      const c = await store.claimItems(B, { workerId: wk, leaseMs: 60_000, max: 3, cap: 100, afterSeq: -1, takeOver: [] }, NOW);
      const byId = new Map(c.items.map((i) => [i.id, i]));
      expect([...byId.keys()].sort()).toEqual(['q300', 'q301', 'q304']);
      const r301 = await store.markAdmitted(byId.get('q301')!, { id: 'r1', status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: byId.get('q301')!.pendingKey! });
      const r304 = await store.markAdmitted(byId.get('q304')!, { id: 'r4', status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: byId.get('q304')!.pendingKey! });
      await store.markPaused(r301, snap('r1', { status: 'requires_action', requiredAction: { tool: 'confirm_scope', input: { cost: 1 } } }), () => ({ kind: 'hold', reason: 'a person decides' }));
      const w = await store.threadWaits(B, 10);
      expect(w.byState).toEqual({ held: 2, running: 1 });
      expect(w.first.map((x) => [x.id, x.behindId, x.behindState])).toEqual([
        ['q302', 'q301', 'held'],
        ['q303', 'q301', 'held'],
        ['q305', 'q304', 'running'],
      ]);
      // Read from the held items up: the same items behind q301, none behind the running q304.
      expect(await store.threadWaits(B, 10, { heldOnly: true })).toEqual({ byState: { held: 2 }, first: w.first.slice(0, 2) });
      expect((await store.threadWaits(B, 0, { heldOnly: true })).first).toEqual([]);
      await store.markFinished(r304, snap('r4'), 'completed');
      expect((await store.threadWaits(B, 10)).byState).toEqual({ held: 2 });
    });
  });
}
