import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/port.js';
import type { NewBatch, NewDecision, PauseOutcome, RunSnapshot } from '../../src/store/shapes.js';
import type { ItemRecord, ItemState } from '../../src/store/types.js';
import { snap } from './snapshot.js';
import type { WriteBarrier } from './write-barrier.js';

/**
 * The counts by state that overview and itemCounts give, kept by the database beside the items
 * (migration 012), written against `Store` only: after every kind of change they equal a
 * fresh count of the items' states read row by row (listItems), in SQLite and PostgreSQL.
 */

const NOW = 1_700_000_000_000;
const B = 'cb';
const OTHER = 'cb2';

function newBatch(id: string, kind: NewBatch['kind'] = 'runs'): NewBatch {
  return {
    id,
    name: `counts-${id}`,
    kind,
    sourcePath: `/data/${id}.csv`,
    sourceSha256: 'sha',
    baseUrl: 'http://svc/api/v1',
    settings: { concurrency: 4, follow: 'sse', download: { enabled: false, concurrency: 2, out: null }, pipelineFile: null, service: 'sim' },
    policy: null,
  };
}

const decision = (runId: string): NewDecision => ({ runId, tool: 'confirm_scope', input: { cost: 1 }, answer: { approve: true }, by: 'person', reason: null, cost: 1 });
const hold = (): PauseOutcome => ({ kind: 'hold', reason: 'a person decides' });

/** Loads items `${prefix}0..` into a batch, through the loader a run uses. */
async function load(store: Store, batchId: string, n: number, prefix = 'i'): Promise<void> {
  const loader = await store.beginBatchLoad(newBatch(batchId));
  for (let i = 0; i < n; i++) await loader.add({ id: `${prefix}${i}`, seq: i, line: i + 2, question: `q ${i}?`, threadKey: i % 4 === 3 ? 't' : null, meta: {} });
  expect(await loader.flush()).toEqual([]);
  await loader.commit([]);
}

