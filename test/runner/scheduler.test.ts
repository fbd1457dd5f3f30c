import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ResqError } from '../../src/errors.js';
import type { ErrorKind } from '../../src/runner/error-kind.js';
import { processStart } from '../../src/local-process.js';
import { Scheduler, tryLater, type SchedulerOptions, type Step } from '../../src/runner/scheduler.js';
import { SharedSlots } from '../../src/runner/shared-slots.js';
import type { BatchRecord, ItemRecord, Store } from '../../src/store/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';
import { virtualClock } from '../support/virtual-clock.js';
import type { Clock } from '../../src/clock.js';

const settings = { concurrency: 3, follow: 'poll' as const, download: { enabled: false, concurrency: 1, out: null }, pipelineFile: null, service: 'url' as const };

async function batchOf(store: Store, n: number, threads: (i: number) => string | null = () => null): Promise<BatchRecord> {
  const name = `batch-${n}`;
  const loader = await store.beginBatchLoad({ id: `id-${name}`, name, kind: 'runs', sourcePath: 'q.csv', sourceSha256: 'x', baseUrl: null, settings, policy: null });
  for (let i = 0; i < n; i++) await loader.add({ id: `i${i}`, seq: i, line: i + 2, question: `q${i}`, threadKey: threads(i), meta: {} });
  await loader.flush();
  await loader.commit([], 'sha');
  return (await store.findBatch(name))!;
}

/** A failure the retry-later tests' steps throw, and the classifier that calls it (and only it) transient. */
class Flaky extends ResqError {}
const flakyIsTransient = (e: unknown): ErrorKind => (e instanceof Flaky ? 'transient' : 'bug');

/** A step that admits a run, lets the test decide when it ends, and records the peak of concurrent steps. */
function gatedStep(store: Store) {
  let running = 0;
  const seen: string[] = [];
  const state = { peak: 0, seen, get running() { return running; } };
  const step: Step = async (item) => {
    running++;
    state.peak = Math.max(state.peak, running);
    seen.push(item.id);
    try {
      const admitted = await store.markAdmitted(item, { id: `run-${item.id}-${item.attempt}`, status: 'running', threadId: null, step: item.step, parentRunId: null, idempotencyKey: item.pendingKey! });
      await new Promise((r) => setImmediate(r));
      return await store.markFinished(admitted, { id: `run-${item.id}-${item.attempt}`, status: 'succeeded', threadId: null, createdAt: null, requiredAction: null, output: { text: 'ok' }, files: [] }, 'completed');
    } finally {
      running--;
    }
  };
  return { step, state };
}

const never = (): ErrorKind => 'bug';

function scheduler(store: Store, batch: BatchRecord, o: Partial<SchedulerOptions> & { step: Step }): Scheduler {
  return new Scheduler({
    store,
    batch,
    cap: 3,
    classify: never,
    markError: async (item, message) => void (await store.markError(item.batchId, item.id, message)),
    pollMs: 50,
    host: 'test',
    pid: 1,
    ...o,
  });
}

let stores: Store[] = [];
afterEach(async () => {
  for (const s of stores) await s.close();
  stores = [];
});

async function open(): Promise<Store> {
  const s = SqliteStore.open(join(tempDir(), 'resq.db'));
  stores.push(s);
  return s;
}

