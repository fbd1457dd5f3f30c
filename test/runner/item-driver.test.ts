import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, type ServiceClient } from '../../src/api/index.js';
import { parsePolicy } from '../../src/config/index.js';
import type { Policy } from '../../src/policy/index.js';
import { errorKind } from '../../src/runner/error-kind.js';
import type { RunnerEvent } from '../../src/runner/events.js';
import { driveItem, type DriveContext } from '../../src/runner/item-driver.js';
import { waitUntil } from '../support/wait-until.js';
import { loadBatch } from '../../src/runner/index.js';
import { answerWaiting } from '../support/answer-waiting.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { idempotencyKey, openStore, type BatchRecord, type ItemRecord, type Store, type WorkerRecord } from '../../src/store/index.js';
import { tempDir } from '../support/cli.js';
import { testClient, testSettings } from '../support/in-process.js';

const LEASE_MS = 30_000;

/** One batch in a real SQLite file, a client of the simulator, and a worker that claims. */
interface Bench {
  store: Store;
  client: ServiceClient;
  batch: BatchRecord;
  worker: WorkerRecord;
}

/** How a drive went: the events it sent and the calls it made to its scheduler. */
interface Drive {
  ctx: DriveContext;
  events: RunnerEvent[];
  calls: { admitted: number; release: number; rereading: number; reread: number };
  abort: AbortController;
}

