import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/port.js';
import type { NewBatch, NewDecision, PauseOutcome } from '../../src/store/shapes.js';
import type { ItemRecord, NotifySettings } from '../../src/store/types.js';
import { snap } from './snapshot.js';
import type { WriteBarrier } from './write-barrier.js';

/**
 * The outbox (issue 31), written against `Store` only: events are written by the changes that
 * cause them (a hold, the last item ending, the budget crossed) and only for a batch that has
 * receivers; held items are folded into one digest per interval; one sender at a time holds an
 * event (lease and fencing token); a failed delivery is tried again later.
 */

const NOW = 1_700_000_000_000;
const B = 'ob';
const NOTIFY: NotifySettings = { urls: ['http://127.0.0.1:9/hook'], format: 'json', includeQuestion: false, pageUrl: null, digestMs: 300_000, remindMs: 3_600_000, stalledMs: null };

function newBatch(id: string, notify: NotifySettings | null, policy: unknown = null): NewBatch {
  return {
    id,
    name: `outbox-${id}`,
    kind: 'runs',
    sourcePath: `/data/${id}.csv`,
    sourceSha256: 'sha',
    baseUrl: 'http://svc/api/v1',
    settings: { concurrency: 4, follow: 'sse', download: { enabled: false, concurrency: 2, out: null }, pipelineFile: null, service: 'sim', ...(notify ? { notify } : {}) },
    policy,
  };
}

async function load(store: Store, batchId: string, n: number, notify: NotifySettings | null = NOTIFY, policy: unknown = null): Promise<void> {
  const loader = await store.beginBatchLoad(newBatch(batchId, notify, policy));
  for (let i = 0; i < n; i++) await loader.add({ id: `i${i}`, seq: i, line: i + 2, question: `q ${i}?`, threadKey: null, meta: {} });
  expect(await loader.flush()).toEqual([]);
  await loader.commit([]);
}

const hold = (): PauseOutcome => ({ kind: 'hold', reason: 'cost over 5' });
const decision = (runId: string, cost: number): NewDecision => ({ runId, tool: 'confirm_scope', input: { cost }, answer: { approve: true }, by: 'person', reason: null, cost });

