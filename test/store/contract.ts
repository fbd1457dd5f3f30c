import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchExistsError, ItemNotHeldError, LeaseLostError, OverBudgetError } from '../../src/errors.js';
import { idempotencyKey } from '../../src/store/keys.js';
import { missingStoreMembers, type Lease, type Store } from '../../src/store/port.js';
import type { NewBatch, NewDecision, NewItem, PauseOutcome, RunSnapshot } from '../../src/store/shapes.js';
import type { BatchSettings, FileRefInput, ItemRecord } from '../../src/store/types.js';
import { snap } from './snapshot.js';

/**
 * The contract of the store port, written against `Store` only: every adapter (SQLite,
 * PostgreSQL) must pass it unchanged. Each test gets a fresh, empty store. Time-dependent
 * operations are given `nowMs` explicitly (NOW and offsets from it), so no test sleeps on
 * a lease.
 */

const NOW = 1_700_000_000_000;
const LEASE_MS = 60_000;
const DAY_MS = 24 * 3600 * 1000;
const B = 'b1';

const SETTINGS: BatchSettings = {
  concurrency: 4,
  follow: 'sse',
  download: { enabled: false, concurrency: 2, out: null },
  pipelineFile: null,
  service: 'sim',
};

function newBatch(id = B, over: Partial<NewBatch> = {}): NewBatch {
  return {
    id,
    name: `batch-${id}`,
    kind: 'runs',
    sourcePath: `/data/${id}.csv`,
    sourceSha256: 'sha-initial',
    baseUrl: 'http://svc/api/v1',
    settings: SETTINGS,
    policy: { unknown: 'hold' },
    ...over,
  };
}

/** A row spec: an id, or an id with its thread, meta and question. */
type Row = string | { id: string; thread?: string; meta?: NewItem['meta']; question?: string };

function rowItem(r: Row, seq: number): NewItem {
  const o = typeof r === 'string' ? { id: r } : r;
  return { id: o.id, seq, line: seq + 2, question: o.question ?? `question ${o.id}?`, threadKey: o.thread ?? null, meta: o.meta ?? {} };
}

/** Loads a batch of these rows (seq 0.., line 2..) and commits it. */
async function load(store: Store, rows: readonly Row[], batchId = B, over: Partial<NewBatch> = {}): Promise<void> {
  const loader = await store.beginBatchLoad(newBatch(batchId, over));
  for (const [i, r] of rows.entries()) await loader.add(rowItem(r, i));
  expect(await loader.flush()).toEqual([]);
  await loader.commit([]);
}

function fileRef(id: string, over: Partial<FileRefInput> = {}): FileRefInput {
  return { id, url: `http://svc/api/v1/files/${id}`, role: 'report', name: `${id}.md`, tool: 'write_report', ...over };
}

function decision(runId: string, over: Partial<NewDecision> = {}): NewDecision {
  return { runId, tool: 'confirm_scope', input: { cost: 3 }, answer: { approve: true }, by: 'policy', reason: 'cheap', cost: 3, ...over };
}

const answerWith = (d: NewDecision, nextKey: string): PauseOutcome => ({ kind: 'answer', decision: d, nextKey });

function leaseOf(workerId: string, leaseMs = LEASE_MS): Lease {
  return { workerId, leaseMs };
}

const ids = (items: readonly { id: string }[]): string[] => items.map((i) => i.id);