describe('Scheduler', () => {
  it('drives every item once with never more steps at a time than the cap', async () => {
    const store = await open();
    const batch = await batchOf(store, 20);
    const { step, state } = gatedStep(store);
    const r = await scheduler(store, batch, { step, clock: virtualClock() }).run();
    expect(r).toMatchObject({ interrupted: false, cancelled: false, stalled: 0, fatal: null });
    expect([...state.seen].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `i${i}`).sort());
    expect(state.peak).toBeGreaterThan(1);
    expect(state.peak).toBeLessThanOrEqual(3);
    expect((await store.itemCounts(batch.id)).completed).toBe(20);
  });

  it('a failure while recording an item\'s failure rejects run() itself, never an unhandled rejection', async () => {
    const store = await open();
    const batch = await batchOf(store, 3);
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown): void => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const broken = new Error('the error column is gone');
      const step: Step = async () => {
        throw new Error('a bug in the step');
      };
      const markError = async (): Promise<void> => {
        throw broken;
      };
      await expect(scheduler(store, batch, { step, markError, clock: virtualClock() }).run()).rejects.toBe(broken);
      // A turn for any rejection nobody handled to be reported.
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setTimeout(r, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a dry queue is not claimed again for each run that ends while runs are in flight', async () => {
    const store = await open();
    const batch = await batchOf(store, 300);
    const { step: gated, state } = gatedStep(store);
    // Runs end one at a time: item k ends k event-loop turns after it started.
    const step: Step = async (item, ctx) => {
      for (let k = Number(item.id.slice(1)); k > 0; k--) await new Promise((r) => setImmediate(r));
      return gated(item, ctx);
    };
    let claims = 0;
    const claimItems = store.claimItems.bind(store);
    store.claimItems = (...a) => (claims++, claimItems(...a));
    // Frozen time: gatherMs never passes, so only the end of the batch may claim again.
    const frozen: Clock = { now: () => 1_000_000, sleep: () => new Promise((resolve) => setImmediate(resolve)) };
    const r = await scheduler(store, batch, { step, cap: 300, clock: frozen }).run();
    expect(r).toMatchObject({ interrupted: false, stalled: 0, fatal: null });
    expect(state.seen).toHaveLength(300);
    expect((await store.itemCounts(batch.id)).completed).toBe(300);
    // Before: one claim per wake once the free slots passed `gather` (hundreds here).
    expect(claims).toBeLessThan(10);
  });

  it('slots freed one at a time while a claim gathers do not each turn the loop: it turns about twice per claim, not once per run', async () => {
    const store = await open();
    const batch = await batchOf(store, 1200);
    const { step: gated, state } = gatedStep(store);
    // Runs end one at a time: item k ends k event-loop turns after it started.
    const step: Step = async (item, ctx) => {
      for (let k = Number(item.id.slice(1)) % 400; k > 0; k--) await new Promise((r) => setImmediate(r));
      return gated(item, ctx);
    };
    let claims = 0;
    const claimItems = store.claimItems.bind(store);
    store.claimItems = (...a) => (claims++, claimItems(...a));
    // Frozen time (gatherMs never passes) and a sleep that only a wake ends: every turn of the
    // loop after the first claims is one a wake asked for.
    const woken: Clock = { now: () => 1_000_000, sleep: (_ms, signal) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true })) };
    let ticks = 0;
    const r = await scheduler(store, batch, { step, cap: 400, clock: woken, onEvent: (e) => void (e.type === 'tick' && ticks++) }).run();
    expect(r).toMatchObject({ interrupted: false, stalled: 0, fatal: null });
    expect(state.seen).toHaveLength(1200);
    expect((await store.itemCounts(batch.id)).completed).toBe(1200);
    // A claim's worth is 6 slots at a cap of 400: 800 slots came free for about 130 claims.
    expect(claims).toBeLessThan(200);
    // Before: a turn (and a tick) for nearly every slot freed (835 of them). Now one when the
    // first slot after a claim frees (the claim is put off) and one for the claim's worth.
    expect(ticks).toBeLessThan(300);
    expect(ticks).toBeLessThanOrEqual(2 * claims + 10);
  });

  it('two schedulers on one batch share its cap and split its items', async () => {
    const store = await open();
    const batch = await batchOf(store, 30);
    const { step, state } = gatedStep(store);
    const clock = virtualClock();
    const [a, b] = await Promise.all([scheduler(store, batch, { step, clock, cap: 4 }).run(), scheduler(store, batch, { step, clock, cap: 4 }).run()]);
    expect(a.fatal ?? b.fatal).toBeNull();
    expect(state.seen).toHaveLength(30);
    expect(new Set(state.seen).size).toBe(30);
    expect(state.peak).toBeLessThanOrEqual(4);
  });

  it('two batches sharing slots stay under one cap together; the first is served first, and the other waits for slots, never ends for want of them', async () => {
    const store = await open();
    const answers = await batchOf(store, 12);
    const judge = await batchOf(store, 6);
    const { step, state } = gatedStep(store);
    const clock = virtualClock();
    const slots = new SharedSlots(() => 3);
    const order: string[] = [];
    const tagged: Step = (item, ctx) => {
      order.push(item.batchId === judge.id ? 'J' : 'A');
      return step(item, ctx);
    };
    const a = scheduler(store, answers, { step: tagged, clock, cap: 3, slots });
    const j = scheduler(store, judge, { step: tagged, clock, cap: 3, slots, slotsFirst: true });
    // All six judgings wait for the judge: its slots are kept from the answers.
    j.more(6);
    const [ra, rj] = await Promise.all([a.run(), j.run()]);
    expect(ra.fatal ?? rj.fatal).toBeNull();
    expect(state.seen).toHaveLength(18);
    expect(state.peak).toBeLessThanOrEqual(3);
    expect((await store.itemCounts(answers.id)).completed).toBe(12);
    expect((await store.itemCounts(judge.id)).completed).toBe(6);
    // The judge's six went out first, then the answers.
    expect(order.join('')).toBe('J'.repeat(6) + 'A'.repeat(12));
  });

  it('stayWhile keeps an idle scheduler for work this process adds; it ends once told, when woken', async () => {
    const store = await open();
    const batch = await batchOf(store, 0);
    const { step, state } = gatedStep(store);
    let stay = true;
    let ticks = 0;
    const s = scheduler(store, batch, {
      step,
      clock: virtualClock(),
      stayWhile: () => stay,
      onEvent: (e) => {
        if (e.type !== 'tick') return;
        ticks++;
        // Idle a while with nothing to claim, then items come, then the stay is over.
        if (ticks === 3) void store.appendItems(batch.id, { ids: ['late'], lines: [2], questions: ['q'], threads: [null], metas: ['{}'] }).then(() => s.more(1));
        if (state.seen.includes('late') && stay) {
          stay = false;
          s.wake();
        }
      },
    });
    const r = await s.run();
    expect(r.fatal).toBeNull();
    expect(ticks).toBeGreaterThanOrEqual(3);
    expect(state.seen).toEqual(['late']);
    expect(stay).toBe(false);
  });

  it('a 429 seen by one worker lowers the cap of the whole batch', async () => {
    const store = await open();
    const batch = await batchOf(store, 24);
    const { step, state } = gatedStep(store);
    const clock = virtualClock();
    const a = scheduler(store, batch, { step, clock, cap: 8 });
    const b = scheduler(store, batch, { step, clock, cap: 8 });
    const caps: number[] = [];
    a.throttled();
    await Promise.all([a.run(), b.run()]);
    caps.push(a.cap);
    expect(state.seen).toHaveLength(24);
    // Both workers together never ran more than the lowered cap.
    expect(state.peak).toBeLessThanOrEqual(4);
    expect(caps[0]).toBeLessThanOrEqual(8);
  });

  it('takes over the items of a worker whose lease expired, and only then', async () => {
    const store = await open();
    const batch = await batchOf(store, 3);
    const clock = virtualClock();
    // A worker that claims everything and dies (no heartbeat).
    const dead = await store.registerWorker(batch.id, { host: 'gone', pid: 9 }, clock.now());
    const claim = await store.claimItems(batch.id, { workerId: dead.id, leaseMs: 10_000, max: 3, cap: 3, afterSeq: -1 }, clock.now());
    expect(claim.items.map((i) => i.state)).toEqual(['submitting', 'submitting', 'submitting']);
    const early = await store.claimItems(batch.id, { workerId: 'other', leaseMs: 10_000, max: 3, cap: 3, afterSeq: -1 }, clock.now() + 9_999);
    expect(early.items).toEqual([]);
    const { step, state } = gatedStep(store);
    const r = await scheduler(store, batch, { step, clock, leaseMs: 10_000 }).run();
    expect(r.fatal).toBeNull();
    expect(state.seen.sort()).toEqual(['i0', 'i1', 'i2']);
    // Its keys were the dead worker's: a takeover re-posts with the stored key.
    expect((await store.runChain(batch.id, 'i0'))[0]?.idempotencyKey).toBe(claim.items[0]!.pendingKey);
  });

  it('claims no new item while a run taken over is being read again or its outcome recorded; the slots freed meanwhile are claimed after the last', async () => {
    const store = await open();
    const batch = await batchOf(store, 6);
    const clock = virtualClock();
    const dead = await store.registerWorker(batch.id, { host: 'gone', pid: 9 }, clock.now());
    await store.claimItems(batch.id, { workerId: dead.id, leaseMs: 10_000, max: 3, cap: 3, afterSeq: -1 }, clock.now());
    const { step: gated } = gatedStep(store);
    const log: string[] = [];
    let openSlow!: () => void;
    const slow = new Promise<void>((resolve) => (openSlow = resolve));
    const step: Step = async (item, ctx) => {
      log.push(`start ${item.id}${ctx.fresh ? '' : ' (taken over)'}`);
      if (!ctx.fresh) {
        ctx.rereading();
        if (item.id === 'i2') {
          // i2's read answers (still going) only when the test says so.
          await slow;
          ctx.reread();
        } else if (item.id === 'i1') {
          // i1 is found ended: its slot is released at once, as a driver does before it
          // records the outcome, and the recording takes until well after i2's read answered.
          ctx.release();
          await slow;
          for (let k = 0; k < 20; k++) await new Promise((r) => setImmediate(r));
        } else await new Promise((r) => setImmediate(r));
      }
      const end = await gated(item, ctx);
      log.push(`end ${item.id}`);
      if (item.id === 'i0') {
        // i0 ended and i1's slot went early (two slots free), and many turns pass: still no claim.
        for (let k = 0; k < 20; k++) await new Promise((r) => setImmediate(r));
        log.push('slow read answers');
        openSlow();
      }
      return end;
    };
    const r = await scheduler(store, batch, { step, clock, leaseMs: 10_000 }).run();
    expect(r.fatal).toBeNull();
    expect((await store.itemCounts(batch.id)).completed).toBe(6);
    const answered = log.indexOf('slow read answers');
    const firstNew = log.findIndex((l) => l.startsWith('start') && !l.endsWith('(taken over)'));
    expect(log.slice(0, 3).sort()).toEqual(['start i0 (taken over)', 'start i1 (taken over)', 'start i2 (taken over)']);
    expect(log.indexOf('end i0')).toBeLessThan(answered);
    expect(firstNew).toBeGreaterThan(answered);
    // Its slot was free long before, but i1's outcome had to be stored first.
    expect(log.indexOf('end i1')).toBeGreaterThan(answered);
    expect(firstNew).toBeGreaterThan(log.indexOf('end i1'));
  });

  it('slots freed while runs taken over are being read again do not turn the loop: it wakes once the last is recorded', async () => {
    const store = await open();
    const batch = await batchOf(store, 40);
    const dead = await store.registerWorker(batch.id, { host: 'gone', pid: 9 }, 1_000_000);
    await store.claimItems(batch.id, { workerId: dead.id, leaseMs: 10_000, max: 20, cap: 20, afterSeq: -1 }, 1_000_000);
    // Time stands still past the dead worker's lease, and a sleep ends only when the loop is woken.
    const woken: Clock = { now: () => 1_020_000, sleep: (_ms, signal) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true })) };
    const { step: gated } = gatedStep(store);
    let phase: 'reading' | 'after' = 'reading';
    let ticksWhileReading = 0;
    let takenOverEnded = 0;
    let openLast!: () => void;
    const last = new Promise<void>((resolve) => (openLast = resolve));
    const step: Step = async (item, ctx) => {
      if (ctx.fresh) return gated(item, ctx);
      ctx.rereading();
      // One taken-over run's read answers last; the other nineteen are found ended and recorded first.
      if (item.id === 'i19') {
        await last;
        phase = 'after';
      } else await new Promise((r) => setImmediate(r));
      const end = await gated(item, ctx);
      if (++takenOverEnded === 19) setImmediate(openLast);
      return end;
    };
    const r = await scheduler(store, batch, {
      step,
      cap: 20,
      clock: woken,
      leaseMs: 10_000,
      onEvent: (e) => {
        if (e.type === 'tick' && phase === 'reading') ticksWhileReading++;
      },
    }).run();
    expect(r.fatal).toBeNull();
    expect((await store.itemCounts(batch.id)).completed).toBe(40);
    // Nineteen slots came free (two wakes each before) while i19 was read: the loop slept through them.
    expect(takenOverEnded).toBe(20);
    expect(ticksWhileReading).toBeLessThanOrEqual(1);
  });

  it.runIf(process.platform === 'linux')('a worker of this host killed with SIGKILL: its items are taken over at once, while this one is busy, not after its lease', async () => {
    const store = await open();
    const batch = await batchOf(store, 6);
    const LEASE = 600_000;
    // The dead-to-be worker: a real process of this host (a `sleep`), registered with its start
    // identity, holding two items under a ten-minute lease.
    const victim = spawn('sleep', ['60'], { stdio: 'ignore' });
    await new Promise((r) => victim.once('spawn', r));
    try {
      const w = await store.registerWorker(batch.id, { host: 'test', pid: victim.pid!, pidStart: processStart(victim.pid!) });
      const held = await store.claimItems(batch.id, { workerId: w.id, leaseMs: LEASE, max: 2, cap: 4, afterSeq: -1 });
      expect(held.items.map((i) => i.id)).toEqual(['i0', 'i1']);
      // This worker's runs last until the test lets them end: it stays busy, never idle.
      const { step: ok } = gatedStep(store);
      const seen: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const step: Step = async (item, ctx) => {
        seen.push(item.id);
        await gate;
        return ok(item, ctx);
      };
      const s = scheduler(store, batch, { step, cap: 4, leaseMs: LEASE, pid: process.pid });
      const done = s.run();
      const until = async (what: string, check: () => boolean) => {
        for (const end = Date.now() + 5_000; !check(); await new Promise((r) => setTimeout(r, 20)))
          if (Date.now() > end) throw new Error(`gave up waiting for ${what} (seen ${seen.join(',')})`);
      };
      // Its share while the other lives: half the cap.
      await until('this worker busy with its own items', () => seen.length === 2);
      expect(seen).toEqual(['i2', 'i3']);
      const exited = new Promise((r) => victim.once('exit', r));
      victim.kill('SIGKILL');
      await exited;
      // Its items come to this worker while this one's own runs are still going.
      await until("the killed worker's items taken over", () => seen.includes('i0') && seen.includes('i1'));
      expect(seen.slice(0, 4).sort()).toEqual(['i0', 'i1', 'i2', 'i3']);
      release();
      const r = await done;
      expect(r.fatal).toBeNull();
      expect((await store.itemCounts(batch.id)).completed).toBe(6);
      // Given up as a worker, not waited out.
      expect((await store.liveWorkers(batch.id, LEASE)).map((x) => x.id)).not.toContain(w.id);
    } finally {
      victim.kill('SIGKILL');
    }
  });

  it('retries a transient failure on the schedule, in virtual time', async () => {
    const store = await open();
    const batch = await batchOf(store, 1);
    const clock = virtualClock();
    const tries: number[] = [];
    const { step: ok } = gatedStep(store);
    const step: Step = async (item, ctx) => {
      tries.push(clock.now());
      if (tries.length < 3) throw new Flaky('HTTP 503');
      return ok(item, ctx);
    };
    const events: string[] = [];
    const r = await scheduler(store, batch, {
      step,
      clock,
      classify: flakyIsTransient,
      retryLaterMs: [2000, 5000],
      onEvent: (e) => e.type === 'retry-later' && events.push(`${e.delayMs}`),
    }).run();
    expect(r.stalled).toBe(0);
    expect(events).toEqual(['2000', '5000']);
    expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(2000);
    expect(tries[2]! - tries[1]!).toBeGreaterThanOrEqual(5000);
    expect((await store.getItem(batch.id, 'i0'))?.state).toBe('completed');
  });

  it('gives up on an item once its schedule is spent and leaves it for a resume: this worker does not take it over again, and the run ends', async () => {
    const store = await open();
    const batch = await batchOf(store, 2);
    const clock = virtualClock();
    const { step: ok } = gatedStep(store);
    const calls: string[] = [];
    const step: Step = async (item, ctx) => {
      calls.push(item.id);
      if (item.id === 'i0') throw new Flaky('HTTP 503');
      return ok(item, ctx);
    };
    const warnings: string[] = [];
    const r = await scheduler(store, batch, {
      step,
      clock,
      classify: flakyIsTransient,
      retryLaterMs: [2000],
      onEvent: (e) => e.type === 'warning' && warnings.push(e.message),
    }).run();
    expect(r).toMatchObject({ stalled: 1, fatal: null, interrupted: false });
    // The first try and the one retry of the schedule: then left alone.
    expect(calls.filter((id) => id === 'i0')).toEqual(['i0', 'i0']);
    expect(warnings).toEqual(['item i0: gave up for now (HTTP 503); resume later']);
    expect(await store.getItem(batch.id, 'i0')).toMatchObject({ state: 'submitting', owner: null });
    expect((await store.getItem(batch.id, 'i1'))?.state).toBe('completed');
    // Another worker (a resume) takes it over as before.
    const later = await store.claimItems(batch.id, { workerId: 'w2', leaseMs: 60_000, max: 5, cap: 3, afterSeq: -1 }, clock.now());
    expect(later.items.map((i) => i.id)).toEqual(['i0']);
  });

  it('a step that answers tryLater is sent again on the retry-later schedule with its reason, in virtual time, and is never marked as failed', async () => {
    const store = await open();
    const batch = await batchOf(store, 1);
    const clock = virtualClock();
    const tries: number[] = [];
    const { step: ok } = gatedStep(store);
    const step: Step = async (item, ctx) => {
      tries.push(clock.now());
      if (tries.length < 3) return tryLater(`not sent (#${tries.length})`);
      return ok(item, ctx);
    };
    const events: string[] = [];
    const r = await scheduler(store, batch, {
      step,
      clock,
      // A tryLater is no failure: classify is never asked (it would call it a bug).
      retryLaterMs: [2000, 5000],
      onEvent: (e) => e.type === 'retry-later' && events.push(`${e.id} ${e.delayMs} ${e.reason}`),
    }).run();
    expect(r).toMatchObject({ stalled: 0, fatal: null });
    expect(events).toEqual(['i0 2000 not sent (#1)', 'i0 5000 not sent (#2)']);
    expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(2000);
    expect(tries[2]! - tries[1]!).toBeGreaterThanOrEqual(5000);
    expect((await store.getItem(batch.id, 'i0'))?.state).toBe('completed');
  });

  it('a database fault stops the worker and is never recorded as the item\'s error', async () => {
    const store = await open();
    const batch = await batchOf(store, 2);
    const fault = Object.assign(new Error('disk I/O error'), { name: 'SqliteError', code: 'SQLITE_IOERR' });
    const r = await scheduler(store, batch, { step: async () => Promise.reject(fault), clock: virtualClock() }).run();
    expect(r.fatal?.message).toBe('disk I/O error');
    const counts = await store.itemCounts(batch.id);
    expect(counts.error).toBe(0);
  });

  it('--limit sends only the next N queued items', async () => {
    const store = await open();
    const batch = await batchOf(store, 10);
    const { step, state } = gatedStep(store);
    await scheduler(store, batch, { step, clock: virtualClock(), limit: 4 }).run();
    expect(state.seen.sort()).toEqual(['i0', 'i1', 'i2', 'i3']);
    expect((await store.itemCounts(batch.id)).queued).toBe(6);
  });

  it('runs a thread one item after another, in file order', async () => {
    const store = await open();
    const batch = await batchOf(store, 6, (i) => (i % 2 === 0 ? 't' : null));
    const order: string[] = [];
    const { step: ok } = gatedStep(store);
    let inThread = 0;
    const step: Step = async (item: ItemRecord, ctx) => {
      if (item.threadKey) {
        inThread++;
        expect(inThread).toBe(1);
        order.push(item.id);
      }
      try {
        return await ok(item, ctx);
      } finally {
        if (item.threadKey) inThread--;
      }
    };
    await scheduler(store, batch, { step, clock: virtualClock() }).run();
    expect(order).toEqual(['i0', 'i2', 'i4']);
  });
});