describe('driveItem (the item state machine)', () => {
  let sim: Sim;
  const open: Bench[] = [];
  beforeEach(async () => {
    sim = await startSim({ defaultDurationMs: 40 });
  });
  afterEach(async () => {
    for (const b of open.splice(0)) {
      await b.client.close();
      await b.store.close();
    }
    await sim.close();
  });

  async function bench(csv: string, clientOver: Parameters<typeof testClient>[1] = {}): Promise<Bench> {
    const dir = tempDir();
    const questions = join(dir, 'q.csv');
    writeFileSync(questions, csv);
    const store = await openStore(join(dir, 'resq.db'));
    const { batch } = await loadBatch({ store, questions, settings: testSettings(4), policy: null, baseUrl: sim.url });
    const worker = await store.registerWorker(batch.id, { host: 'item-driver-test', pid: 1 });
    const b = { store, client: testClient(sim, clientOver), batch, worker };
    open.push(b);
    return b;
  }

  /** The scheduler's claim: queued items move to `submitting` with their key stored (or expired ones are taken over). */
  async function claim(b: Bench, worker = b.worker, nowMs?: number): Promise<ItemRecord[]> {
    const c = await b.store.claimItems(b.batch.id, { workerId: worker.id, leaseMs: LEASE_MS, max: 10, cap: 10, afterSeq: -1 }, nowMs);
    return c.items;
  }

  function drive(b: Bench, policy: Policy | null = null, onEvent?: (e: RunnerEvent, d: Drive) => void): Drive {
    const events: RunnerEvent[] = [];
    const calls = { admitted: 0, release: 0, rereading: 0, reread: 0 };
    const abort = new AbortController();
    const d: Drive = {
      events,
      calls,
      abort,
      ctx: {
        store: b.store,
        client: b.client,
        batch: b.batch,
        policy,
        follow: 'sse',
        signal: abort.signal,
        emit: (e) => {
          events.push(e);
          onEvent?.(e, d);
        },
        admitted: () => void calls.admitted++,
        release: () => void calls.release++,
        rereading: () => void calls.rereading++,
        reread: () => void calls.reread++,
      },
    };
    return d;
  }

  const states = (d: Drive) => d.events.flatMap((e) => (e.type === 'item' ? [e.state] : []));

  it('takes a claimed item whose key was stored at the claim (queued → submitting) and posts with that key', async () => {
    const b = await bench('id,question\na,plain question\n');
    const before = await b.store.getItem(b.batch.id, 'a');
    expect(before).toMatchObject({ state: 'queued', pendingKey: null, runId: null });
    const [item] = await claim(b);
    const key = idempotencyKey(b.batch.id, 'a', 0);
    // The key is in the database before any request was sent.
    expect(item).toMatchObject({ id: 'a', state: 'submitting', pendingKey: key });
    expect(await b.store.getItem(b.batch.id, 'a')).toMatchObject({ state: 'submitting', pendingKey: key });
    expect(sim.counters().runsAdmitted).toBe(0);
    await driveItem(drive(b).ctx, item!);
    // The one POST carried the stored key, and the run is recorded under it.
    expect(sim.counters().admissionsByKey).toEqual({ [`POST /runs|${key}`]: 1 });
    expect((await b.store.runChain(b.batch.id, 'a')).map((r) => r.idempotencyKey)).toEqual([key]);
  });

  it('records the admitted run and moves the item to running before following it', async () => {
    const b = await bench('id,question\na,slow one @duration=300ms\n');
    const [item] = await claim(b);
    const whileRunning: Promise<ItemRecord | null>[] = [];
    const d = drive(b, null, (e) => {
      if (e.type === 'item' && e.state === 'running') whileRunning.push(b.store.getItem(b.batch.id, 'a'));
    });
    await driveItem(d.ctx, item!);
    const running = d.events.find((e) => e.type === 'item' && e.state === 'running');
    expect(running).toMatchObject({ type: 'item', id: 'a', state: 'running', runId: expect.any(String) });
    const runId = (running as { runId: string }).runId;
    expect(whileRunning).toHaveLength(1);
    // Read while the run was still working at the service (300 ms): stored as running, its run id kept.
    expect(await whileRunning[0]).toMatchObject({ state: 'running', runId, runStatus: 'running' });
    expect(d.calls.admitted).toBe(1);
  });

  it('ends a run that completed as completed, its text stored and its slot released once', async () => {
    const b = await bench('id,question\na,plain question\n');
    const [item] = await claim(b);
    const d = drive(b);
    const end = await driveItem(d.ctx, item!);
    expect(end).toMatchObject({ state: 'completed', runStatus: 'completed', text: expect.stringContaining('plain question') });
    expect(await b.store.getItem(b.batch.id, 'a')).toMatchObject({ state: 'completed', owner: null });
    expect(states(d)).toEqual(['running', 'completed']);
    expect(d.calls).toEqual({ admitted: 1, release: 1, rereading: 0, reread: 0 });
    expect(sim.counters().runsAdmitted).toBe(1);
  });

  it('ends a run that failed as failed, with the service error code and message kept verbatim', async () => {
    const b = await bench('id,question\nbad,will not work @fail\n');
    const [item] = await claim(b);
    const d = drive(b);
    const end = await driveItem(d.ctx, item!);
    const atService = await b.client.getRun(end.runId!);
    expect(atService.status).toBe('failed');
    expect(end).toMatchObject({ state: 'failed', runStatus: 'failed', errorCode: 'agent_error', error: 'simulated failure (@fail)' });
    expect(await b.store.getItem(b.batch.id, 'bad')).toMatchObject({ state: 'failed', errorCode: 'agent_error', error: 'simulated failure (@fail)' });
    expect(states(d)).toEqual(['running', 'failed']);
  });

  it('answers a pause the policy allows: the decision is stored, the item waits, then the respond run is followed to the end', async () => {
    const b = await bench('id,question\np,needs ok @confirm=2\n');
    const policy = parsePolicy({ confirm_scope: { approve_max_cost: 5 } }, 'policy.yaml');
    const [item] = await claim(b);
    const d = drive(b, policy);
    const end = await driveItem(d.ctx, item!);
    expect(end.state).toBe('completed');
    expect(states(d)).toEqual(['running', 'waiting', 'running', 'completed']);
    expect(d.events.find((e) => e.type === 'decision')).toMatchObject({ id: 'p', tool: 'confirm_scope', by: 'policy', answer: { approved: true } });
    expect(await b.store.decisionsForItem(b.batch.id, 'p')).toMatchObject([{ by: 'policy', cost: 2, answer: { approved: true } }]);
    const chain = await b.store.runChain(b.batch.id, 'p');
    expect(chain).toHaveLength(2);
    expect(chain[1]).toMatchObject({ parentRunId: chain[0]!.id, idempotencyKey: idempotencyKey(b.batch.id, 'p', 1) });
    expect(sim.counters()).toMatchObject({ runsAdmitted: 1, respondRuns: 1 });
  });

  it('holds a pause the policy does not answer for a person, and sends the person answer once it is claimed again', async () => {
    const b = await bench('id,question\nh,needs ok @confirm=30\n');
    const policy = parsePolicy({ confirm_scope: { approve_max_cost: 5, otherwise: 'hold' } }, 'strict.yaml');
    const [item] = await claim(b);
    const d = drive(b, policy);
    const held = await driveItem(d.ctx, item!);
    expect(held).toMatchObject({ state: 'held', holdReason: expect.any(String) });
    expect(held.holdReason).not.toBe('');
    expect(states(d)).toEqual(['running', 'held']);
    expect(d.events.find((e) => e.type === 'decision')).toMatchObject({ by: 'policy', answer: null });
    expect(d.calls.release).toBe(0);
    expect(sim.counters().respondRuns).toBe(0);
    // A person answers; the next claim hands the item back as `waiting`, and the driver sends it.
    await answerWaiting(b.store, b.batch, 'h', { kind: 'approve' });
    const [answered] = await claim(b);
    expect(answered).toMatchObject({ id: 'h', state: 'waiting', pendingKey: idempotencyKey(b.batch.id, 'h', 1) });
    const again = drive(b, policy);
    const end = await driveItem(again.ctx, answered!);
    expect(end.state).toBe('completed');
    expect(states(again)).toEqual(['running', 'completed']);
    expect(again.events[0]).toMatchObject({ state: 'running', detail: 'answered' });
    expect(sim.counters()).toMatchObject({ runsAdmitted: 1, respondRuns: 1 });
  });

  it('leaves an item whose create got 429 or 5xx in submitting with its key, for a retry later that posts the same key once', async () => {
    // One attempt per request: the client's own retries would hide the answer from the driver.
    const b = await bench('id,question\nr,try again\n', { retry: { baseDelayMs: 5, maxDelayMs: 50, threadBusyDelayMs: 20, maxAttempts: 1 } });
    const [item] = await claim(b);
    const key = item!.pendingKey!;
    for (const [fault, status] of [[{ rate429: 1 }, 429], [{ error5xxBefore: 1 }, 0]] as const) {
      sim.faults.set({ ...fault, routes: ['POST /runs'] });
      const d = drive(b);
      const err = await driveItem(d.ctx, item!).then(
        () => null,
        (e: unknown) => e,
      );
      sim.faults.clear();
      expect(err).toBeInstanceOf(ApiError);
      if (status) expect((err as ApiError).status).toBe(status);
      else expect((err as ApiError).status).toBeGreaterThanOrEqual(500);
      // The scheduler's reading of it: try the item again later.
      expect(errorKind(err, d.ctx.signal)).toBe('transient');
      expect(await b.store.getItem(b.batch.id, 'r')).toMatchObject({ state: 'submitting', pendingKey: key, runId: null });
      expect(d.events).toEqual([]);
    }
    expect(sim.counters().runsAdmitted).toBe(0);
    const later = (await b.store.getItem(b.batch.id, 'r'))!;
    const end = await driveItem(drive(b).ctx, later);
    expect(end.state).toBe('completed');
    expect(sim.counters().admissionsByKey).toEqual({ [`POST /runs|${key}`]: 1 });
  });

  it('re-attaches a resumed item to its run (a worker that died while it ran) without a second POST', async () => {
    const b = await bench('id,question\nlong,takes a while @duration=1500ms\n');
    const [item] = await claim(b);
    // The first worker stops following as soon as the run is going.
    const first = drive(b, null, (e, d) => {
      if (e.type === 'item' && e.state === 'running') d.abort.abort(new Error('worker killed'));
    });
    await expect(driveItem(first.ctx, item!)).rejects.toThrow();
    const left = await b.store.getItem(b.batch.id, 'long');
    expect(left).toMatchObject({ state: 'running', runId: expect.any(String) });
    expect(sim.counters().runsAdmitted).toBe(1);
    // Another worker, after the first one's lease ran out, takes the item over.
    const later = Date.now() + LEASE_MS + 1000;
    const other = await b.store.registerWorker(b.batch.id, { host: 'item-driver-test', pid: 2 }, later);
    const [taken] = await claim(b, other, later);
    expect(taken).toMatchObject({ id: 'long', state: 'running', runId: left!.runId, owner: other.id });
    const second = drive(b);
    const end = await driveItem(second.ctx, taken!);
    expect(end).toMatchObject({ state: 'completed', runId: left!.runId });
    expect(states(second)).toEqual(['completed']);
    expect(second.calls.admitted).toBe(0);
    // The run taken over was read again once (its GET) and found going: the count of reads
    // again ended there, and it was followed.
    expect([second.calls.rereading, second.calls.reread]).toEqual([1, 1]);
    expect([first.calls.rereading, first.calls.reread]).toEqual([0, 0]);
    expect(sim.counters().runsAdmitted).toBe(1);
    expect(sim.counters().requestsByRoute['POST /runs']).toBe(1);
  });

  it('a run taken over that ended while nobody followed it is read once and recorded, no stream opened, its count left to the drive\'s end', async () => {
    const b = await bench('id,question\nquick,short one @duration=50ms\n');
    const [item] = await claim(b);
    const first = drive(b, null, (e, d) => {
      if (e.type === 'item' && e.state === 'running') d.abort.abort(new Error('worker killed'));
    });
    await expect(driveItem(first.ctx, item!)).rejects.toThrow();
    const runId = (await b.store.getItem(b.batch.id, 'quick'))!.runId!;
    // It ends at the service while no worker follows it.
    await waitUntil(async () => (await b.client.getRun(runId)).status !== 'running', 'the run to end at the service');
    expect((await b.client.getRun(runId)).status).toBe('completed');
    const later = Date.now() + LEASE_MS + 1000;
    const other = await b.store.registerWorker(b.batch.id, { host: 'item-driver-test', pid: 3 }, later);
    const [taken] = await claim(b, other, later);
    const streamsBefore = sim.counters().requestsByRoute['GET /runs/:id/events'] ?? 0;
    const second = drive(b);
    const end = await driveItem(second.ctx, taken!);
    expect(end).toMatchObject({ state: 'completed', runId });
    // Read, found ended, recorded: no stream opened, and the count is left to the drive's end.
    expect(sim.counters().requestsByRoute['GET /runs/:id/events'] ?? 0).toBe(streamsBefore);
    expect([second.calls.rereading, second.calls.reread]).toEqual([1, 0]);
  });

  it('ends an item whose run was cancelled at the service as cancelled', async () => {
    // Ten minutes of its own work: only the cancel can end it while the test runs.
    const b = await bench('id,question\nc,long one @duration=600s\n');
    const [item] = await claim(b);
    const cancels: Promise<unknown>[] = [];
    const d = drive(b, null, (e) => {
      if (e.type === 'item' && e.state === 'running') cancels.push(b.client.cancelRun(e.runId!));
    });
    const end = await driveItem(d.ctx, item!);
    await Promise.all(cancels);
    expect(cancels).toHaveLength(1);
    expect(end).toMatchObject({ state: 'cancelled', runStatus: 'cancelled' });
    expect(await b.store.getItem(b.batch.id, 'c')).toMatchObject({ state: 'cancelled' });
    expect(states(d)).toEqual(['running', 'cancelled']);
    // Ended by the cancel, not by the run's own work: the simulator's record says cancelled.
    expect(sim.ledger().runs.map((r) => [r.id, r.status])).toEqual([[end.runId, 'cancelled']]);
  });
});