export function storeContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('carries every member of every role of the port (missingStoreMembers)', () => {
      expect(missingStoreMembers(store)).toEqual([]);
    });

    async function item(itemId: string, batchId = B): Promise<ItemRecord> {
      const it = await store.getItem(batchId, itemId);
      if (!it) throw new Error(`item ${itemId} missing`);
      return it;
    }

    async function worker(batchId = B, nowMs = NOW): Promise<string> {
      return (await store.registerWorker(batchId, { host: 'host-a', pid: 4242 }, nowMs)).id;
    }

    /** Claims with a roomy default request for `workerId`. */
    function claim(workerId: string, over: Partial<Parameters<Store['claimItems']>[1]> = {}, nowMs = NOW, batchId = B) {
      return store.claimItems(batchId, { ...leaseOf(workerId), max: 10, cap: 10, afterSeq: -1, ...over }, nowMs);
    }

    /** Claims one item and admits run `runId` for it: the item is `running`. */
    async function running(workerId: string, itemId: string, runId: string, threadId: string | null = null): Promise<ItemRecord> {
      let it = await item(itemId);
      if (it.state === 'queued') {
        // just this item: the first claimable queued one from its seq, no takeovers
        const c = await claim(workerId, { afterSeq: it.seq - 1, max: 1, takeOver: [] });
        it = c.items.find((x) => x.id === itemId) ?? (await item(itemId));
      }
      expect(it.owner).toBe(workerId);
      return store.markAdmitted(it, { id: runId, status: 'running', threadId, step: it.step, parentRunId: it.runId, idempotencyKey: it.pendingKey! });
    }

    // ------------------------------------------------------------------ batch loading
    describe('beginBatchLoad', () => {
      it('add + commit stores the batch and its items in file order; commit returns the count', async () => {
        const loader = await store.beginBatchLoad(newBatch());
        await loader.add(rowItem({ id: 'a', meta: { topic: 'x' } }, 0));
        await loader.add(rowItem('b', 1));
        await loader.add(rowItem({ id: 'c', thread: 't1' }, 2));
        expect(await loader.commit([{ file: 'q.csv', line: 9, reason: 'no question' }], 'sha-final')).toBe(3);
        const b = await store.findBatch('batch-b1');
        expect(b).toMatchObject({
          id: B, name: 'batch-b1', kind: 'runs', sourcePath: '/data/b1.csv', sourceSha256: 'sha-final',
          baseUrl: 'http://svc/api/v1', settings: SETTINGS, policy: { unknown: 'hold' }, totalItems: 3, cancelledAt: null,
        });
        expect(b!.invalidRows).toEqual([{ file: 'q.csv', line: 9, reason: 'no question' }]);
        expect(typeof b!.createdAt).toBe('string');
        const items = await store.listItems(B);
        expect(items.map((i) => [i.id, i.seq, i.line, i.state, i.threadKey, i.step, i.attempt, i.owner])).toEqual([
          ['a', 0, 2, 'queued', null, 0, 0, null],
          ['b', 1, 3, 'queued', null, 0, 0, null],
          ['c', 2, 4, 'queued', 't1', 0, 0, null],
        ]);
        expect(items[0]!.meta).toEqual({ topic: 'x' });
        expect(items[0]!.question).toBe('question a?');
      });

      it('commit without a sha256 keeps the one the batch was begun with', async () => {
        const loader = await store.beginBatchLoad(newBatch());
        await loader.add(rowItem('a', 0));
        expect(await loader.commit([])).toBe(1);
        expect((await store.findBatch(B))!.sourceSha256).toBe('sha-initial');
      });

      it('meta given as JSON text keeps its numbers exactly as written', async () => {
        const text = '{"big":12345678901234567890,"price":1.50,"n":-0,"s":"x"}';
        const loader = await store.beginBatchLoad(newBatch());
        await loader.add(rowItem({ id: 'a', meta: text }, 0));
        await loader.commit([]);
        expect(JSON.stringify((await item('a')).meta)).toBe(text);
      });

      it('addColumns writes rows seq0 onwards after the buffered rows', async () => {
        const loader = await store.beginBatchLoad(newBatch());
        await loader.add(rowItem('a', 0));
        const refused = await loader.addColumns(
          { ids: ['b', 'c'], lines: [3, 4], questions: ['qb', 'qc'], threads: [null, 't'], metas: ['{"k":1}', '{}'] },
          1,
        );
        expect(refused).toEqual([]);
        expect(await loader.commit([])).toBe(3);
        const items = await store.listItems(B);
        expect(items.map((i) => [i.id, i.seq, i.line, i.question, i.threadKey])).toEqual([
          ['a', 0, 2, 'question a?', null],
          ['b', 1, 3, 'qb', null],
          ['c', 2, 4, 'qc', 't'],
        ]);
        expect(items[1]!.meta).toEqual({ k: 1 });
      });

      it('refuses duplicate ids with the line of the first row (add/flush and addColumns); the count leaves them out', async () => {
        const loader = await store.beginBatchLoad(newBatch());
        await loader.add(rowItem('a', 0)); // line 2
        await loader.add(rowItem('b', 1));
        await loader.add({ ...rowItem('a', 2), question: 'again' }); // line 4
        const refused = await loader.flush();
        expect(refused).toHaveLength(1);
        expect(refused[0]!.item.id).toBe('a');
        expect(refused[0]!.item.line).toBe(4);
        expect(refused[0]!.firstLine).toBe(2);
        const more = await loader.addColumns({ ids: ['c', 'b'], lines: [5, 6], questions: ['qc', 'qb2'], threads: [null, null], metas: ['{}', '{}'] }, 3);
        expect(more.map((d) => [d.item.id, d.item.line, d.firstLine])).toEqual([['b', 6, 3]]);
        expect(await loader.commit([])).toBe(3);
        expect((await store.findBatch(B))!.totalItems).toBe(3);
        expect(ids(await store.listItems(B))).toEqual(['a', 'b', 'c']);
        expect((await item('a')).question).toBe('question a?');
      });

      it('rollback leaves nothing: no batch, no items, and the name can be loaded again', async () => {
        const loader = await store.beginBatchLoad(newBatch());
        await loader.add(rowItem('a', 0));
        await loader.flush();
        await loader.rollback();
        expect(await store.findBatch(B)).toBeNull();
        expect(await store.listBatches()).toEqual([]);
        expect(await store.listItems(B)).toEqual([]);
        await load(store, ['z']);
        expect(ids(await store.listItems(B))).toEqual(['z']);
      });

      it('a second load of the same name throws BatchExistsError; the first batch is untouched and the store usable', async () => {
        await load(store, ['a', 'b']);
        await expect(store.beginBatchLoad(newBatch('other-id', { name: 'batch-b1' }))).rejects.toBeInstanceOf(BatchExistsError);
        expect((await store.findBatch('batch-b1'))!.id).toBe(B);
        expect(await store.findBatch('other-id')).toBeNull();
        expect(await store.listItems(B)).toHaveLength(2);
        await load(store, ['x'], 'b2');
        expect((await store.listBatches()).map((b) => b.id).sort()).toEqual([B, 'b2']);
      });
    });

    // ------------------------------------------------------------------ growing a batch
    describe('beginBatchAppend', () => {
      /** Rows a, b (thread t), c as `load` stored them, given again column by column (lines moved by `shift`). */
      const same = (shift = 0) => ({
        ids: ['a', 'b', 'c'],
        lines: [2 + shift, 3 + shift, 4 + shift],
        questions: ['question a?', 'question b?', 'question c?'],
        threads: [null, 't', null],
        metas: ['{"topic":"x"}', '{}', '{}'],
      });

      it('appends new ids after the last item, queued, in the order given; keeps the rest; counts both', async () => {
        await load(store, [{ id: 'a', meta: { topic: 'x' } }, { id: 'b', thread: 't' }, 'c']);
        const appender = await store.beginBatchAppend(B);
        expect(await appender.addColumns(same(1))).toEqual([]);
        expect(await appender.addColumns({ ids: ['e', 'd'], lines: [2, 6], questions: ['qe', 'qd'], threads: [null, 't'], metas: ['{}', '{"k":1}'] })).toEqual([]);
        expect(appender.tally()).toEqual({ kept: 3, appended: 2 });
        expect(await appender.commit([{ file: 'q.csv', line: 7, reason: 'bad' }], 'sha-grown')).toEqual({ kept: 3, appended: 2 });
        const b = (await store.findBatch(B))!;
        expect([b.totalItems, b.sourceSha256, b.invalidRows.length]).toEqual([5, 'sha-grown', 1]);
        const items = await store.listItems(B);
        expect(items.map((i) => [i.id, i.seq, i.line, i.state, i.threadKey])).toEqual([
          ['a', 0, 2, 'queued', null],
          ['b', 1, 3, 'queued', 't'],
          ['c', 2, 4, 'queued', null],
          ['e', 3, 2, 'queued', null],
          ['d', 4, 6, 'queued', 't'],
        ]);
        expect(items[4]!.meta).toEqual({ k: 1 });
      });

      it('hands back each row whose id the batch has with another question, thread or meta, with both lines', async () => {
        await load(store, [{ id: 'a', meta: { topic: 'x' } }, { id: 'b', thread: 't' }, 'c']);
        const appender = await store.beginBatchAppend(B);
        const rows = same(10);
        const changed = await appender.addColumns({ ...rows, questions: ['question a?', 'question b?', 'other'], threads: [null, null, null], metas: ['{"topic":"y"}', '{}', '{}'] });
        expect(changed.map((c) => [c.id, c.line, c.storedLine, c.field])).toEqual([
          ['a', 12, 2, 'meta'],
          ['b', 13, 3, 'thread'],
          ['c', 14, 4, 'question'],
        ]);
        expect(changed[0]).toMatchObject({ storedMeta: '{"topic":"x"}', meta: '{"topic":"y"}' });
        await appender.rollback();
      });

      it('rollback adds nothing: the batch and its count are as they were', async () => {
        await load(store, ['a']);
        const appender = await store.beginBatchAppend(B);
        await appender.addColumns({ ids: ['n1', 'n2'], lines: [3, 4], questions: ['q1', 'q2'], threads: [null, null], metas: ['{}', '{}'] });
        await appender.rollback();
        expect(ids(await store.listItems(B))).toEqual(['a']);
        expect((await store.findBatch(B))!).toMatchObject({ totalItems: 1, sourceSha256: 'sha-initial' });
        // The store is usable afterwards: a second append goes through.
        const again = await store.beginBatchAppend(B);
        await again.addColumns({ ids: ['n1'], lines: [3], questions: ['q1'], threads: [null], metas: ['{}'] });
        expect(await again.commit([], 'sha-2')).toEqual({ kept: 0, appended: 1 });
        expect((await store.findBatch(B))!.totalItems).toBe(2);
      });

      it('appended items are claimed after the items the batch had', async () => {
        await load(store, ['a']);
        const appender = await store.beginBatchAppend(B);
        await appender.addColumns({ ids: ['a', 'z'], lines: [2, 3], questions: ['question a?', 'qz'], threads: [null, null], metas: ['{}', '{}'] });
        await appender.commit([], 'sha-2');
        const w = await worker();
        expect(ids((await claim(w)).items)).toEqual(['a', 'z']);
      });
    });

    // ------------------------------------------------------------------ appending while workers run
    describe('appendItems', () => {
      const cols = (ids: string[]) => ({ ids, lines: ids.map((_, k) => k + 1), questions: ids.map((id) => `q ${id}`), threads: ids.map(() => null), metas: ids.map(() => '{}') });

      it('appends new ids after the last item, queued; keeps an id the batch has as it is; counts them in the total', async () => {
        await load(store, ['a']);
        expect(await store.appendItems(B, cols(['j1', 'j2']))).toEqual({ appended: 2 });
        // j1 asked again with another question: kept, not replaced, not counted again.
        expect(await store.appendItems(B, { ...cols(['j1', 'j3']), questions: ['changed', 'q j3'] })).toEqual({ appended: 1 });
        expect(await store.appendItems(B, cols([]))).toEqual({ appended: 0 });
        const items = await store.listItems(B);
        expect(items.map((i) => [i.id, i.seq, i.state])).toEqual([
          ['a', 0, 'queued'],
          ['j1', 1, 'queued'],
          ['j2', 2, 'queued'],
          ['j3', 3, 'queued'],
        ]);
        expect(items[1]!.question).toBe('q j1');
        expect((await store.findBatch(B))!.totalItems).toBe(4);
        // A batch the database lacks: refused, nothing written.
        await expect(store.appendItems('no-such-batch', cols(['x']))).rejects.toThrow('batch no-such-batch not found');
        expect((await store.findBatch(B))!.totalItems).toBe(4);
      });

      it('lands beside a worker\'s writes of the same moment, each whole; the appended items are claimed next', async () => {
        await load(store, ['a', 'b']);
        const w = await worker();
        const [first] = (await claim(w, { max: 1 })).items;
        // In one turn: the claimed item admitted, an append, and an append that gives one id twice (refused alone).
        const [admitted, appended, refused] = await Promise.allSettled([
          store.markAdmitted(first!, { id: 'r-a', status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: first!.pendingKey! }),
          store.appendItems(B, cols(['z'])),
          store.appendItems(B, cols(['y', 'y'])),
        ]);
        expect(admitted.status).toBe('fulfilled');
        expect(appended).toEqual({ status: 'fulfilled', value: { appended: 1 } });
        expect(refused.status).toBe('rejected');
        expect((await item('a')).state).toBe('running');
        expect(ids(await store.listItems(B))).toEqual(['a', 'b', 'z']);
        expect((await store.findBatch(B))!.totalItems).toBe(3);
        expect(ids((await claim(w, { afterSeq: 0 })).items)).toEqual(['b', 'z']);
      });
    });

    // ------------------------------------------------------------------ batches
    describe('batches', () => {
      it('findBatch finds by name and by id; null otherwise', async () => {
        await load(store, ['a']);
        expect((await store.findBatch('batch-b1'))!.id).toBe(B);
        expect((await store.findBatch(B))!.name).toBe('batch-b1');
        expect(await store.findBatch('nope')).toBeNull();
      });

      it('listBatches is newest first, filtered by kind; latestBatch is the newest (of the kind)', async () => {
        const pause = (): Promise<void> => new Promise((r) => setTimeout(r, 5));
        expect(await store.latestBatch()).toBeNull();
        await load(store, ['a'], 'r1');
        await pause();
        await store.loadModelBatch(newBatch('m1', { kind: 'models' }), { modelId: 'mod', mode: null, description: {} }, [
          { id: 'x', line: 2, inputs: { p: 1 }, meta: {} },
        ]);
        await pause();
        await load(store, ['a'], 'r2');
        expect((await store.listBatches()).map((b) => b.id)).toEqual(['r2', 'm1', 'r1']);
        expect((await store.listBatches('runs')).map((b) => b.id)).toEqual(['r2', 'r1']);
        expect((await store.listBatches('models')).map((b) => b.id)).toEqual(['m1']);
        expect((await store.latestBatch())!.id).toBe('r2');
        expect((await store.latestBatch('models'))!.id).toBe('m1');
        expect((await store.latestBatch('runs'))!.id).toBe('r2');
      });

      it('updateBatchSettings replaces settings, policy and base URL', async () => {
        await load(store, ['a']);
        const next: BatchSettings = { ...SETTINGS, concurrency: 9, follow: 'poll', cancelRoute: '/runs/{id}/cancel' };
        await store.updateBatchSettings(B, next, null, null);
        const b = await store.findBatch(B);
        expect(b!.settings).toEqual(next);
        expect(b!.policy).toBeNull();
        expect(b!.baseUrl).toBeNull();
        await store.updateBatchSettings(B, SETTINGS, { a: [1, 2] }, 'http://other');
        expect(await store.findBatch(B)).toMatchObject({ settings: SETTINGS, policy: { a: [1, 2] }, baseUrl: 'http://other' });
      });

      it('cancelBatch ends queued items only, returns how many, and claims then report cancelled', async () => {
        await load(store, ['a', 'b', 'c']);
        const w = await worker();
        await claim(w, { max: 1 });
        expect(await store.cancelBatch(B)).toBe(2);
        expect((await store.listItems(B)).map((i) => i.state)).toEqual(['submitting', 'cancelled', 'cancelled']);
        expect((await item('b')).finishedAt).not.toBeNull();
        const cancelledAt = (await store.findBatch(B))!.cancelledAt;
        expect(cancelledAt).not.toBeNull();
        const c = await claim(w);
        expect(c.cancelled).toBe(true);
        expect(c.items).toEqual([]);
        expect(await store.heartbeat(leaseOf(w), NOW + 1)).toEqual({ cancelled: true, capLimit: null });
        expect(await store.cancelBatch(B)).toBe(0);
        expect((await store.findBatch(B))!.cancelledAt).toBe(cancelledAt);
        expect((await store.itemCounts(B)).cancelled).toBe(2);
      });

      it('overview: the batch, counts by state, approved cost, file counts and live workers', async () => {
        await load(store, ['a', 'b', 'c']);
        const w = await worker();
        const a = await running(w, 'a', 'r-a');
        await store.markPaused(a, snap('r-a', { status: 'requires_action', files: [fileRef('f1')] }), () => answerWith(decision('r-a', { cost: 2.5 }), 'k1'));
        const o = await store.overview(B, NOW + 1000, 60_000);
        expect(o.batch.id).toBe(B);
        expect(o.counts).toEqual({ queued: 2, submitting: 0, running: 0, waiting: 1, held: 0, completed: 0, failed: 0, error: 0, cancelled: 0 });
        expect(o.approvedCost).toBe(2.5);
        expect(o.files).toEqual({ pending: 1, downloaded: 0, failed: 0, expired: 0, missing: 0 });
        expect(o.workers.map((x) => [x.id, x.items])).toEqual([[w, 1]]);
        expect((await store.overview(B, NOW + 120_000, 60_000)).workers).toEqual([]);
        await expect(store.overview('nope')).rejects.toThrow();
      });
    });

    // ------------------------------------------------------------------ workers
    describe('workers', () => {
      it('registerWorker returns the worker record; ids differ', async () => {
        await load(store, ['a']);
        const w1 = await store.registerWorker(B, { host: 'h1', pid: 11 }, NOW);
        const w2 = await store.registerWorker(B, { host: 'h1', pid: 11 }, NOW);
        expect(w1).toMatchObject({ batchId: B, host: 'h1', pid: 11, heartbeatAt: NOW, items: 0, startedAt: new Date(NOW).toISOString() });
        expect(w1.id).not.toBe(w2.id);
      });

      it("registerWorker keeps the process's start identity; reads return it (null when none was given)", async () => {
        await load(store, ['a']);
        const w1 = await store.registerWorker(B, { host: 'h1', pid: 11, pidStart: 'boot-1:4242' }, NOW);
        const w2 = await store.registerWorker(B, { host: 'h1', pid: 12 }, NOW);
        expect(w1.pidStart).toBe('boot-1:4242');
        expect(w2.pidStart).toBeNull();
        expect((await store.liveWorkers(B, 10_000, NOW)).map((x) => [x.pid, x.pidStart])).toEqual([[11, 'boot-1:4242'], [12, null]]);
        expect((await store.overview(B, NOW, 10_000)).workers.map((x) => x.pidStart)).toEqual(['boot-1:4242', null]);
      });

      it('heartbeat renews the leases of the items the worker owns (only those)', async () => {
        await load(store, ['a', 'b', 'c']);
        const w1 = await worker();
        const w2 = await worker();
        await claim(w1, { max: 2 });
        await claim(w2, { max: 1 });
        expect(await store.heartbeat(leaseOf(w1, 30_000), NOW + 50_000)).toEqual({ cancelled: false, capLimit: null });
        expect((await item('a')).leaseUntil).toBe(NOW + 80_000);
        expect((await item('b')).leaseUntil).toBe(NOW + 80_000);
        expect((await item('c')).leaseUntil).toBe(NOW + LEASE_MS);
        expect((await store.liveWorkers(B, 10_000, NOW + 55_000)).map((x) => [x.id, x.heartbeatAt])).toEqual([[w1, NOW + 50_000]]);
      });

      it('setCapLimit is reported by heartbeat and binds every claim; null lifts it', async () => {
        await load(store, ['a', 'b', 'c', 'd']);
        const w = await worker();
        await store.setCapLimit(B, 2);
        expect(await store.heartbeat(leaseOf(w), NOW)).toEqual({ cancelled: false, capLimit: 2 });
        const c = await claim(w, { cap: 10 });
        expect(ids(c.items)).toEqual(['a', 'b']);
        expect(c.inFlight).toBe(2);
        expect((await claim(w, { cap: 10, afterSeq: c.cursor })).items).toEqual([]);
        await store.setCapLimit(B, null);
        expect((await store.heartbeat(leaseOf(w), NOW)).capLimit).toBeNull();
        expect(ids((await claim(w, { cap: 3, afterSeq: c.cursor })).items)).toEqual(['c']);
      });

      it('a cap limit above the requested cap does not raise it', async () => {
        await load(store, ['a', 'b', 'c']);
        const w = await worker();
        await store.setCapLimit(B, 5);
        expect(ids((await claim(w, { cap: 1 })).items)).toEqual(['a']);
      });

      it('liveWorkers: stale and retired workers are left out; items counts the leases held', async () => {
        await load(store, ['a', 'b', 'c']);
        const w1 = await worker(B, NOW);
        const w2 = await worker(B, NOW + 1);
        const w3 = await worker(B, NOW + 2);
        await claim(w1, { max: 2 });
        await claim(w2, { max: 1 });
        let live = await store.liveWorkers(B, 10_000, NOW + 5_000);
        expect(live.map((x) => [x.id, x.items])).toEqual([[w1, 2], [w2, 1], [w3, 0]]);
        await store.heartbeat(leaseOf(w2), NOW + 20_000);
        live = await store.liveWorkers(B, 10_000, NOW + 25_000);
        expect(ids(live)).toEqual([w2]);
        await store.retireWorker(w2, NOW + 26_000);
        expect(await store.liveWorkers(B, 10_000, NOW + 26_000)).toEqual([]);
      });

      it('a claim is a sign of life: a worker is not judged gone while a lease it set still runs', async () => {
        await load(store, ['a', 'b']);
        const w = await worker(B, NOW);
        const other = await worker(B, NOW);
        // Its last heartbeat at NOW; it claims 4 s later (leases to NOW + 4 s + LEASE_MS), then freezes.
        await claim(w, { max: 1 }, NOW + 4_000);
        expect((await item('a')).leaseUntil).toBe(NOW + 4_000 + LEASE_MS);
        const stale = NOW + 4_000 + LEASE_MS - 1;
        expect((await store.liveWorkers(B, LEASE_MS, stale)).map((x) => [x.id, x.items])).toContainEqual([w, 1]);
        // Once gone by its heartbeat, its item is there to take over on the same look.
        const gone = NOW + 4_000 + LEASE_MS + 1;
        expect(ids(await store.liveWorkers(B, LEASE_MS, gone))).not.toContain(w);
        expect(ids((await claim(other, { max: 1 }, gone)).items)).toEqual(['a']);
      });

      it('retireWorker ends its leases at once: another worker takes its items without waiting', async () => {
        await load(store, ['a', 'b']);
        const w1 = await worker();
        const w2 = await worker();
        await claim(w1);
        await store.retireWorker(w1, NOW + 10);
        const a = await item('a');
        expect(a.owner).toBeNull();
        expect(a.leaseUntil).toBe(0);
        expect(a.state).toBe('submitting');
        const c = await claim(w2, {}, NOW + 20);
        expect(ids(c.items)).toEqual(['a', 'b']);
        expect(c.fresh).toBe(0);
        expect((await item('b')).owner).toBe(w2);
      });
    });

    // ------------------------------------------------------------------ claims
    describe('claimItems', () => {
      it('moves queued items to submitting under the lease with their idempotency key stored', async () => {
        await load(store, ['a', 'b']);
        const w = await worker();
        const c = await claim(w);
        expect(ids(c.items)).toEqual(['a', 'b']);
        expect(c).toMatchObject({ cursor: 1, fresh: 2, inFlight: 2, cancelled: false });
        for (const it of c.items) {
          const stored = await item(it.id);
          expect(stored.state).toBe('submitting');
          expect(stored.pendingKey).toBe(idempotencyKey(B, it.id, 0, 0));
          expect(stored.owner).toBe(w);
          expect(stored.leaseUntil).toBe(NOW + LEASE_MS);
          expect(stored.startedAt).not.toBeNull();
          expect(it).toMatchObject({ state: 'submitting', pendingKey: stored.pendingKey, owner: w, leaseUntil: NOW + LEASE_MS });
        }
      });

      it('takes queued items in seq order after afterSeq, up to max; the cursor is the last seq looked at', async () => {
        await load(store, ['a', 'b', 'c', 'd', 'e']);
        const w = await worker();
        const c1 = await claim(w, { afterSeq: 0, max: 2 });
        expect(ids(c1.items)).toEqual(['b', 'c']);
        expect(c1.cursor).toBe(2);
        expect(c1.fresh).toBe(2);
        const c2 = await claim(w, { afterSeq: c1.cursor });
        expect(ids(c2.items)).toEqual(['d', 'e']);
        expect(c2.cursor).toBe(4);
        expect((await item('a')).state).toBe('queued');
        const c3 = await claim(w, { afterSeq: c2.cursor });
        expect(c3.items).toEqual([]);
        expect(c3.cursor).toBe(4);
        expect(c3.inFlight).toBe(4);
      });

      it('maxQueued limits how many queued items move to submitting', async () => {
        await load(store, ['a', 'b', 'c']);
        const w = await worker();
        const c = await claim(w, { maxQueued: 1 });
        expect(ids(c.items)).toEqual(['a']);
        expect(c.fresh).toBe(1);
        expect(c.cursor).toBe(0);
        expect((await claim(w, { maxQueued: 0, afterSeq: c.cursor })).items).toEqual([]);
      });

      it('never more runs in flight over two workers than the cap', async () => {
        await load(store, ['a', 'b', 'c', 'd', 'e']);
        const w1 = await worker();
        const w2 = await worker();
        const c1 = await claim(w1, { cap: 3, max: 2 });
        expect(ids(c1.items)).toEqual(['a', 'b']);
        const c2 = await claim(w2, { cap: 3 });
        expect(ids(c2.items)).toEqual(['c']);
        expect(c2.inFlight).toBe(3);
        const c3 = await claim(w1, { cap: 3, afterSeq: c1.cursor });
        expect(c3.items).toEqual([]);
        expect(c3.inFlight).toBe(3);
        const a = await running(w1, 'a', 'r-a');
        await store.markFinished(a, snap('r-a'), 'completed');
        const c4 = await claim(w2, { cap: 3, afterSeq: c2.cursor });
        expect(ids(c4.items)).toEqual(['d']);
        expect(c4.inFlight).toBe(3);
        expect((await store.itemCounts(B)).queued).toBe(1);
      });

      it('claims, markAdmitted and markFinished return the item exactly as it is stored', async () => {
        await load(store, ['a']);
        const w = await worker();
        const c = await claim(w, { cap: 1 });
        expect(c.items).toEqual([await item('a')]);
        const admitted = await running(w, 'a', 'r-a', 'th-a');
        expect(admitted).toEqual(await item('a'));
        const done = await store.markFinished(admitted, snap('r-a', { threadId: 'th-a' }), 'completed');
        expect(done).toEqual(await item('a'));
        expect(done).toMatchObject({ state: 'completed', runId: 'r-a', threadId: 'th-a', owner: null, leaseUntil: null });
      });

      it('listItems with runStatusOtherThan gives only items whose run ended in another status', async () => {
        await load(store, ['a', 'b', 'c']);
        const w = await worker();
        await claim(w, { cap: 3 });
        await store.markFinished(await running(w, 'a', 'r-a'), snap('r-a'), 'completed');
        await store.markFinished(await running(w, 'b', 'r-b'), snap('r-b', { status: 'done' }), 'completed');
        const odd = await store.listItems(B, { states: ['completed'], runStatusOtherThan: 'completed' });
        expect(odd.map((i) => [i.id, i.runStatus])).toEqual([['b', 'done']]);
        // An item with no run status yet (c is submitting) is not "another status".
        expect(ids(await store.listItems(B, { runStatusOtherThan: 'completed' }))).toEqual(['b']);
      });

      it("a thread's next item is not claimable until the one before it has finished", async () => {
        await load(store, [{ id: 'a', thread: 't' }, { id: 'b', thread: 't' }, 'c', { id: 'd', thread: 'u' }]);
        const w = await worker();
        const c = await claim(w);
        expect(ids(c.items)).toEqual(['a', 'c', 'd']);
        expect((await claim(w)).items).toEqual([]);
        expect(await store.claimNextInThread(B, 't', 0, { ...leaseOf(w), cap: 10 }, NOW)).toBeNull();
        const a = await running(w, 'a', 'r-a');
        await store.markPaused(a, snap('r-a', { status: 'requires_action' }), () => ({ kind: 'hold', reason: 'ask' }));
        // held is not finished: the thread still waits
        expect(await store.claimNextInThread(B, 't', 0, { ...leaseOf(w), cap: 10 }, NOW)).toBeNull();
        expect((await claim(w)).items).toEqual([]);
        expect(await store.markCancelled(B, 'a')).toBe(true);
        expect(ids((await claim(w)).items)).toEqual(['b']);
      });

      it('claimNextInThread hands over the next item of the thread with the thread id the first run opened', async () => {
        await load(store, [{ id: 'a', thread: 't' }, 'x', { id: 'b', thread: 't' }, { id: 'c', thread: 't' }]);
        const w = await worker();
        const first = (await claim(w, { max: 1 })).items[0]!;
        expect(first.threadId).toBeNull();
        const a = await running(w, 'a', 'r-a', 'th-1');
        expect(a.threadId).toBe('th-1');
        await store.markFinished(a, snap('r-a', { threadId: 'th-1' }), 'completed');
        const b = await store.claimNextInThread(B, 't', 0, { ...leaseOf(w), cap: 10 }, NOW + 5);
        expect(b).toMatchObject({ id: 'b', state: 'submitting', threadId: 'th-1', owner: w, leaseUntil: NOW + 5 + LEASE_MS, pendingKey: idempotencyKey(B, 'b', 0) });
        // A thread's next item is a claim too: a sign of life.
        expect((await store.liveWorkers(B, LEASE_MS, NOW + 5)).find((x) => x.id === w)?.heartbeatAt).toBe(NOW + 5);
        expect((await item('b')).threadId).toBe('th-1');
        expect((await item('x')).state).toBe('queued');
        // c waits for b; and not past the cap either
        expect(await store.claimNextInThread(B, 't', 2, { ...leaseOf(w), cap: 10 }, NOW)).toBeNull();
        const rb = await running(w, 'b', 'r-b', 'th-1');
        await store.markFinished(rb, snap('r-b'), 'completed');
        expect(await store.claimNextInThread(B, 't', 2, { ...leaseOf(w), cap: 0 }, NOW)).toBeNull();
        // The batch's adaptive cap binds a thread's next item too.
        await store.setCapLimit(B, 0);
        expect(await store.claimNextInThread(B, 't', 2, { ...leaseOf(w), cap: 1 }, NOW)).toBeNull();
        await store.setCapLimit(B, null);
        const c = await store.claimNextInThread(B, 't', 2, { ...leaseOf(w), cap: 1 }, NOW);
        expect(c?.id).toBe('c');
        expect(c?.threadId).toBe('th-1');
      });

      it('claimNextInThread returns null on a cancelled batch', async () => {
        await load(store, [{ id: 'a', thread: 't' }, { id: 'b', thread: 't' }]);
        const w = await worker();
        const a = await running(w, 'a', 'r-a');
        await store.markFinished(a, snap('r-a'), 'completed');
        await store.cancelBatch(B);
        expect(await store.claimNextInThread(B, 't', 0, { ...leaseOf(w), cap: 10 }, NOW)).toBeNull();
      });

      it('takes over an item only once its lease has expired', async () => {
        await load(store, ['a', 'b']);
        const w1 = await worker();
        const w2 = await worker();
        await claim(w1, { max: 1 });
        await running(w1, 'a', 'r-a');
        const early = await claim(w2, { afterSeq: 0 }, NOW + LEASE_MS);
        expect(ids(early.items)).toEqual(['b']);
        const late = await claim(w2, { afterSeq: early.cursor }, NOW + LEASE_MS + 1);
        expect(late.items.map((i) => [i.id, i.state, i.owner])).toEqual([['a', 'running', w2]]);
        expect(late.fresh).toBe(0);
        expect(late.items[0]!.leaseUntil).toBe(NOW + 2 * LEASE_MS + 1);
        expect(await item('a')).toMatchObject({ owner: w2, state: 'running', runId: 'r-a', leaseUntil: NOW + 2 * LEASE_MS + 1 });
      });

      it('takes a dead worker\'s items over together, each with its own next token, the records as stored; the new owner then drives each', async () => {
        await load(store, ['a', 'b', 'c', 'd']);
        const w1 = await worker();
        const w2 = await worker();
        await claim(w1, { max: 3 });
        await running(w1, 'a', 'r-a');
        // b's token one ahead of the others: its own next one is kept apart from theirs.
        const w0 = await worker();
        const b = (await claim(w0, { max: 1, takeOver: ['submitting'], skip: ['c'] }, NOW + LEASE_MS + 1)).items[0]!;
        expect(b.id).toBe('b');
        const before = new Map((await Promise.all(['a', 'b', 'c'].map((id) => item(id)))).map((i) => [i.id, i.fence]));
        const later = NOW + 3 * LEASE_MS;
        const c = await claim(w2, { max: 4 }, later);
        expect(c.items.map((i) => [i.id, i.owner, i.fence, i.leaseUntil])).toEqual([
          ['a', w2, before.get('a')! + 1, later + LEASE_MS],
          ['b', w2, before.get('b')! + 1, later + LEASE_MS],
          ['c', w2, before.get('c')! + 1, later + LEASE_MS],
          ['d', w2, 1, later + LEASE_MS],
        ]);
        expect(c.fresh).toBe(1);
        for (const it of c.items.slice(0, 3)) expect(await item(it.id)).toMatchObject({ state: it.state, owner: w2, fence: it.fence, leaseUntil: it.leaseUntil, updatedAt: it.updatedAt });
        // Each taken item is driven with the record the claim gave it; its record of the old token is refused.
        const [ta, tb, tc] = c.items as [ItemRecord, ItemRecord, ItemRecord];
        await expect(store.markFinished({ ...ta, fence: before.get('a')! }, snap('r-a'), 'completed')).rejects.toBeInstanceOf(LeaseLostError);
        expect(await store.markFinished(ta, snap('r-a'), 'completed')).toMatchObject({ state: 'completed' });
        for (const [t, run] of [[tb, 'r-b'], [tc, 'r-c']] as const) {
          const admitted = { id: run, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: t.pendingKey! };
          await expect(store.markAdmitted({ ...t, fence: before.get(t.id)! }, admitted)).rejects.toBeInstanceOf(LeaseLostError);
          expect(await store.markAdmitted(t, admitted)).toMatchObject({ state: 'running', runId: run, owner: w2 });
        }
      });

      it('takeOver limits the states taken over', async () => {
        await load(store, ['a', 'b']);
        const w1 = await worker();
        const w2 = await worker();
        await claim(w1);
        await running(w1, 'a', 'r-a');
        const later = NOW + LEASE_MS + 1;
        expect((await claim(w2, { takeOver: [] }, later)).items).toEqual([]);
        expect(ids((await claim(w2, { takeOver: ['running'] }, later)).items)).toEqual(['a']);
        expect((await item('b')).owner).toBe(w1);
        expect(ids((await claim(w2, { takeOver: ['submitting'] }, later)).items)).toEqual(['b']);
      });

      it('skip leaves those items alone although their lease is gone; the others are taken over', async () => {
        await load(store, ['a', 'b', 'c']);
        const w1 = await worker();
        const w2 = await worker();
        await claim(w1, { max: 2 });
        const later = NOW + LEASE_MS + 1;
        const c = await claim(w2, { max: 1, skip: ['a'] }, later);
        expect(ids(c.items)).toEqual(['b']);
        expect((await item('a')).owner).toBe(w1);
        expect(ids((await claim(w2, { max: 1 }, later)).items)).toEqual(['a']);
      });

      it('orphans come before queued items and count toward max', async () => {
        await load(store, ['a', 'b', 'c']);
        const w1 = await worker();
        const w2 = await worker();
        await claim(w1, { max: 1 });
        const c = await claim(w2, { max: 2 }, NOW + LEASE_MS + 1);
        expect(ids(c.items)).toEqual(['a', 'b']);
        expect(c.fresh).toBe(1);
      });

      it('an answered item no worker held needs a free slot; one a dead worker held does not', async () => {
        await load(store, ['a', 'b', 'c']);
        const w1 = await worker();
        const w2 = await worker();
        // a: held, then answered by a person (no worker has held it since)
        const a = await running(w1, 'a', 'r-a');
        await store.markPaused(a, snap('r-a', { status: 'requires_action' }), () => ({ kind: 'hold', reason: 'person' }));
        await store.answerHeld(B, 'a', decision('r-a', { by: 'person' }), 'key-a1');
        expect(await item('a')).toMatchObject({ state: 'waiting', owner: null, leaseUntil: null });
        // b: running under w1 (live)
        await running(w1, 'b', 'r-b');
        // only b is in flight; a needs a slot of its own
        const full = await claim(w2, { cap: 1 }, NOW + 1);
        expect(full.items).toEqual([]);
        expect(full.inFlight).toBe(1);
        // naming it as ended frees nothing: it was not counted in flight
        expect((await claim(w2, { cap: 1, ended: ['a'] }, NOW + 1)).items).toEqual([]);
        expect((await item('a')).owner).toBeNull();
        const c = await claim(w2, { cap: 2 }, NOW + 1);
        expect(ids(c.items)).toEqual(['a']);
        expect(c.inFlight).toBe(2);
        expect(c.fresh).toBe(0);
        expect(await item('a')).toMatchObject({ state: 'waiting', owner: w2, leaseUntil: NOW + 1 + LEASE_MS });
        expect((await item('c')).state).toBe('queued');
      });

      it('an answered item a dead worker held is taken over even with no free slot', async () => {
        await load(store, ['a', 'b']);
        const w1 = await worker();
        const w2 = await worker();
        const a = await running(w1, 'a', 'r-a');
        await store.markPaused(a, snap('r-a', { status: 'requires_action' }), () => answerWith(decision('r-a'), 'key-a1'));
        await running(w1, 'b', 'r-b');
        const c = await claim(w2, { cap: 2 }, NOW + LEASE_MS + 1);
        expect(c.items.map((i) => [i.id, i.state])).toEqual([['a', 'waiting'], ['b', 'running']]);
        expect(c.inFlight).toBe(2);
        // also after the worker retired (its leases ended, it held the item)
        const w3 = await worker();
        await store.retireWorker(w2, NOW + LEASE_MS + 2);
        expect(ids((await claim(w3, { cap: 1 }, NOW + LEASE_MS + 3)).items)).toEqual(['a', 'b']);
      });

      it('`ended` item ids free their slots only while those items are still active', async () => {
        await load(store, ['a', 'b', 'c', 'd']);
        const w = await worker();
        const c1 = await claim(w, { cap: 2 });
        expect(ids(c1.items)).toEqual(['a', 'b']);
        const c2 = await claim(w, { cap: 2, ended: ['a'], afterSeq: c1.cursor });
        expect(ids(c2.items)).toEqual(['c']);
        // a's outcome lands: it no longer counts, and naming it again frees nothing more
        const a = await running(w, 'a', 'r-a');
        await store.markFinished(a, snap('r-a'), 'completed');
        const c3 = await claim(w, { cap: 2, ended: ['a'], afterSeq: c2.cursor });
        expect(c3.items).toEqual([]);
        expect(c3.inFlight).toBe(2);
        // unknown ids free nothing either
        expect((await claim(w, { cap: 2, ended: ['zz'], afterSeq: c2.cursor })).items).toEqual([]);
      });

      it('releaseItem gives the lease up without changing the state, only for its owner', async () => {
        await load(store, ['a']);
        const w1 = await worker();
        const w2 = await worker();
        await running(w1, 'a', 'r-a');
        await store.releaseItem(B, 'a', w2);
        expect((await item('a')).owner).toBe(w1);
        await store.releaseItem(B, 'a', w1);
        expect(await item('a')).toMatchObject({ owner: null, leaseUntil: 0, state: 'running', runId: 'r-a' });
        expect(ids((await claim(w2, {}, NOW + 1)).items)).toEqual(['a']);
      });
    });

    // ------------------------------------------------------------------ transitions
    describe('transitions', () => {
      it('markAdmitted records the run and moves the item to running', async () => {
        await load(store, ['a']);
        const w = await worker();
        const [it] = (await claim(w)).items;
        const key = idempotencyKey(B, 'a', 0);
        const after = await store.markAdmitted(it!, { id: 'r-a', status: 'queued', threadId: 'th-9', step: 0, parentRunId: null, idempotencyKey: key });
        expect(after).toMatchObject({ state: 'running', runId: 'r-a', runStatus: 'queued', threadId: 'th-9', pendingKey: null, pendingAnswer: null, owner: w });
        expect(await item('a')).toEqual(after);
        const run = await store.getRun('r-a');
        expect(run).toMatchObject({ id: 'r-a', batchId: B, itemId: 'a', step: 0, parentRunId: null, idempotencyKey: key, status: 'queued', threadId: 'th-9', requiredAction: null, output: null, finishedAt: null });
        expect(typeof run!.createdAt).toBe('string');
        expect(await store.getRun('nope')).toBeNull();
      });

      it('markPaused with an answer: decision recorded, item waiting at step+1 with the next key, still owned', async () => {
        await load(store, ['a']);
        const w = await worker();
        const a = await running(w, 'a', 'r-a');
        const action = { tool: 'confirm_scope', input: { cost: 3 } };
        const d = decision('r-a');
        const { outcome, item: after } = await store.markPaused(a, snap('r-a', { status: 'requires_action', requiredAction: action, output: { text: 'paused' } }), () => answerWith(d, 'key-1'));
        expect(outcome).toEqual(answerWith(d, 'key-1'));
        expect(after).toMatchObject({ state: 'waiting', step: 1, pendingKey: 'key-1', pendingAnswer: { approve: true }, runStatus: 'requires_action', text: 'paused', holdReason: null, owner: w });
        const run = await store.getRun('r-a');
        expect(run).toMatchObject({ status: 'requires_action', requiredAction: action, output: { text: 'paused' } });
        expect(run!.finishedAt).not.toBeNull();
        const ds = await store.decisionsForItem(B, 'a');
        expect(ds).toHaveLength(1);
        expect(ds[0]).toMatchObject({ batchId: B, itemId: 'a', runId: 'r-a', tool: 'confirm_scope', input: { cost: 3 }, answer: { approve: true }, by: 'policy', reason: 'cheap', cost: 3 });
        expect(typeof ds[0]!.decidedAt).toBe('string');
      });

      it('markPaused gives decide the cost approved so far in the batch', async () => {
        await load(store, ['a', 'b']);
        const w = await worker();
        const a = await running(w, 'a', 'r-a');
        const seen: number[] = [];
        await store.markPaused(a, snap('r-a', { status: 'requires_action' }), (cost) => {
          seen.push(cost);
          return answerWith(decision('r-a', { cost: 2.5 }), 'ka');
        });
        const b = await running(w, 'b', 'r-b');
        await store.markPaused(b, snap('r-b', { status: 'requires_action' }), (cost) => {
          seen.push(cost);
          return answerWith(decision('r-b', { cost: 4 }), 'kb');
        });
        expect(seen).toEqual([0, 2.5]);
        expect(await store.approvedCost(B)).toBe(6.5);
      });

      it('markPaused with a hold: item held with its reason and no owner', async () => {
        await load(store, ['a']);
        const w = await worker();
        const a = await running(w, 'a', 'r-a');
        const { outcome, item: after } = await store.markPaused(a, snap('r-a', { status: 'requires_action' }), () => ({ kind: 'hold', reason: 'over budget' }));
        expect(outcome).toEqual({ kind: 'hold', reason: 'over budget' });
        expect(after).toMatchObject({ state: 'held', holdReason: 'over budget', owner: null, leaseUntil: null, step: 0 });
        expect(await store.decisionsForItem(B, 'a')).toEqual([]);
        expect((await store.liveWorkers(B, 60_000, NOW))[0]!.items).toBe(0);
      });

      it('respond chain: each next run is admitted at the next step with its parent; runChain and decisions are first to last', async () => {
        await load(store, ['a']);
        const w = await worker();
        const a = await running(w, 'a', 'r-a0');
        const { item: waiting } = await store.markPaused(a, snap('r-a0', { status: 'requires_action' }), () => answerWith(decision('r-a0'), 'key-a1'));
        const a1 = await store.markAdmitted(waiting, { id: 'r-a1', status: 'running', threadId: null, step: 1, parentRunId: 'r-a0', idempotencyKey: 'key-a1' });
        expect(a1).toMatchObject({ state: 'running', runId: 'r-a1', step: 1, pendingKey: null, pendingAnswer: null });
        const { item: w2 } = await store.markPaused(a1, snap('r-a1', { status: 'requires_action' }), () =>
          answerWith(decision('r-a1', { tool: 'ask_choice', answer: { choice: 'b' } }), 'key-a2'));
        expect(w2).toMatchObject({ state: 'waiting', step: 2, pendingKey: 'key-a2' });
        const a2 = await store.markAdmitted(w2, { id: 'r-a2', status: 'running', threadId: null, step: 2, parentRunId: 'r-a1', idempotencyKey: 'key-a2' });
        await store.markFinished(a2, snap('r-a2'), 'completed');
        expect((await store.decisionsForItem(B, 'a')).map((d) => [d.runId, d.tool])).toEqual([['r-a0', 'confirm_scope'], ['r-a1', 'ask_choice']]);
        const chain = await store.runChain(B, 'a');
        expect(chain.map((r) => [r.id, r.step, r.parentRunId, r.idempotencyKey])).toEqual([
          ['r-a0', 0, null, idempotencyKey(B, 'a', 0)],
          ['r-a1', 1, 'r-a0', 'key-a1'],
          ['r-a2', 2, 'r-a1', 'key-a2'],
        ]);
        expect(await store.runChain(B, 'zz')).toEqual([]);
      });

      it('markFinished records the run, the final state and its files (expiry: run created + 30 days); the lease ends', async () => {
        await load(store, ['a']);
        const w = await worker();
        const a = await running(w, 'a', 'r-a');
        const created = '2026-01-01T00:00:00.000Z';
        const files = [fileRef('f1'), fileRef('f2', { role: null, name: null, tool: null })];
        const done = await store.markFinished(a, snap('r-a', { threadId: 'th-2', createdAt: created, output: { text: 'final', tool_results: [1] }, files }), 'completed');
        expect(done).toMatchObject({ state: 'completed', runStatus: 'completed', text: 'final', threadId: 'th-2', error: null, owner: null, leaseUntil: null });
        expect(done.finishedAt).not.toBeNull();
        expect(await store.getRun('r-a')).toMatchObject({ status: 'completed', output: { text: 'final', tool_results: [1] } });
        const fs = await store.filesForItem(B, 'a');
        expect(ids(fs)).toEqual(['f1', 'f2']);
        const expires = new Date(Date.parse(created) + 30 * DAY_MS).toISOString();
        expect(fs[0]).toMatchObject({ batchId: B, itemId: 'a', runId: 'r-a', tool: 'write_report', role: 'report', name: 'f1.md', url: 'http://svc/api/v1/files/f1', mediaType: null, status: 'pending', path: null, bytes: null, sha256: null, error: null, host: null });
        expect(fs.map((f) => f.expiresAt)).toEqual([expires, expires]);
        expect(fs[1]).toMatchObject({ tool: null, role: null, name: null });
        expect(typeof fs[0]!.firstSeenAt).toBe('string');
      });

      it('a file of a run without a creation time expires 30 days after it was first seen; a file seen again keeps its first record', async () => {
        await load(store, ['a', 'b']);
        const w = await worker();
        const a = await running(w, 'a', 'r-a');
        await store.markFinished(a, snap('r-a', { createdAt: null, files: [fileRef('f1')] }), 'completed');
        const f = await store.getFile(B, 'f1');
        expect(Date.parse(f!.expiresAt) - Date.parse(f!.firstSeenAt)).toBe(30 * DAY_MS);
        const b = await running(w, 'b', 'r-b');
        await store.markFinished(b, snap('r-b', { files: [fileRef('f1', { name: 'other.md' })] }), 'completed');
        expect(await store.getFile(B, 'f1')).toMatchObject({ itemId: 'a', runId: 'r-a', name: 'f1.md' });
        expect(await store.filesForItem(B, 'b')).toEqual([]);
      });

      it('markFinished as failed sets an error; as cancelled ends the item cancelled', async () => {
        await load(store, ['a', 'b']);
        const w = await worker();
        const a = await running(w, 'a', 'r-a');
        const failed = await store.markFinished(a, snap('r-a', { status: 'failed' }), 'failed');
        expect(failed.state).toBe('failed');
        expect(failed.error).toContain('r-a');
        const b = await running(w, 'b', 'r-b');
        expect((await store.markFinished(b, snap('r-b', { status: 'cancelled' }), 'cancelled')).state).toBe('cancelled');
        expect((await store.itemCounts(B))).toMatchObject({ failed: 1, cancelled: 1 });
      });

      it("markFinished as failed keeps the service's error code and message verbatim on the item and the run", async () => {
        await load(store, ['a', 'b']);
        const w = await worker();
        const message = 'simulated failure \u001b[31m(@fail)\nsecond line';
        const a = await running(w, 'a', 'r-a');
        const failed = await store.markFinished(a, snap('r-a', { status: 'failed', error: { code: 'agent_error', message } }), 'failed');
        expect(failed).toMatchObject({ state: 'failed', error: message, errorCode: 'agent_error' });
        expect(await item('a')).toMatchObject({ error: message, errorCode: 'agent_error' });
        expect(await store.getRun('r-a')).toMatchObject({ errorCode: 'agent_error', error: message });
        expect((await store.runChain(B, 'a'))[0]).toMatchObject({ errorCode: 'agent_error', error: message });
        // No reason given: the item still says which run ended how; no code is made up.
        const b = await running(w, 'b', 'r-b');
        const bare = await store.markFinished(b, snap('r-b', { status: 'failed' }), 'failed');
        expect(bare).toMatchObject({ errorCode: null, error: 'run r-b ended with status failed' });
        expect(await store.getRun('r-b')).toMatchObject({ errorCode: null, error: null });
      });

      it('a retried item that completes clears the error and its code', async () => {
        await load(store, ['a']);
        const w = await worker();
        await store.markFinished(await running(w, 'a', 'r-a'), snap('r-a', { status: 'failed', error: { code: 'x', message: 'y' } }), 'failed');
        expect(await store.requeue(B, null, ['failed'])).toEqual(['a']);
        const done = await store.markFinished(await running(w, 'a', 'r-a2'), snap('r-a2'), 'completed');
        expect(done).toMatchObject({ state: 'completed', error: null, errorCode: null });
      });

      it('markCancelled ends an unfinished item; false for an ended or unknown one', async () => {
        await load(store, ['a', 'b', 'c']);
        const w = await worker();
        await running(w, 'a', 'r-a');
        expect(await store.markCancelled(B, 'a')).toBe(true);
        expect(await item('a')).toMatchObject({ state: 'cancelled', pendingKey: null, owner: null, leaseUntil: null });
        expect((await item('a')).finishedAt).not.toBeNull();
        expect(await store.markCancelled(B, 'a')).toBe(false);
        expect(await store.markCancelled(B, 'zz')).toBe(false);
        expect(await store.markCancelled(B, 'c')).toBe(true);
        expect((await item('c')).state).toBe('cancelled');
      });

      it('markError ends the item in error with the message; null for an unknown item', async () => {
        await load(store, ['a']);
        const w = await worker();
        await claim(w);
        const it = await store.markError(B, 'a', 'bad request body');
        expect(it).toMatchObject({ state: 'error', error: 'bad request body', errorCode: null, pendingKey: null, owner: null, leaseUntil: null });
        expect(it!.finishedAt).not.toBeNull();
        expect(await store.markError(B, 'zz', 'x')).toBeNull();
      });

      it('markError keeps a code when one is given', async () => {
        await load(store, ['a']);
        await claim(await worker());
        expect(await store.markError(B, 'a', 'HTTP 400 POST /runs: input too long', 'input_too_long')).toMatchObject({ state: 'error', errorCode: 'input_too_long' });
        expect(await item('a')).toMatchObject({ error: 'HTTP 400 POST /runs: input too long', errorCode: 'input_too_long' });
      });

      it('answerHeld records the person\'s answer (and name) and makes the item wait for any worker; refused on an item not held with ItemNotHeldError', async () => {
        await load(store, ['a', 'b']);
        const w = await worker();
        const a = await running(w, 'a', 'r-a');
        await store.markPaused(a, snap('r-a', { status: 'requires_action' }), () => ({ kind: 'hold', reason: 'person' }));
        await store.answerHeld(B, 'a', decision('r-a', { by: 'person', person: 'alice', answer: { approve: false }, reason: null, cost: 0 }), 'key-a1');
        expect(await item('a')).toMatchObject({ state: 'waiting', step: 1, pendingKey: 'key-a1', pendingAnswer: { approve: false }, holdReason: null, owner: null });
        expect((await store.decisionsForItem(B, 'a')).map((d) => [d.by, d.person, d.reason])).toEqual([['person', 'alice', null]]);
        await expect(store.answerHeld(B, 'a', decision('r-a'), 'k')).rejects.toThrow(ItemNotHeldError);
        await expect(store.answerHeld(B, 'b', decision('r-a'), 'k')).rejects.toThrow(ItemNotHeldError);
        expect(await store.decisionsForItem(B, 'a')).toHaveLength(1);
      });

      it('answerHeld refuses an answer for a pause the item is no longer held on (ItemNotHeldError), nothing recorded', async () => {
        await load(store, ['a']);
        const a = await running(await worker(), 'a', 'r-a2');
        await store.markPaused(a, snap('r-a2', { status: 'requires_action' }), () => ({ kind: 'hold', reason: 'person' }));
        await expect(store.answerHeld(B, 'a', decision('r-a1', { by: 'person', person: 'ann' }), 'k')).rejects.toThrow(ItemNotHeldError);
        expect(await store.decisionsForItem(B, 'a')).toEqual([]);
        expect(await item('a')).toMatchObject({ state: 'held', runId: 'r-a2' });
      });

      it('answerHeld with a budget: past it unconfirmed is OverBudgetError (nothing recorded); confirmed, recorded as over; within it, not over', async () => {
        await load(store, ['a', 'b']);
        const w = await worker();
        for (const id of ['a', 'b']) {
          const it = await running(w, id, `r-${id}`);
          await store.markPaused(it, snap(`r-${id}`, { status: 'requires_action' }), () => ({ kind: 'hold', reason: 'person' }));
        }
        const guard = { budget: 10, allowOver: false };
        expect(await store.answerHeld(B, 'a', decision('r-a', { by: 'person', person: 'ann', cost: 6 }), 'ka', guard)).toEqual({ overBudget: false });
        const refused = await store.answerHeld(B, 'b', decision('r-b', { by: 'person', person: 'ann', cost: 5 }), 'kb', guard).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(OverBudgetError);
        expect(refused).toMatchObject({ approved: 6, cost: 5, budget: 10 });
        expect(await store.decisionsForItem(B, 'b')).toEqual([]);
        expect(await item('b')).toMatchObject({ state: 'held' });
        expect(await store.answerHeld(B, 'b', decision('r-b', { by: 'person', person: 'ann', cost: 5 }), 'kb', { ...guard, allowOver: true })).toEqual({ overBudget: true });
        expect((await store.decisionsForItem(B, 'b')).map((d) => d.overBudget)).toEqual([true]);
        expect((await store.decisionsForItem(B, 'a')).map((d) => d.overBudget)).toEqual([false]);
        expect(await store.approvedCost(B)).toBe(11);
      });

      it('redecideHeld: an answer moves the item to waiting; a hold changes nothing; an item not held is not decided', async () => {
        await load(store, ['a', 'b']);
        const w = await worker();
        for (const id of ['a', 'b']) {
          const it = await running(w, id, `r-${id}`);
          await store.markPaused(it, snap(`r-${id}`, { status: 'requires_action' }), () => ({ kind: 'hold', reason: 'old policy' }));
        }
        const costs: number[] = [];
        const o1 = await store.redecideHeld(B, 'a', (c) => (costs.push(c), answerWith(decision('r-a', { cost: 1.5 }), 'key-a1')));
        expect(o1.kind).toBe('answer');
        expect(await item('a')).toMatchObject({ state: 'waiting', step: 1, pendingKey: 'key-a1' });
        const o2 = await store.redecideHeld(B, 'b', (c) => (costs.push(c), { kind: 'hold', reason: 'still no' }));
        expect(o2).toEqual({ kind: 'hold', reason: 'still no' });
        expect(await item('b')).toMatchObject({ state: 'held', holdReason: 'old policy', step: 0 });
        expect(costs).toEqual([0, 1.5]);
        let called = false;
        const o3 = await store.redecideHeld(B, 'a', () => ((called = true), answerWith(decision('r-a'), 'x')));
        expect(o3.kind).toBe('hold');
        expect(called).toBe(false);
        expect(await store.decisionsForItem(B, 'a')).toHaveLength(1);
      });

      it('requeue starts a new attempt: queued, attempt+1, a new key at the next claim, earlier runs kept', async () => {
        await load(store, ['a', 'b', 'c']);
        const w = await worker();
        const a = await running(w, 'a', 'r-a0');
        await store.markFinished(a, snap('r-a0', { status: 'failed' }), 'failed');
        const b = await running(w, 'b', 'r-b0');
        await store.markFinished(b, snap('r-b0'), 'completed');
        expect(await store.requeue(B, null, ['failed'])).toEqual(['a']);
        expect(await item('a')).toMatchObject({ state: 'queued', attempt: 1, step: 0, pendingKey: null, runId: null, text: null, error: null, finishedAt: null, owner: null, leaseUntil: null });
        expect((await item('b')).state).toBe('completed');
        const c = await claim(w, {}, NOW + 1);
        const again = c.items.find((i) => i.id === 'a')!;
        expect(again.pendingKey).toBe(idempotencyKey(B, 'a', 0, 1));
        expect(again.pendingKey).not.toBe(idempotencyKey(B, 'a', 0));
        const a1 = await store.markAdmitted(again, { id: 'r-a1', status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: again.pendingKey! });
        await store.markFinished(a1, snap('r-a1'), 'completed');
        expect(ids(await store.runChain(B, 'a'))).toEqual(['r-a0', 'r-a1']);
        expect((await item('a')).attempt).toBe(1);
      });

      it('requeue by ids takes only those in the given states and only ended items; it clears a cancellation', async () => {
        await load(store, ['a', 'b', 'c', 'd']);
        const w = await worker();
        await running(w, 'a', 'r-a');
        await store.markError(B, 'b', 'boom');
        expect(await store.cancelBatch(B)).toBe(2);
        expect(await store.requeue(B, ['a', 'b', 'c', 'zz'], ['running', 'error'])).toEqual(['b']);
        expect((await item('a')).state).toBe('running');
        expect((await item('c')).state).toBe('cancelled');
        expect((await store.findBatch(B))!.cancelledAt).toBeNull();
        expect(await store.requeue(B, null, ['cancelled', 'queued'])).toEqual(['c', 'd']);
        expect((await claim(w)).cancelled).toBe(false);
      });

      it('the old owner gets LeaseLostError after a takeover and changes nothing', async () => {
        await load(store, ['a']);
        const w1 = await worker();
        const w2 = await worker();
        const stale = (await claim(w1)).items[0]!;
        const taken = (await claim(w2, {}, NOW + LEASE_MS + 1)).items[0]!;
        expect(taken.owner).toBe(w2);
        await expect(store.markAdmitted(stale, { id: 'r-old', status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: stale.pendingKey! })).rejects.toBeInstanceOf(LeaseLostError);
        expect(await store.getRun('r-old')).toBeNull();
        const mine = await store.markAdmitted(taken, { id: 'r-new', status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: taken.pendingKey! });
        const old = { ...mine, owner: w1 };
        await expect(store.markFinished(old, snap('r-new'), 'completed')).rejects.toBeInstanceOf(LeaseLostError);
        await expect(store.markPaused(old, snap('r-new'), () => ({ kind: 'hold', reason: 'x' }))).rejects.toBeInstanceOf(LeaseLostError);
        expect(await item('a')).toMatchObject({ state: 'running', owner: w2, runId: 'r-new' });
        expect((await store.getRun('r-new'))!.finishedAt).toBeNull();
      });

      it('each claim gives the item a fencing token one higher; a driver of an older token, same worker or not, changes nothing and is told who holds it', async () => {
        await load(store, ['a']);
        const w1 = await worker();
        const w2 = await worker();
        const first = (await claim(w1)).items[0]!;
        const admitted = await store.markAdmitted(first, { id: 'r-a', status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: first.pendingKey! });
        const second = (await claim(w2, {}, NOW + LEASE_MS + 1)).items[0]!;
        expect(second.fence).toBe(first.fence + 1);
        // w1 dies, w2 stalls; w1 comes back and takes it again: the token grows again.
        const third = (await claim(w1, {}, NOW + 3 * LEASE_MS)).items[0]!;
        expect([third.owner, third.fence]).toEqual([w1, second.fence + 1]);
        // w1's first driver (same owner, older token) is refused, naming the holder's token.
        const refused = store.markPaused(admitted, snap('r-a', { status: 'requires_action', requiredAction: { tool: 'confirm_scope', input: { cost: 3 } } }), () => answerWith(decision('r-a'), 'k1'));
        await expect(refused).rejects.toBeInstanceOf(LeaseLostError);
        await expect(refused).rejects.toThrow(`token ${third.fence}, this driver's ${first.fence}`);
        await expect(store.markFinished(admitted, snap('r-a'), 'completed')).rejects.toThrow(`claimed by worker ${w1}`);
        await expect(store.markError(B, 'a', 'boom', null, admitted)).rejects.toBeInstanceOf(LeaseLostError);
        await store.releaseItem(B, 'a', w1, first.fence);
        expect(await store.decisionsForItem(B, 'a')).toEqual([]);
        expect(await item('a')).toMatchObject({ state: 'running', owner: w1, fence: third.fence, step: 0 });
        // The current token writes.
        expect((await store.markError(B, 'a', 'boom', null, third))!.state).toBe('error');
      });

      it('a claim never takes an item the claiming worker holds itself, even with its lease run out (a second driver in one worker)', async () => {
        await load(store, ['a', 'b']);
        const w1 = await worker();
        const w2 = await worker();
        await running(w1, 'a', 'r-a');
        const again = await claim(w1, { afterSeq: 5 }, NOW + LEASE_MS + 1);
        expect(again.items).toEqual([]);
        const other = await claim(w2, { afterSeq: 5 }, NOW + LEASE_MS + 1);
        expect(other.items.map((i) => [i.id, i.owner])).toEqual([['a', w2]]);
      });

      it('a lease written with no time given runs from the database clock as the statement runs', async () => {
        await load(store, ['a']);
        const w = (await store.registerWorker(B, { host: 'h', pid: 1 })).id;
        const before = Date.now();
        const it = (await store.claimItems(B, { ...leaseOf(w, 5_000), max: 1, cap: 1, afterSeq: -1 })).items[0]!;
        await store.heartbeat(leaseOf(w, 5_000));
        const after = Date.now();
        const lease = (await item('a')).leaseUntil!;
        expect(it.leaseUntil).toBeGreaterThanOrEqual(before + 5_000 - 50);
        expect(lease).toBeGreaterThanOrEqual(it.leaseUntil!);
        expect(lease).toBeLessThanOrEqual(after + 5_000 + 50);
      });
    });

    describe('one decision per paused run', () => {
      const paused = (runId: string, cost = 3): RunSnapshot =>
        snap(runId, { status: 'requires_action', requiredAction: { tool: 'confirm_scope', input: { cost } } });

      it('a second markPaused of one run records nothing and hands back the first decision and its key; the budget counts it once', async () => {
        await load(store, ['a']);
        const w = await worker();
        const it = await running(w, 'a', 'r-a');
        const seen: number[] = [];
        const decide = (key: string, answer: Record<string, unknown>) => (approved: number): PauseOutcome => {
          seen.push(approved);
          return answerWith(decision('r-a', { answer }), key);
        };
        const one = await store.markPaused(it, paused('r-a'), decide('k-1', { approve: true }));
        // A replay of the same transition (its commit lost on the way back) or a second driver of the same token.
        const two = await store.markPaused(it, paused('r-a'), decide('k-2', { approve: false }));
        expect(seen).toEqual([0]);
        expect(two.outcome).toMatchObject({ kind: 'answer', nextKey: 'k-1', decision: { answer: { approve: true }, cost: 3 } });
        expect(two.item).toMatchObject({ state: 'waiting', step: one.item.step, pendingKey: 'k-1', pendingAnswer: { approve: true } });
        expect((await store.decisionsForItem(B, 'a')).map((d) => [d.runId, d.respondKey])).toEqual([['r-a', 'k-1']]);
        expect(await store.approvedCost(B)).toBe(3);
      });

      it('a person and a policy deciding one held pause: one decision, the second refused', async () => {
        await load(store, ['a']);
        const w = await worker();
        const it = await running(w, 'a', 'r-a');
        await store.markPaused(it, paused('r-a'), () => ({ kind: 'hold', reason: 'a person decides' }));
        await store.answerHeld(B, 'a', decision('r-a', { by: 'person', person: 'ana' }), 'k-1');
        await expect(store.answerHeld(B, 'a', decision('r-a', { by: 'person', person: 'bo' }), 'k-x')).rejects.toBeInstanceOf(ItemNotHeldError);
        expect((await store.redecideHeld(B, 'a', () => answerWith(decision('r-a'), 'k-y'))).kind).toBe('hold');
        expect((await store.decisionsForItem(B, 'a')).map((d) => [d.person, d.respondKey])).toEqual([['ana', 'k-1']]);
        expect(await item('a')).toMatchObject({ state: 'waiting', pendingKey: 'k-1', step: 1 });
      });

      it('a decision records only a trusted cost: two of 1e308 and one of -140 count 0, every total stays finite', async () => {
        await load(store, ['a', 'b', 'c', 'd']);
        const w = await worker();
        const costs: Record<string, number> = { a: 1e308, b: 1e308, c: -140, d: 4 };
        for (const [id, cost] of Object.entries(costs)) {
          const it = await running(w, id, `r-${id}`);
          await store.markPaused(it, paused(`r-${id}`, cost), () => answerWith(decision(`r-${id}`, { input: { cost }, cost }), `k-${id}`));
        }
        expect((await store.batchPauses(B)).map((p) => [p.itemId, p.input['cost'], p.decision?.cost])).toEqual([
          ['a', 1e308, 0], ['b', 1e308, 0], ['c', -140, 0], ['d', 4, 4],
        ]);
        expect(await store.approvedCost(B)).toBe(4);
        expect(await store.batchTotals(B)).toMatchObject({ approvedCost: 4 });
        expect([...(await store.itemStats(B)).values()].map((x) => x.approvedCost).sort()).toEqual([0, 0, 0, 4]);
      });
    });

    // ------------------------------------------------------------------ reads
    describe('reads', () => {
      it('batchPauses: every paused run with its decision (none while held), in the order recorded; decidedBy filters', async () => {
        await load(store, ['a', 'b', 'c']);
        const w = await worker();
        const plan = { tool: 'confirm_scope', input: { cost: 7 } };
        const a = await running(w, 'a', 'r-a');
        await store.markPaused(a, snap('r-a', { status: 'requires_action', requiredAction: plan }), () => answerWith(decision('r-a', { input: plan.input, cost: 7 }), 'k-a'));
        const b = await running(w, 'b', 'r-b');
        await store.markPaused(b, snap('r-b', { status: 'requires_action', requiredAction: { tool: 'booking', input: { when: 'now' } } }), () => ({ kind: 'hold', reason: 'person' }));
        const c = await running(w, 'c', 'r-c');
        await store.markPaused(c, snap('r-c', { status: 'requires_action', requiredAction: plan }), () => ({ kind: 'hold', reason: 'person' }));
        await store.answerHeld(B, 'c', decision('r-c', { by: 'person', person: 'ann', answer: { approved: false }, reason: 'too dear', cost: 0 }), 'k-c');
        const all = await store.batchPauses(B);
        expect(all.map((p) => [p.itemId, p.runId, p.step, p.tool, p.input, p.decision?.by ?? null, p.decision?.person ?? null])).toEqual([
          ['a', 'r-a', 0, 'confirm_scope', { cost: 7 }, 'policy', null],
          ['b', 'r-b', 0, 'booking', { when: 'now' }, null, null],
          ['c', 'r-c', 0, 'confirm_scope', { cost: 7 }, 'person', 'ann'],
        ]);
        expect(all[0]!.decision).toMatchObject({ answer: { approve: true }, cost: 7, reason: 'cheap' });
        expect(all[2]!.decision).toMatchObject({ answer: { approved: false }, cost: 0, reason: 'too dear' });
        for (const p of all) expect(Date.parse(p.pausedAt ?? '')).not.toBeNaN();
        expect(Date.parse(all[2]!.decision!.decidedAt)).toBeGreaterThanOrEqual(Date.parse(all[2]!.pausedAt!));
        expect((await store.batchPauses(B, { decidedBy: 'person' })).map((p) => p.itemId)).toEqual(['c']);
        expect((await store.batchPauses(B, { decidedBy: 'policy' })).map((p) => p.itemId)).toEqual(['a']);
        expect(await store.batchPauses('nope')).toEqual([]);
      });

      it('listItems filters by states, afterSeq and limit, in file order', async () => {
        await load(store, ['a', 'b', 'c', 'd', 'e']);
        const w = await worker();
        await claim(w, { max: 2 });
        await store.markError(B, 'd', 'x');
        expect(ids(await store.listItems(B))).toEqual(['a', 'b', 'c', 'd', 'e']);
        expect(ids(await store.listItems(B, { states: ['submitting'] }))).toEqual(['a', 'b']);
        expect(ids(await store.listItems(B, { states: ['queued', 'error'] }))).toEqual(['c', 'd', 'e']);
        expect(ids(await store.listItems(B, { afterSeq: 2 }))).toEqual(['d', 'e']);
        expect(ids(await store.listItems(B, { limit: 2 }))).toEqual(['a', 'b']);
        expect(ids(await store.listItems(B, { states: ['queued'], afterSeq: 2, limit: 1 }))).toEqual(['e']);
        expect(await store.listItems(B, { states: ['held'] })).toEqual([]);
        expect(await store.getItem(B, 'zz')).toBeNull();
      });

      it('itemCounts counts every state, cancelled included, zero for the rest', async () => {
        await load(store, ['a', 'b', 'c', 'd']);
        const w = await worker();
        await running(w, 'a', 'r-a');
        await store.markError(B, 'b', 'x');
        await store.markCancelled(B, 'c');
        expect(await store.itemCounts(B)).toEqual({ queued: 1, submitting: 0, running: 1, waiting: 0, held: 0, completed: 0, failed: 0, error: 1, cancelled: 1 });
        expect(Object.values(await store.itemCounts('nope')).every((n) => n === 0)).toBe(true);
      });

      it('recentFinishes: the latest ended items (cancelled left out), newest first, with their runs\' times', async () => {
        await load(store, ['a', 'b', 'c', 'd']);
        expect(await store.recentFinishes(B, 10)).toEqual({ finishedAt: [], runs: [] });
        const w = await worker();
        const a = await running(w, 'a', 'r-a');
        await store.markFinished(a, snap('r-a'), 'completed');
        await store.markError(B, 'b', 'x');
        await store.markCancelled(B, 'c');
        const r = await store.recentFinishes(B, 10);
        expect(r.finishedAt).toEqual([(await item('b')).finishedAt, (await item('a')).finishedAt]);
        expect(r.runs).toHaveLength(1);
        expect(r.runs[0]!.finishedAt >= r.runs[0]!.createdAt).toBe(true);
        expect((await store.recentFinishes(B, 1)).finishedAt).toEqual([(await item('b')).finishedAt]);
        expect((await store.recentFinishes(B, 1)).runs).toEqual([]);
      });

      it("a run's length is the service's own when it sent its times; one that ended unwatched without them has none and is in no duration statistic", async () => {
        await load(store, ['a', 'b', 'c']);
        const w = await worker();
        await store.markFinished(await running(w, 'a', 'r-a'), snap('r-a', { serviceSeconds: 1.5, unwatched: true }), 'completed');
        await store.markFinished(await running(w, 'b', 'r-b'), snap('r-b', { unwatched: true }), 'completed');
        await store.markFinished(await running(w, 'c', 'r-c'), snap('r-c'), 'completed');
        expect(await store.getRun('r-a')).toMatchObject({ seconds: 1.5, unwatched: true });
        expect(await store.getRun('r-b')).toMatchObject({ seconds: null, unwatched: true });
        const c = (await store.getRun('r-c'))!;
        expect(c).toMatchObject({ unwatched: false });
        expect(c.seconds).toBeCloseTo((Date.parse(c.finishedAt!) - Date.parse(c.createdAt)) / 1000, 3);
        const times = await store.runTimes(B);
        expect(times.map((t) => [t.runId, t.seconds === null ? null : t.runId === 'r-c' ? 'own' : t.seconds, t.unwatched]).sort()).toEqual([
          ['r-a', 1.5, true], ['r-b', null, true], ['r-c', 'own', false],
        ]);
        // Rate, ETA and item times: only what resq saw end (its ends are when it found the others).
        expect((await store.recentFinishes(B, 10)).finishedAt).toEqual([(await item('c')).finishedAt]);
        expect(await store.itemSeconds(B)).toHaveLength(1);
        const stats = await store.itemStats(B);
        expect([stats.get('a')!.runSeconds, stats.get('b')!.runSeconds]).toEqual([1.5, 0]);
        const page = await store.aggregates(B, -1, 10);
        expect(page.map((p) => p.runTimes.map((t) => t.seconds))).toEqual([[1.5], [null], [c.seconds]]);
      });

      it('aggregates: export rows with run ids, decisions and files, a page at a time', async () => {
        await load(store, ['a', 'b', 'c']);
        const w = await worker();
        const a = await running(w, 'a', 'r-a0');
        const { item: wa } = await store.markPaused(a, snap('r-a0', { status: 'requires_action' }), () => answerWith(decision('r-a0'), 'ka'));
        const a1 = await store.markAdmitted(wa, { id: 'r-a1', status: 'running', threadId: null, step: 1, parentRunId: 'r-a0', idempotencyKey: 'ka' });
        await store.markFinished(a1, snap('r-a1', { files: [fileRef('f1')] }), 'completed');
        await store.markFileDownloaded(B, 'f1', { path: 'out/f1.md', bytes: 12, sha256: 'h1', mediaType: 'text/markdown', host: 'box' });
        const page = await store.aggregates(B, -1, 2);
        expect(page.map((r) => r.item.id)).toEqual(['a', 'b']);
        expect(page[0]!.runIds).toEqual(['r-a0', 'r-a1']);
        expect(page[0]!.decisions).toEqual([{ tool: 'confirm_scope', input: { cost: 3 }, answer: { approve: true }, by: 'policy', person: null, reason: 'cheap', cost: 3 }]);
        expect(page[0]!.runTimes).toHaveLength(2);
        expect(page[0]!.runTimes.every((t) => typeof t.createdAt === 'string' && typeof t.finishedAt === 'string')).toBe(true);
        expect(Date.parse(page[0]!.runTimes[1]!.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(page[0]!.runTimes[1]!.createdAt));
        expect(page[0]!.files).toEqual([{ id: 'f1', role: 'report', name: 'f1.md', path: 'out/f1.md', bytes: 12, sha256: 'h1', status: 'downloaded', host: 'box' }]);
        expect(page[0]!.item.state).toBe('completed');
        expect(page[1]).toMatchObject({ runIds: [], runTimes: [], decisions: [], files: [] });
        const next = await store.aggregates(B, page[1]!.item.seq, 2);
        expect(next.map((r) => r.item.id)).toEqual(['c']);
      });

      it('aggregates with states reads only items in those states, a page at a time', async () => {
        await load(store, ['a', 'b', 'c', 'd', 'e']);
        const w = await worker();
        for (const id of ['b', 'd']) await store.markFinished(await running(w, id, `r-${id}`), snap(`r-${id}`, { status: 'failed', error: { code: 'agent_error', message: `no ${id}` } }), 'failed');
        await claim(w, { afterSeq: 3, max: 1, takeOver: [] });
        await store.markError(B, 'e', 'HTTP 400', 'bad_input');
        const first = await store.aggregates(B, -1, 2, ['failed', 'error']);
        expect(first.map((r) => [r.item.id, r.item.errorCode, r.item.error])).toEqual([['b', 'agent_error', 'no b'], ['d', 'agent_error', 'no d']]);
        const rest = await store.aggregates(B, first[1]!.item.seq, 2, ['failed', 'error']);
        expect(rest.map((r) => r.item.id)).toEqual(['e']);
        expect((await store.aggregates(B, -1, 10, ['queued'])).map((r) => r.item.id)).toEqual(['a', 'c']);
        expect(await store.aggregates(B, -1, 10, [])).toEqual([]);
      });

      it('metaKeys: every key once, in the order rows first have them', async () => {
        await load(store, [
          { id: 'a', meta: { topic: 'x', level: 1 } },
          { id: 'b', meta: {} },
          { id: 'c', meta: { zeta: true, topic: 'y', alpha: null } },
          { id: 'd', meta: '{"level":2,"beta":"q"}' },
        ]);
        expect(await store.metaKeys(B)).toEqual(['topic', 'level', 'zeta', 'alpha', 'beta']);
        await load(store, ['x'], 'b2', { name: 'other' });
        expect(await store.metaKeys('b2')).toEqual([]);
      });
    });

    // ------------------------------------------------------------------ files
    describe('files', () => {
      async function withFiles(): Promise<void> {
        await load(store, ['a', 'b']);
        const w = await worker();
        const a = await running(w, 'a', 'r-a');
        await store.markFinished(a, snap('r-a', { createdAt: '2026-01-01T00:00:00.000Z', files: [fileRef('f1'), fileRef('f2')] }), 'completed');
        const b = await running(w, 'b', 'r-b');
        await store.markFinished(b, snap('r-b', { createdAt: '2026-01-10T00:00:00.000Z', files: [fileRef('f3')] }), 'completed');
      }

      it('markFileDownloaded records path, size, hash, type and host; clears an earlier error', async () => {
        await withFiles();
        await store.markFileStatus(B, 'f1', 'failed', 'HTTP 500');
        expect(await store.getFile(B, 'f1')).toMatchObject({ status: 'failed', error: 'HTTP 500' });
        await store.markFileDownloaded(B, 'f1', { path: '/out/f1.md', bytes: 100, sha256: 'abc', mediaType: 'text/markdown', host: 'box-1' });
        expect(await store.getFile(B, 'f1')).toMatchObject({ status: 'downloaded', path: '/out/f1.md', bytes: 100, sha256: 'abc', mediaType: 'text/markdown', host: 'box-1', error: null });
        expect(await store.getFile(B, 'nope')).toBeNull();
      });

      it('recordFileCopy keeps one copy per host (a later one replaces it), apart from the file\'s own record; fileCopies lists them in file order', async () => {
        await withFiles();
        await store.markFileDownloaded(B, 'f1', { path: '/a/out/f1.md', bytes: 100, sha256: 'abc', mediaType: null, host: 'box-a' });
        await store.markFileDownloaded(B, 'f3', { path: '/a/out/f3.md', bytes: 3, sha256: 'h3', mediaType: null, host: 'box-a' });
        expect(await store.fileCopies(B)).toEqual([]);
        await store.recordFileCopy(B, 'f3', { host: 'box-b', path: '/b/f3.md', bytes: 3, sha256: 'h3' });
        await store.recordFileCopy(B, 'f1', { host: 'box-b', path: '/b/old.md', bytes: 100, sha256: 'abc' });
        await store.recordFileCopy(B, 'f1', { host: 'box-c', path: '/c/f1.md', bytes: 100, sha256: 'abc' });
        await store.recordFileCopy(B, 'f1', { host: 'box-b', path: '/b/f1.md', bytes: 100, sha256: 'abc' });
        expect(await store.fileCopies(B)).toEqual([
          { fileId: 'f1', itemId: 'a', host: 'box-b', path: '/b/f1.md', bytes: 100, sha256: 'abc' },
          { fileId: 'f1', itemId: 'a', host: 'box-c', path: '/c/f1.md', bytes: 100, sha256: 'abc' },
          { fileId: 'f3', itemId: 'b', host: 'box-b', path: '/b/f3.md', bytes: 3, sha256: 'h3' },
        ]);
        expect(await store.getFile(B, 'f1')).toMatchObject({ host: 'box-a', path: '/a/out/f1.md' });
        expect(await store.fileCopies('other')).toEqual([]);
      });

      it('markFileStatus sets the status and reason', async () => {
        await withFiles();
        await store.markFileStatus(B, 'f2', 'expired', 'gone at the service');
        await store.markFileStatus(B, 'f3', 'missing', null);
        expect(await store.getFile(B, 'f2')).toMatchObject({ status: 'expired', error: 'gone at the service' });
        expect(await store.getFile(B, 'f3')).toMatchObject({ status: 'missing', error: null });
        await store.markFileStatus(B, 'f2', 'pending', null);
        expect((await store.getFile(B, 'f2'))!.status).toBe('pending');
      });

      it('filesForBatch (by status), filesForItem, fileCounts and filePaths', async () => {
        await withFiles();
        await store.markFileDownloaded(B, 'f2', { path: '/out/f2.md', bytes: 5, sha256: 's', mediaType: null, host: 'h' });
        await store.markFileStatus(B, 'f3', 'failed', 'x');
        expect(ids(await store.filesForBatch(B))).toEqual(['f1', 'f2', 'f3']);
        expect(ids(await store.filesForBatch(B, ['pending', 'failed']))).toEqual(['f1', 'f3']);
        expect(ids(await store.filesForBatch(B, ['downloaded']))).toEqual(['f2']);
        expect(ids(await store.filesForItem(B, 'a'))).toEqual(['f1', 'f2']);
        expect(ids(await store.filesForItem(B, 'b'))).toEqual(['f3']);
        expect(await store.fileCounts(B)).toEqual({ pending: 1, downloaded: 1, failed: 1, expired: 0, missing: 0 });
        expect(await store.filePaths(B)).toEqual([{ id: 'f2', path: '/out/f2.md' }]);
      });

      it('expiryReport: bytes on disk, the soonest expiry and the files expiring before the date among those not on disk', async () => {
        await withFiles();
        await store.markFileDownloaded(B, 'f1', { path: '/out/f1.md', bytes: 7, sha256: 's', mediaType: null, host: 'h' });
        await store.markFileStatus(B, 'f2', 'expired', null);
        // f3 (pending) expires 2026-02-09; f2 is expired: not counted
        const r = await store.expiryReport(B, '2026-03-01T00:00:00.000Z');
        expect(r.bytes).toBe(7);
        expect(r.soonest).toBe('2026-02-09T00:00:00.000Z');
        expect(ids(r.expiring)).toEqual(['f3']);
        const none = await store.expiryReport(B, '2026-02-01T00:00:00.000Z');
        expect(none.expiring).toEqual([]);
        expect(none.soonest).toBe('2026-02-09T00:00:00.000Z');
        await store.markFileStatus(B, 'f1', 'missing', null);
        const again = await store.expiryReport(B, '2026-03-01T00:00:00.000Z');
        expect(again.bytes).toBe(0);
        expect(again.soonest).toBe('2026-01-31T00:00:00.000Z');
        expect(ids(again.expiring)).toEqual(['f1', 'f3']);
      });
    });

    // ------------------------------------------------------------------ models
    describe('model batches', () => {
      const M = 'm1';
      const model = { modelId: 'org/model', mode: 'async' as const, description: { inputs: { prompt: 'string' } } };

      async function loadModels(n = 3): Promise<void> {
        const rows = Array.from({ length: n }, (_, i) => ({ id: `r${i}`, line: i + 2, inputs: { prompt: `p${i}`, n: i }, meta: { tag: `t${i}` } }));
        await store.loadModelBatch(newBatch(M, { kind: 'models' }), model, rows);
      }

      it('loadModelBatch records the batch, its model and every row as a queued item', async () => {
        await loadModels();
        expect(await store.findBatch(M)).toMatchObject({ kind: 'models', totalItems: 3 });
        expect(await store.modelBatch(M)).toEqual({ batchId: M, ...model });
        const items = await store.listItems(M);
        expect(items.map((i) => [i.id, i.seq, i.line, i.state])).toEqual([['r0', 0, 2, 'queued'], ['r1', 1, 3, 'queued'], ['r2', 2, 4, 'queued']]);
        expect(JSON.parse(items[0]!.question)).toEqual({ prompt: 'p0', n: 0 });
        expect(items[0]!.meta).toEqual({ tag: 't0' });
        expect(await store.modelRun(M, 'r1')).toMatchObject({
          batchId: M, itemId: 'r1', modelId: 'org/model', inputs: { prompt: 'p1', n: 1 }, mode: null, idempotencyKey: null, submits: 0,
          modelRunId: null, httpStatus: null, status: null, outputs: null, error: null, credits: null, polls: 0, submittedAt: null,
        });
        expect(await store.modelRun(M, 'zz')).toBeNull();
      });

      it('loadModelBatch is all or nothing; a runs batch has no model', async () => {
        await load(store, ['a']);
        expect(await store.modelBatch(B)).toBeNull();
        const dup = [{ id: 'x', line: 2, inputs: {}, meta: {} }, { id: 'x', line: 3, inputs: {}, meta: {} }];
        await expect(store.loadModelBatch(newBatch(M, { kind: 'models' }), model, dup)).rejects.toThrow();
        expect(await store.findBatch(M)).toBeNull();
        expect(await store.modelBatch(M)).toBeNull();
        await loadModels(1);
        expect((await store.findBatch(M))!.totalItems).toBe(1);
      });

      it('markModelSubmitting stores key and mode before sending; a resend only counts', async () => {
        await loadModels();
        await store.markModelSubmitting(M, 'r0', 'mk-0', 'sync', false);
        expect(await store.getItem(M, 'r0')).toMatchObject({ state: 'submitting', pendingKey: 'mk-0' });
        expect((await store.getItem(M, 'r0'))!.startedAt).not.toBeNull();
        expect(await store.modelRun(M, 'r0')).toMatchObject({ idempotencyKey: 'mk-0', mode: 'sync', submits: 1 });
        expect((await store.modelRun(M, 'r0'))!.submittedAt).not.toBeNull();
        await store.markModelSubmitting(M, 'r0', 'ignored', 'async', true);
        expect(await store.modelRun(M, 'r0')).toMatchObject({ idempotencyKey: 'mk-0', mode: 'sync', submits: 2 });
      });

      it('markModelAdmitted: running with the run id and what the service said', async () => {
        await loadModels();
        await store.markModelSubmitting(M, 'r0', 'mk-0', null, false);
        await store.markModelAdmitted(M, 'r0', 202, { id: 'mr-0', status: 'running', outputs: null, error: null, credits: null, pollUrl: 'http://svc/poll/mr-0' });
        expect(await store.getItem(M, 'r0')).toMatchObject({ state: 'running', runId: 'mr-0', runStatus: 'running', pendingKey: null });
        const run = await store.modelRun(M, 'r0');
        expect(run).toMatchObject({ modelRunId: 'mr-0', httpStatus: 202, status: 'running', pollUrl: 'http://svc/poll/mr-0' });
        expect(run!.admittedAt).not.toBeNull();
      });

      it('markModelFinished: outputs, credits, polls added, files recorded, completed or failed', async () => {
        await loadModels();
        await store.markModelSubmitting(M, 'r0', 'mk-0', null, false);
        await store.markModelAdmitted(M, 'r0', 202, { id: 'mr-0', status: 'running', outputs: null, error: null, credits: null, pollUrl: null });
        await store.addModelPolls(M, 'r0', 2);
        await store.markModelFinished(M, 'r0', { id: 'mr-0', status: 'succeeded', outputs: { y: 1 }, error: null, credits: 1.25, pollUrl: null, files: [fileRef('mf1')], createdAt: '2026-01-01T00:00:00.000Z' }, { httpStatus: null, failed: false, polls: 3 });
        expect(await store.getItem(M, 'r0')).toMatchObject({ state: 'completed', runId: 'mr-0', runStatus: 'succeeded', error: null, owner: null });
        expect(await store.modelRun(M, 'r0')).toMatchObject({ status: 'succeeded', outputs: { y: 1 }, credits: 1.25, polls: 5, httpStatus: 202 });
        expect((await store.modelRun(M, 'r0'))!.finishedAt).not.toBeNull();
        expect(await store.getFile(M, 'mf1')).toMatchObject({ itemId: 'r0', runId: 'mr-0', expiresAt: '2026-01-31T00:00:00.000Z', status: 'pending' });
        // a sync run finished at once: the http status comes with it
        await store.markModelSubmitting(M, 'r1', 'mk-1', 'sync', false);
        await store.markModelFinished(M, 'r1', { id: 'mr-1', status: 'failed', outputs: null, error: 'model blew up', credits: null, pollUrl: null, files: [], createdAt: null }, { httpStatus: 200, failed: true, polls: 0 });
        expect(await store.getItem(M, 'r1')).toMatchObject({ state: 'failed', error: 'model blew up', runId: 'mr-1' });
        expect(await store.modelRun(M, 'r1')).toMatchObject({ modelRunId: 'mr-1', httpStatus: 200, status: 'failed', error: 'model blew up' });
      });

      it('markModelError ends the row in error; markModelUnsent queues it again', async () => {
        await loadModels();
        await store.markModelSubmitting(M, 'r0', 'mk-0', null, false);
        await store.markModelError(M, 'r0', 'HTTP 422: bad inputs', 4);
        expect(await store.getItem(M, 'r0')).toMatchObject({ state: 'error', error: 'HTTP 422: bad inputs', pendingKey: null });
        expect(await store.modelRun(M, 'r0')).toMatchObject({ error: 'HTTP 422: bad inputs', polls: 4 });
        await store.markModelSubmitting(M, 'r1', 'mk-1', null, false);
        await store.markModelUnsent(M, 'r1');
        expect(await store.getItem(M, 'r1')).toMatchObject({ state: 'queued', pendingKey: null, owner: null });
        expect((await store.itemCounts(M))).toMatchObject({ queued: 2, error: 1 });
      });

      it('addModelPolls / modelPolls and modelCredits (spent, and finished runs without credits)', async () => {
        await loadModels(4);
        await store.addModelPolls(M, 'r0', 2);
        await store.addModelPolls(M, 'r1', 3);
        await store.addModelPolls(M, 'r1', 0);
        expect(await store.modelPolls(M)).toBe(5);
        expect(await store.modelCredits(M)).toEqual({ spent: 0, unreported: 0 });
        const fin = (id: string, credits: number | null, status = 'succeeded') => ({ id, status, outputs: {}, error: null, credits, pollUrl: null, files: [], createdAt: null });
        await store.markModelFinished(M, 'r0', fin('x0', 2), { httpStatus: 200, failed: false, polls: 0 });
        await store.markModelFinished(M, 'r1', fin('x1', 0.5), { httpStatus: 200, failed: false, polls: 1 });
        await store.markModelFinished(M, 'r2', fin('x2', null, 'failed'), { httpStatus: 200, failed: true, polls: 0 });
        await store.markModelAdmitted(M, 'r3', 202, { id: 'x3', status: 'running', outputs: null, error: null, credits: null, pollUrl: null });
        expect(await store.modelCredits(M)).toEqual({ spent: 2.5, unreported: 1 });
        expect(await store.modelPolls(M)).toBe(6);
      });

      it('setModelMode changes the batch mode; modelRuns pages rows with their runs in file order', async () => {
        await loadModels(3);
        await store.setModelMode(M, null);
        expect((await store.modelBatch(M))!.mode).toBeNull();
        await store.setModelMode(M, 'sync');
        expect((await store.modelBatch(M))!.mode).toBe('sync');
        await store.markModelSubmitting(M, 'r1', 'mk-1', 'sync', false);
        await store.markModelError(M, 'r1', 'boom', 0);
        const page = await store.modelRuns(M, -1, 2);
        expect(page.map((p) => [p.item.id, p.run.itemId, p.run.batchId])).toEqual([['r0', 'r0', M], ['r1', 'r1', M]]);
        expect(page[1]!.item).toMatchObject({ state: 'error', error: 'boom' });
        expect(page[1]!.run).toMatchObject({ idempotencyKey: 'mk-1', error: 'boom', inputs: { prompt: 'p1', n: 1 }, modelId: 'org/model' });
        expect(page[0]!.run.finishedAt).toBeNull();
        expect((await store.modelRuns(M, 1, 10)).map((p) => p.item.id)).toEqual(['r2']);
      });
    });

    // ------------------------------------------------------------------ notebook projections
    describe('notebook projections', () => {
      async function loadMeta(): Promise<void> {
        await load(store, [
          { id: 'a', meta: { topic: 'bio', n: 3, ok: true, tag: 'x' }, question: 'What about Proteins?' },
          { id: 'b', meta: { topic: 'chem', n: 4, ok: false, tag: null } },
          { id: 'c', meta: { topic: 'bio', n: 4 } },
          { id: 'd', meta: { topic: 'phys', ok: true, tag: 'y' } },
        ]);
      }

      it('queryItems filters by meta: strings, numbers, booleans', async () => {
        await loadMeta();
        expect(ids(await store.queryItems(B, { meta: { topic: 'bio' } }))).toEqual(['a', 'c']);
        expect(ids(await store.queryItems(B, { meta: { n: 4 } }))).toEqual(['b', 'c']);
        expect(ids(await store.queryItems(B, { meta: { ok: true } }))).toEqual(['a', 'd']);
        expect(ids(await store.queryItems(B, { meta: { ok: false } }))).toEqual(['b']);
        expect(ids(await store.queryItems(B, { meta: { topic: 'bio', n: 4 } }))).toEqual(['c']);
        expect(await store.queryItems(B, { meta: { topic: 'none' } })).toEqual([]);
      });

      it('queryItems: null matches absent or null; a list matches any of its values; an empty list nothing', async () => {
        await loadMeta();
        expect(ids(await store.queryItems(B, { meta: { tag: null } }))).toEqual(['b', 'c']);
        expect(ids(await store.queryItems(B, { meta: { topic: ['chem', 'phys'] } }))).toEqual(['b', 'd']);
        expect(ids(await store.queryItems(B, { meta: { tag: ['x', null] } }))).toEqual(['a', 'b', 'c']);
        expect(ids(await store.queryItems(B, { meta: { n: [3, 4], topic: 'bio' } }))).toEqual(['a', 'c']);
        expect(await store.queryItems(B, { meta: { topic: [] } })).toEqual([]);
      });

      it('queryItems: case-insensitive text over id, question, answer, error and hold reason; states; limit', async () => {
        await loadMeta();
        const w = await worker();
        const b = await running(w, 'b', 'r-b');
        await store.markFinished(b, snap('r-b', { output: { text: 'The PROTEIN fold' } }), 'completed');
        await store.markError(B, 'c', 'protein server down');
        const d = await running(w, 'd', 'r-d');
        await store.markPaused(d, snap('r-d', { status: 'requires_action', output: null }), () => ({ kind: 'hold', reason: 'Protein budget' }));
        expect(ids(await store.queryItems(B, { text: 'protein' }))).toEqual(['a', 'b', 'c', 'd']);
        expect(ids(await store.queryItems(B, { text: 'PROTEIN', states: ['completed', 'held'] }))).toEqual(['b', 'd']);
        expect(ids(await store.queryItems(B, { text: 'proteins' }))).toEqual(['a']);
        expect(ids(await store.queryItems(B, { text: 'C' }))).toEqual(['c']);
        expect(ids(await store.queryItems(B, { limit: 2 }))).toEqual(['a', 'b']);
        expect(await store.queryItems(B, { states: [] })).toEqual([]);
        expect(ids(await store.queryItems(B))).toEqual(['a', 'b', 'c', 'd']);
      });

      async function history(): Promise<void> {
        await load(store, ['a', 'b', 'c']);
        const w = await worker();
        const a = await running(w, 'a', 'r-a0');
        const action = { tool: 'confirm_scope', input: { cost: 2 } };
        const { item: wa } = await store.markPaused(a, snap('r-a0', { status: 'requires_action', requiredAction: action }), () => answerWith(decision('r-a0', { cost: 2, input: { cost: 2 } }), 'ka'));
        const a1 = await store.markAdmitted(wa, { id: 'r-a1', status: 'running', threadId: null, step: 1, parentRunId: 'r-a0', idempotencyKey: 'ka' });
        await store.markFinished(a1, snap('r-a1', { files: [fileRef('f1'), fileRef('f2')] }), 'completed');
        await store.markFileDownloaded(B, 'f1', { path: '/o/f1', bytes: 10, sha256: 's', mediaType: null, host: 'h' });
        await store.markFileDownloaded(B, 'f2', { path: '/o/f2', bytes: 32, sha256: 's', mediaType: null, host: 'h' });
        // runs are ordered by start time: b's starts a clear millisecond later
        await new Promise((r) => setTimeout(r, 5));
        const b = await running(w, 'b', 'r-b0');
        await store.markPaused(b, snap('r-b0', { status: 'requires_action', requiredAction: { tool: 'ask_choice', input: {} } }), () => ({ kind: 'hold', reason: 'person' }));
        await store.answerHeld(B, 'b', decision('r-b0', { tool: 'ask_choice', input: {}, answer: { choice: 'b' }, by: 'person', person: 'Ana', reason: null, cost: 0.5 }), 'kb');
      }

      it('itemStats: runs, decisions, approved cost, files and run seconds per item', async () => {
        await history();
        const s = await store.itemStats(B);
        expect([...s.keys()].sort()).toEqual(['a', 'b', 'c']);
        expect(s.get('a')).toMatchObject({ itemId: 'a', runs: 2, decisions: 1, approvedCost: 2, files: 2 });
        expect(s.get('a')!.runSeconds).toBeGreaterThanOrEqual(0);
        expect(s.get('a')!.runSeconds).toBeLessThan(60);
        expect(s.get('b')).toMatchObject({ runs: 1, decisions: 1, approvedCost: 0.5, files: 0 });
        expect(s.get('c')).toEqual({ itemId: 'c', runs: 0, decisions: 0, approvedCost: 0, files: 0, runSeconds: 0 });
      });

      it('batchTotals: runs, decisions, approved cost and bytes on disk', async () => {
        await history();
        expect(await store.batchTotals(B)).toEqual({ runs: 3, decisions: 2, approvedCost: 2.5, fileBytes: 42 });
        await store.markFileStatus(B, 'f2', 'missing', null);
        expect((await store.batchTotals(B)).fileBytes).toBe(10);
      });

      it('itemSeconds: one duration per finished item', async () => {
        await history();
        const secs = await store.itemSeconds(B);
        expect(secs).toHaveLength(1);
        const a = await item('a');
        expect(secs[0]).toBeCloseTo((Date.parse(a.finishedAt!) - Date.parse(a.startedAt!)) / 1000, 2);
      });

      it('runTimes: every run with its step, status and pause tool, in start order', async () => {
        await history();
        const rt = await store.runTimes(B);
        expect(rt.map((r) => [r.itemId, r.runId, r.step, r.status, r.tool])).toEqual([
          ['a', 'r-a0', 0, 'requires_action', 'confirm_scope'],
          ['a', 'r-a1', 1, 'completed', null],
          ['b', 'r-b0', 0, 'requires_action', 'ask_choice'],
        ]);
        expect(rt.every((r) => typeof r.createdAt === 'string' && typeof r.finishedAt === 'string')).toBe(true);
      });

      it('batchDecisions: every decision with its item and who made it, in the order made', async () => {
        await history();
        const ds = await store.batchDecisions(B);
        expect(ds.map(({ decidedAt, ...rest }) => (expect(typeof decidedAt).toBe('string'), rest))).toEqual([
          { itemId: 'a', tool: 'confirm_scope', input: { cost: 2 }, answer: { approve: true }, by: 'policy', person: null, reason: 'cheap', cost: 2 },
          { itemId: 'b', tool: 'ask_choice', input: {}, answer: { choice: 'b' }, by: 'person', person: 'Ana', reason: null, cost: 0.5 },
        ]);
      });
    });
  });
}