/** `barrier`: where the adapter has several connections, how writes are shown to run at once (write-barrier.ts). */
export function countsContract(name: string, makeStore: () => Promise<Store>, barrier?: WriteBarrier): void {
  describe(`Store counts by state: ${name}`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    /** A fresh count of the batch's items by state, from the rows themselves. */
    async function fresh(batchId: string): Promise<Record<ItemState, number>> {
      const out: Record<ItemState, number> = { queued: 0, submitting: 0, running: 0, waiting: 0, held: 0, completed: 0, failed: 0, error: 0, cancelled: 0 };
      for (const it of await store.listItems(batchId)) out[it.state]++;
      return out;
    }

    /** overview and itemCounts agree with the rows, for both batches. */
    async function expectExact(...batchIds: string[]): Promise<Record<ItemState, number>> {
      for (const id of batchIds) {
        const want = await fresh(id);
        expect((await store.overview(id, NOW)).counts).toEqual(want);
        expect(await store.itemCounts(id)).toEqual(want);
      }
      return fresh(batchIds[0]!);
    }

    async function item(id: string): Promise<ItemRecord> {
      return (await store.getItem(B, id))!;
    }

    /** Claims these items (by seq) for worker `w` and admits a run for each: all running. */
    async function running(w: string, ids: readonly string[]): Promise<ItemRecord[]> {
      const out: ItemRecord[] = [];
      for (const id of ids) {
        const it = await item(id);
        const c = await store.claimItems(B, { workerId: w, leaseMs: 60_000, max: 1, cap: 100, afterSeq: it.seq - 1, takeOver: [] }, NOW);
        const claimed = c.items.find((x) => x.id === id);
        expect(claimed?.state).toBe('submitting');
        out.push(await store.markAdmitted(claimed!, { id: `r-${id}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: claimed!.pendingKey! }));
      }
      return out;
    }

    it('a loaded batch counts every item queued, each batch apart; a rolled-back load counts nothing', async () => {
      await load(store, B, 12);
      await load(store, OTHER, 5, 'o');
      expect(await expectExact(B, OTHER)).toMatchObject({ queued: 12, running: 0 });
      expect((await store.overview(OTHER, NOW)).counts.queued).toBe(5);
      const loader = await store.beginBatchLoad(newBatch('gone'));
      await loader.add({ id: 'x', seq: 0, line: 2, question: 'x?', threadKey: null, meta: {} });
      await loader.flush();
      await loader.rollback();
      expect(await store.itemCounts('gone')).toEqual(await fresh('gone'));
      expect(await store.itemCounts(B)).toMatchObject({ queued: 12 });
    });

    it('appended items are counted; a rolled-back append changes nothing; ids already there are not counted twice', async () => {
      await load(store, B, 3);
      const a = await store.beginBatchAppend(B);
      await a.addColumns({ ids: ['i0', 'n1', 'n2'], lines: [2, 9, 10], questions: ['q 0?', 'n1?', 'n2?'], threads: [null, null, null], metas: ['{}', '{}', '{}'] });
      await a.commit([], 'sha-2');
      expect(await expectExact(B)).toMatchObject({ queued: 5 });
      const b = await store.beginBatchAppend(B);
      await b.addColumns({ ids: ['n3'], lines: [11], questions: ['n3?'], threads: [null], metas: ['{}'] });
      await b.rollback();
      expect(await expectExact(B)).toMatchObject({ queued: 5 });
    });

    it('claims, admissions, pauses, answers, finishes, errors and cancels each move one count to another', async () => {
      await load(store, B, 12);
      await load(store, OTHER, 4, 'o');
      const w = (await store.registerWorker(B, { host: 'h', pid: 1 }, NOW)).id;
      // Claimed: queued -> submitting (several in one statement).
      const claimed = await store.claimItems(B, { workerId: w, leaseMs: 60_000, max: 2, cap: 100, afterSeq: -1, takeOver: [] }, NOW);
      expect(claimed.items.map((i) => i.state)).toEqual(['submitting', 'submitting']);
      expect(await expectExact(B, OTHER)).toMatchObject({ queued: 10, submitting: 2 });
      // Released: the lease goes, the state stays.
      await store.releaseItem(B, 'i1', w);
      expect(await expectExact(B)).toMatchObject({ submitting: 2 });
      const [i0] = [await store.markAdmitted(claimed.items[0]!, { id: 'r-i0', status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: claimed.items[0]!.pendingKey! })];
      expect(await expectExact(B)).toMatchObject({ submitting: 1, running: 1 });
      await store.markFinished(i0!, snap('r-i0'), 'completed');
      const [i2, i4, i5, i6] = await running(w, ['i2', 'i4', 'i5', 'i6']);
      await store.markFinished(i2!, snap('r-i2', { status: 'failed', output: null }), 'failed');
      // Paused: held by the policy, then answered by a person (held -> waiting), then admitted again.
      const { item: held } = await store.markPaused(i4!, snap('r-i4', { status: 'requires_action', requiredAction: { tool: 'confirm_scope', input: { cost: 1 } } }), hold);
      expect(held.state).toBe('held');
      expect(await expectExact(B)).toMatchObject({ held: 1, completed: 1, failed: 1, running: 2 });
      await store.answerHeld(B, 'i4', decision('r-i4'), 'key-i4-1');
      expect(await expectExact(B)).toMatchObject({ held: 0, waiting: 1 });
      // Paused and answered by the policy at once: running -> waiting.
      await store.markPaused(i5!, snap('r-i5', { status: 'requires_action' }), () => ({ kind: 'answer', decision: decision('r-i5'), nextKey: 'key-i5-1' }));
      expect(await expectExact(B)).toMatchObject({ waiting: 2, running: 1 });
      expect(await store.markError(B, 'i6', 'HTTP 400', 'bad')).toMatchObject({ state: 'error' });
      expect(await store.markCancelled(B, 'i7')).toBe(true);
      // A call that changes nothing counts nothing.
      expect(await store.markCancelled(B, 'i7')).toBe(false);
      expect(await store.markError(B, 'nope', 'x')).toBeNull();
      expect(await expectExact(B, OTHER)).toMatchObject({ error: 1, cancelled: 1 });
      // The batch cancelled: every queued item at once.
      expect(await store.cancelBatch(B)).toBeGreaterThan(0);
      expect(await expectExact(B, OTHER)).toMatchObject({ queued: 0 });
      expect(await store.itemCounts(OTHER)).toMatchObject({ queued: 4 });
    });

    it('requeue and retry put ended items back to queued, and the counts follow', async () => {
      await load(store, B, 6);
      const w = (await store.registerWorker(B, { host: 'h', pid: 1 }, NOW)).id;
      const [a, b, c] = await running(w, ['i0', 'i1', 'i2']);
      await store.markFinished(a!, snap('r-i0', { status: 'failed', output: null }), 'failed');
      await store.markFinished(b!, snap('r-i1'), 'completed');
      await store.markError(B, c!.id, 'boom');
      expect(await expectExact(B)).toMatchObject({ failed: 1, completed: 1, error: 1, queued: 3 });
      expect(await store.requeue(B, null, ['failed', 'error'])).toEqual(['i0', 'i2']);
      expect(await expectExact(B)).toMatchObject({ failed: 0, error: 0, completed: 1, queued: 5 });
      expect(await store.requeue(B, ['i1'], ['completed'])).toEqual(['i1']);
      expect(await expectExact(B)).toMatchObject({ completed: 0, queued: 6 });
    });

    it('a takeover after a lost lease and a later run count right', async () => {
      await load(store, B, 3);
      const w1 = (await store.registerWorker(B, { host: 'h', pid: 1 }, NOW)).id;
      await running(w1, ['i0']);
      const w2 = (await store.registerWorker(B, { host: 'h', pid: 2 }, NOW + 120_000)).id;
      const taken = await store.claimItems(B, { workerId: w2, leaseMs: 60_000, max: 5, cap: 100, afterSeq: -1 }, NOW + 120_000);
      expect(taken.items.map((i) => i.id)).toContain('i0');
      expect(await expectExact(B)).toMatchObject({ running: 1, queued: 0 });
    });

    it(barrier ? 'changes running at once (several connections, shown waiting together) add up' : 'changes asked for together (one connection, one group commit) add up', async () => {
      await load(store, B, 16);
      const w = (await store.registerWorker(B, { host: 'h', pid: 1 }, NOW)).id;
      const items = await running(w, Array.from({ length: 16 }, (_, i) => `i${i}`).filter((id) => !['i3', 'i7', 'i11', 'i15'].includes(id)));
      const held = await barrier?.hold(store);
      const ending = Promise.all(items.map((it, k) => store.markFinished(it, snap(it.runId!), k % 3 === 0 ? 'failed' : 'completed')));
      const together = (await held?.reached(3)) ?? true;
      await held?.release();
      await ending;
      expect(together, 'three writes waiting together').toBe(true);
      expect(await expectExact(B)).toMatchObject({ completed: 8, failed: 4, queued: 4, running: 0 });
    });

    it('a models batch counts its rows', async () => {
      await store.loadModelBatch(newBatch('m1', 'models'), { modelId: 'mod', mode: null, description: {} }, [
        { id: 'x', line: 2, inputs: { a: 1 }, meta: {} },
        { id: 'y', line: 3, inputs: { a: 2 }, meta: {} },
      ]);
      expect(await expectExact('m1')).toMatchObject({ queued: 2 });
    });
  });
}