/** `barrier`: where the adapter has several connections, how writes are shown to run at once (write-barrier.ts). */
export function outboxContract(name: string, makeStore: () => Promise<Store>, barrier?: WriteBarrier): void {
  describe(`Store outbox: ${name}`, () => {
    let store: Store;
    let worker = '';

    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    /** Claims these items and admits a run for each: all running. */
    async function running(batchId: string, ids: readonly string[]): Promise<ItemRecord[]> {
      worker ||= (await store.registerWorker(batchId, { host: 'h', pid: 1 }, NOW)).id;
      const out: ItemRecord[] = [];
      for (const id of ids) {
        const it = (await store.getItem(batchId, id))!;
        const c = await store.claimItems(batchId, { workerId: worker, leaseMs: 60_000, max: 1, cap: 100, afterSeq: it.seq - 1, takeOver: [] }, NOW);
        const claimed = c.items.find((x) => x.id === id)!;
        out.push(await store.markAdmitted(claimed, { id: `r-${id}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: claimed.pendingKey! }));
      }
      return out;
    }

    async function pause(it: ItemRecord, cost: number): Promise<void> {
      await store.markPaused(it, snap(it.runId!, { status: 'requires_action', requiredAction: { tool: 'confirm_scope', input: { cost } } }), hold);
    }

    const claimAll = (owner: string, at: number, leaseMs = 30_000) => store.claimOutbox(owner, { leaseMs, limit: 50, batchIds: [B] }, at);

    it('writes nothing for a batch without receivers', async () => {
      await load(store, B, 2, null);
      worker = '';
      const [a, b] = await running(B, ['i0', 'i1']);
      await pause(a!, 9);
      await store.markFinished(b!, snap('r-i1'), 'completed');
      expect(await store.collateHeld(B, { digestMs: 0, remindMs: 0 }, NOW)).toBe(0);
      expect(await claimAll('s1', NOW)).toEqual([]);
      expect((await store.outboxState(B)).undelivered).toBe(0);
    });

    it('folds held items into one digest per interval, with each pause\'s tool, cost and reason', async () => {
      await load(store, B, 4);
      worker = '';
      const [a, b, c] = await running(B, ['i0', 'i1', 'i2']);
      await pause(a!, 12);
      await pause(b!, 7.5);
      // Not yet folded: nothing to send.
      expect(await claimAll('s1', NOW)).toEqual([]);
      expect(await store.collateHeld(B, { digestMs: 300_000, remindMs: null }, NOW)).toBe(1);
      const [digest, ...more] = await claimAll('s1', NOW);
      expect(more).toEqual([]);
      expect(digest).toMatchObject({ type: 'items.held', batchId: B, attempts: 1, data: { reminder: false } });
      expect(digest!.held.map((h) => [h.itemId, h.tool, h.cost, h.reason])).toEqual([
        ['i0', 'confirm_scope', 12, 'cost over 5'],
        ['i1', 'confirm_scope', 7.5, 'cost over 5'],
      ]);
      expect(await store.settleOutbox(digest!, { sent: true }, NOW)).toBe(true);
      // A third hold inside the interval waits for the next digest.
      await pause(c!, 3);
      expect(await store.collateHeld(B, { digestMs: 300_000, remindMs: null }, NOW + 60_000)).toBe(0);
      expect(await store.collateHeld(B, { digestMs: 300_000, remindMs: null }, NOW + 300_000)).toBe(1);
      const [second] = await claimAll('s1', NOW + 300_000);
      expect(second!.held.map((h) => h.itemId)).toEqual(['i2']);
      expect(second!.key).not.toBe(digest!.key);
    });

    it('reminds of items still held after the reminder time, never of answered ones', async () => {
      await load(store, B, 2);
      worker = '';
      const [a, b] = await running(B, ['i0', 'i1']);
      await pause(a!, 1);
      await pause(b!, 1);
      await store.collateHeld(B, { digestMs: 0, remindMs: 3_600_000 }, NOW);
      await store.answerHeld(B, 'i1', decision('r-i1', 1), 'key-i1-1');
      expect(await store.collateHeld(B, { digestMs: 0, remindMs: 3_600_000 }, NOW + 1_000)).toBe(0);
      expect(await store.collateHeld(B, { digestMs: 0, remindMs: 3_600_000 }, NOW + 3_600_000)).toBe(1);
      const events = await claimAll('s1', NOW + 3_600_000);
      const reminder = events.find((e) => e.data.reminder === true)!;
      expect(reminder.held.map((h) => h.itemId)).toEqual(['i0']);
    });

    it('one sender holds an event: another claims it only when the lease ran out, and the stale one cannot settle it', async () => {
      await load(store, B, 1);
      await store.addOutboxEvent(B, { key: 'stalled:x', type: 'batch.stalled', data: { reason: 'no live worker' } }, NOW);
      expect(await store.addOutboxEvent(B, { key: 'stalled:x', type: 'batch.stalled', data: {} }, NOW)).toBe(false);
      const [first] = await claimAll('s1', NOW, 10_000);
      expect(first).toMatchObject({ type: 'batch.stalled', owner: 's1', data: { reason: 'no live worker' } });
      expect(await claimAll('s2', NOW + 5_000)).toEqual([]);
      const [again] = await claimAll('s2', NOW + 10_001);
      expect(again).toMatchObject({ row: first!.row, owner: 's2', attempts: 2 });
      expect(again!.fence).toBeGreaterThan(first!.fence);
      expect(await store.settleOutbox(first!, { sent: true }, NOW + 10_002)).toBe(false);
      expect(await store.settleOutbox(again!, { sent: true }, NOW + 10_002)).toBe(true);
      expect(await claimAll('s3', NOW + 100_000)).toEqual([]);
      expect((await store.outboxState(B)).undelivered).toBe(0);
    });

    it('a failed delivery is tried again after its delay, with the receivers that took it kept, and shows as undelivered', async () => {
      await load(store, B, 1);
      await store.addOutboxEvent(B, { key: 'k', type: 'batch.stalled', data: {} }, NOW);
      const [c] = await claimAll('s1', NOW);
      expect(await store.settleOutbox(c!, { sent: false, error: 'HTTP 500 from 127.0.0.1:9', retryInMs: 2_000, delivered: ['abc'] }, NOW + 10)).toBe(true);
      expect(await store.outboxState(B)).toMatchObject({ undelivered: 1, lastError: 'HTTP 500 from 127.0.0.1:9' });
      expect(await claimAll('s1', NOW + 1_000)).toEqual([]);
      const [retry] = await claimAll('s2', NOW + 2_010);
      expect(retry).toMatchObject({ delivered: ['abc'], attempts: 2 });
      // Put off without a delivery tried (its batch's judge still judging): not counted as an attempt.
      expect(await store.settleOutbox(retry!, { sent: false, error: 'waiting', retryInMs: 1_000, delivered: ['abc'], deferred: true }, NOW + 2_020)).toBe(true);
      const [after] = await claimAll('s2', NOW + 3_030);
      expect(after).toMatchObject({ delivered: ['abc'], attempts: 2 });
    });

    it('batch.finished once the last item ends (completed, failed, error or cancelled), and again after a retry ends it anew', async () => {
      await load(store, B, 4);
      worker = '';
      const [a, b] = await running(B, ['i0', 'i1']);
      await store.markFinished(a!, snap('r-i0'), 'completed');
      await store.markFinished(b!, snap('r-i1', { status: 'failed', output: null }), 'failed');
      await store.markError(B, 'i2', 'HTTP 400', 'http_400');
      expect(await claimAll('s1', NOW)).toEqual([]);
      await store.cancelBatch(B);
      const done = await claimAll('s1', NOW);
      expect(done.map((e) => e.type)).toEqual(['batch.finished']);
      await store.settleOutbox(done[0]!, { sent: true }, NOW);
      await store.requeue(B, ['i1'], ['failed']);
      const [again] = await running(B, ['i1']);
      await store.markFinished(again!, snap('r-i1'), 'completed');
      const later = await claimAll('s1', NOW);
      expect(later.map((e) => e.type)).toEqual(['batch.finished']);
      expect(later[0]!.key).not.toBe(done[0]!.key);
    });

    it('no batch.finished while another item is still in flight (its row carries the mark, its state is in flights)', async () => {
      await load(store, B, 2);
      worker = '';
      const [a, b] = await running(B, ['i0', 'i1']);
      await store.markFinished(a!, snap('r-i0'), 'completed');
      expect(await claimAll('s1', NOW)).toEqual([]);
      await store.markFinished(b!, snap('r-i1'), 'completed');
      expect((await claimAll('s1', NOW)).map((e) => e.type)).toEqual(['batch.finished']);
    });

    it(barrier ? 'the last two items ending at once (two connections, shown waiting together) write one batch.finished' : 'the last two items ending together (one group commit) write one batch.finished', async () => {
      await load(store, B, 6);
      worker = '';
      const items = await running(B, ['i0', 'i1', 'i2', 'i3', 'i4', 'i5']);
      for (const it of items.slice(0, 4)) await store.markFinished(it, snap(it.runId!), 'completed');
      expect(await claimAll('s1', NOW)).toEqual([]);
      const held = await barrier?.hold(store);
      const ending = Promise.all(items.slice(4).map((it) => store.markFinished(it, snap(it.runId!), 'completed')));
      const together = (await held?.reached(2)) ?? true;
      await held?.release();
      await ending;
      expect(together, 'the two writes waiting together').toBe(true);
      expect((await claimAll('s1', NOW)).map((e) => e.type)).toEqual(['batch.finished']);
    });

    it('budget.reached at 80% and at 100% of the batch budget, each once', async () => {
      await load(store, B, 4, NOTIFY, { confirm_scope: { approve_max_cost: 1, batch_budget: 100 } });
      worker = '';
      const items = await running(B, ['i0', 'i1', 'i2', 'i3']);
      for (const it of items) await pause(it, 0);
      await store.answerHeld(B, 'i0', decision('r-i0', 50), 'k0');
      expect((await claimAll('s1', NOW)).filter((e) => e.type === 'budget.reached')).toEqual([]);
      await store.answerHeld(B, 'i1', decision('r-i1', 35), 'k1');
      const first = (await claimAll('s1', NOW)).filter((e) => e.type === 'budget.reached');
      expect(first.map((e) => e.data)).toEqual([{ share: 80, budget: 100, approved: 85 }]);
      await store.answerHeld(B, 'i2', decision('r-i2', 1), 'k2');
      await store.answerHeld(B, 'i3', decision('r-i3', 20), 'k3');
      const second = (await claimAll('s1', NOW)).filter((e) => e.type === 'budget.reached');
      expect(second.map((e) => e.data)).toEqual([{ share: 100, budget: 100, approved: 106 }]);
    });

    it('a sender with a notify command of its own is known while its hold lasts, by host and pid only; renewed, run out, or ended', async () => {
      await load(store, B, 1);
      const a = { owner: 'h1:10:notify:a', host: 'h1', pid: 10 };
      const b = { owner: 'h2:20:notify:b', host: 'h2', pid: 20 };
      expect(await store.notifyCommands(B, NOW)).toEqual([]);
      await store.holdNotifyCommand(B, a, 10_000, NOW);
      await store.holdNotifyCommand(B, b, 10_000, NOW);
      expect(await store.notifyCommands(B, NOW + 10_000)).toEqual([a, b]);
      // a renews; b's hold runs out; a leaves.
      await store.holdNotifyCommand(B, a, 10_000, NOW + 5_000);
      expect(await store.notifyCommands(B, NOW + 12_000)).toEqual([a]);
      await store.holdNotifyCommand(B, a, 0, NOW + 12_000);
      expect(await store.notifyCommands(B, NOW + 12_000)).toEqual([]);
    });
  });
}
