import type { ServiceClient } from '../api/index.js';
import { etaSeconds, RATE_WINDOW, ratePerSecond } from '../read/rate.js';
import { unfinishedOf } from '../read/batch-status.js';
import { forPersonBehindThreads } from '../read/waits.js';
import { decide } from '../policy/decide.js';
import type { Policy } from '../policy/index.js';
import { type BatchRecord, idempotencyKey, type ItemRecord, type ReadStore, type TransitionStore, type WorkerStore } from '../store/index.js';
import { type Clock, systemClock } from '../clock.js';
import { errorKind } from './error-kind.js';
import type { RunnerEvent, StateCounts } from './events.js';
import { ItemDriveContext, type DriveShared } from './drive-context.js';
import { driveItem } from './item-driver.js';
import { Scheduler, type SchedulerEvent } from './scheduler.js';
import { StateTally } from './state-tally.js';
import type { SharedSlots } from './shared-slots.js';

const TALLY_REREAD_MS = 5000;
/**
 * Progress events at most this often (the last change in a burst is sent once the interval
 * has passed): one per run that ended, each with every count, would outnumber the item events
 * themselves in `--json`.
 */
const PROGRESS_EVERY_MS = 200;

/** Options of a batch run. */
export interface RunnerOptions {
  /** Claims through the workers role, moves items through the transitions role, reads counts and held items. */
  store: WorkerStore & TransitionStore & ReadStore;
  client: ServiceClient;
  batch: BatchRecord;
  /** Auto-answer policy; null holds every pause. */
  policy: Policy | null;
  /** Most runs in flight over all workers of the batch. @default batch.settings.concurrency */
  concurrency?: number;
  /** Most runs in flight this machine fits (its open files: descriptor-fit.ts). @default the concurrency */
  localCap?: number;
  /** How runs are followed. @default batch.settings.follow */
  follow?: 'sse' | 'poll';
  /** Receives progress; must not throw. */
  onEvent?: (e: RunnerEvent) => void;
  /** How often to look for work (items a person answered, expired leases). @default 1000 */
  answeredPollMs?: number;
  /** Delays before an item whose request kept failing is tried again. @default DEFAULT_RETRY_LATER_MS (the scheduler's, for agent and model batches alike) */
  retryLaterMs?: readonly number[];
  /** Lease length. @default 30000 */
  leaseMs?: number;
  /** Send at most this many queued items now (`--limit`); the rest stay queued. */
  limit?: number;
  /** Stay while other workers have runs in flight. @default true */
  wait?: boolean;
  clock?: Clock;
  /** Judges each item this worker completes and records its verdicts (score/worker-scorers.ts); never throws. */
  scoreCompleted?: (item: ItemRecord) => Promise<void>;
  /** Slots shared with another batch this process runs (an answer batch and its agent judge's). */
  slots?: SharedSlots;
  /** Served first from the shared slots. @default false */
  slotsFirst?: boolean;
  /** Stay, idle, while this returns true (more work is coming from this process); `wake()` when it turns false. */
  stayWhile?: () => boolean;
}

/** How a batch run ended. */
export interface RunnerResult {
  counts: StateCounts;
  interrupted: boolean;
  /** `resq cancel` stopped the batch. */
  cancelled: boolean;
  /** Items left unfinished because the service could not be reached. */
  stalled: number;
  /** Set when the batch stopped for a reason that affects every item (e.g. HTTP 401). */
  fatal: Error | null;
}

/**
 * Runs a question batch as one worker among any number: the scheduler claims items under
 * the batch's cap, and each is driven through the item state machine (driveItem).
 */
export class BatchRunner {
  readonly #o: RunnerOptions;
  readonly #scheduler: Scheduler;
  #tally: StateTally | null = null;
  #tallyReadAt = 0;
  /** The batch's rate over its latest ended items, re-read with the counts (null until two ended). */
  #rate: number | null = null;
  /** Queued items behind a held item of their thread (the ETA leaves them out), re-read when the held count changes. */
  #forPerson = 0;
  #forPersonAtHeld = 0;
  #progressAt = -Infinity;
  /** The wait for the last progress of a burst; aborted at the end. */
  #progressLater: AbortController | null = null;
  /** A progress is being read (its counts); another asked for meanwhile follows it. */
  #progressBusy = false;
  #progressAgain = false;
  #ended = false;
  readonly #clock: Clock;

  constructor(o: RunnerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? systemClock;
    // What every item's drive shares: one object for the batch, not closures per item.
    const shared: DriveShared = {
      store: o.store,
      client: o.client,
      batch: o.batch,
      policy: o.policy,
      follow: o.follow ?? o.batch.settings.follow,
      emit: (e) => this.#emit(e),
      scoreCompleted: o.scoreCompleted,
    };
    this.#scheduler = new Scheduler({
      store: o.store,
      batch: o.batch,
      cap: o.concurrency ?? o.batch.settings.concurrency,
      ...(o.localCap !== undefined ? { localCap: o.localCap } : {}),
      step: (item, ctx) => {
        this.#tally?.track(item.id, item.state);
        return driveItem(new ItemDriveContext(shared, ctx), item);
      },
      classify: errorKind,
      markError: async (item, message, code) => {
        const end = await o.store.markError(item.batchId, item.id, message, code ?? null, item);
        this.#emit({ type: 'item', id: item.id, state: 'error', runId: end?.runId ?? item.runId, detail: message });
      },
      onEvent: (e) => this.#onScheduler(e),
      onLeave: (item) => {
        this.#tally?.untrack(item.id);
        void this.#progress();
      },
      pollMs: o.answeredPollMs,
      retryLaterMs: o.retryLaterMs,
      leaseMs: o.leaseMs,
      limit: o.limit,
      wait: o.wait,
      clock: this.#clock,
      ...(o.slots ? { slots: o.slots, slotsFirst: o.slotsFirst ?? false } : {}),
      ...(o.stayWhile ? { stayWhile: o.stayWhile } : {}),
    });
  }

  #emit(e: RunnerEvent): void {
    if (e.type === 'item') this.#tally?.move(e.id, e.state);
    this.#o.onEvent?.(e);
  }

  #onScheduler(e: SchedulerEvent): void {
    switch (e.type) {
      case 'retry-later':
      case 'warning':
      case 'cap':
        return this.#o.onEvent?.(e);
      case 'joined':
        return this.#o.onEvent?.({ type: 'joined', workerId: e.worker.id, others: e.others.map((w) => ({ id: w.id, host: w.host, pid: w.pid })) });
      case 'waiting-for-workers':
        return this.#o.onEvent?.({ type: 'waiting', inFlight: e.inFlight, workers: e.workers.map((w) => ({ id: w.id, host: w.host, pid: w.pid })) });
      case 'cancelled':
        return this.#o.onEvent?.({ type: 'warning', message: `batch ${this.#o.batch.name} was cancelled: nothing more is sent` });
      case 'tick':
        void this.#progress();
    }
  }

  /** Counts by state for progress: kept in memory, re-read from the store every few seconds. */
  async #counts(): Promise<StateCounts> {
    const now = this.#clock.now();
    if (!this.#tally || now - this.#tallyReadAt > TALLY_REREAD_MS) {
      this.#tallyReadAt = now;
      const [fresh, recent] = await Promise.all([this.#o.store.itemCounts(this.#o.batch.id), this.#o.store.recentFinishes(this.#o.batch.id, RATE_WINDOW)]);
      // The rate `resq status` and the page show: one formula, read from the same store.
      this.#rate = ratePerSecond(recent);
      if (this.#tally) this.#tally.reset(fresh);
      else this.#tally = new StateTally(fresh);
    }
    const counts = this.#tally.counts;
    // Read only when some item is held, and again when that count moves: never on a claim.
    if (counts.held !== this.#forPersonAtHeld) {
      this.#forPersonAtHeld = counts.held;
      this.#forPerson = counts.held === 0 ? 0 : forPersonBehindThreads(await this.#o.store.threadWaits(this.#o.batch.id, 0, { heldOnly: true }));
    }
    return counts;
  }

  async #progress(): Promise<void> {
    if (this.#ended) return;
    // One at a time: a change while one is being read asks for another after it.
    if (this.#progressBusy) {
      this.#progressAgain = true;
      return;
    }
    const wait = this.#progressAt + PROGRESS_EVERY_MS - this.#clock.now();
    if (wait > 0) {
      if (!this.#progressLater) {
        const later = new AbortController();
        this.#progressLater = later;
        void this.#clock.sleep(wait, later.signal).then(() => {
          if (later.signal.aborted) return;
          this.#progressLater = null;
          void this.#progress();
        });
      }
      return;
    }
    this.#progressBusy = true;
    try {
      const counts = await this.#counts();
      if (this.#ended) return;
      // Spaced by when they are sent, not by when their counts were asked for.
      this.#progressAt = this.#clock.now();
      const rate = this.#rate === null ? null : Number(this.#rate.toFixed(3));
      // This worker runs the batch: the ETA of a batch with a live worker.
      // Items waiting for a person are left out, as `resq status` leaves them out.
      const etaLeavesOut = Math.min(this.#forPerson, unfinishedOf(counts));
      const etaS = etaSeconds(this.#rate, unfinishedOf(counts), true, etaLeavesOut);
      this.#o.onEvent?.({ type: 'progress', counts, inFlight: this.#scheduler.inFlight, cap: this.#scheduler.cap, total: this.#o.batch.totalItems, ratePerS: rate, etaS, etaLeavesOut });
    } catch {
      // Progress is best effort: a busy or closing database skips one update.
    } finally {
      this.#progressBusy = false;
      if (this.#progressAgain) {
        this.#progressAgain = false;
        void this.#progress();
      }
    }
  }

  /** Stops admitting, aborts in-flight requests (their state is already stored) and lets run() return. */
  stop(): void {
    this.#scheduler.stop();
  }

  /** This worker's share of the batch's cap (the most runs in flight it starts). */
  get share(): number {
    return this.#scheduler.share;
  }

  /** Wakes the runner at once (a person answered an item). */
  wake(): void {
    this.#scheduler.wake();
  }

  /** This process appended `n` items to the batch while it runs (an agent judge's judgings): they are claimed at once, first from shared slots. */
  more(n: number): void {
    this.#scheduler.more(n);
  }

  /** Tells the runner the service throttled an admission (HTTP 429): the cap halves. */
  throttled(): void {
    this.#scheduler.throttled();
  }

  /** Runs until nothing is left for this worker (or stop() is called). */
  async run(): Promise<RunnerResult> {
    const { store, batch } = this.#o;
    this.#ended = false;
    await this.#redecideHeld();
    const counts = await this.#counts();
    const resumed = counts.submitting + counts.running + counts.waiting;
    this.#o.onEvent?.({ type: 'start', batch: batch.name, batchId: batch.id, total: batch.totalItems, counts, resumed });
    const stopListening = store.onAnswered?.(batch.id, () => this.#scheduler.wake());
    // The service's 429s on run creates reach the cap as the client's typed throttle events.
    const stopThrottle = this.#o.client.onThrottle((e) => e.admission && this.throttled());
    let r;
    try {
      r = await this.#scheduler.run();
    } finally {
      stopListening?.();
      stopThrottle();
      // The end event carries the final counts: no progress after it.
      this.#progressLater?.abort();
      this.#progressLater = null;
      this.#ended = true;
    }
    const end = await store.itemCounts(batch.id);
    this.#o.onEvent?.({ type: 'end', counts: end, interrupted: r.interrupted, stalled: r.stalled, fatal: r.fatal?.message ?? null });
    return { counts: end, interrupted: r.interrupted, cancelled: r.cancelled, stalled: r.stalled, fatal: r.fatal };
  }

  /**
   * Held items get a second look under the policy this run was given: a batch resumed
   * with a more generous policy answers what the old one held. Each in one transaction.
   */
  async #redecideHeld(): Promise<void> {
    const { store, batch, policy } = this.#o;
    if (!policy) return;
    for (const it of await store.listItems(batch.id, { states: ['held'] })) {
      const run = it.runId ? await store.getRun(it.runId) : null;
      const action = run?.requiredAction;
      if (!run || !action) continue;
      const nextKey = idempotencyKey(batch.id, it.id, it.step + 1, it.attempt);
      const outcome = await store.redecideHeld(batch.id, it.id, (approvedCost) => {
        const d = decide(policy, action, { approvedCost });
        return d.kind === 'answer'
          ? { kind: 'answer', nextKey, decision: { runId: run.id, tool: action.tool, input: action.input, answer: d.answer, by: 'policy', reason: d.reason, cost: d.cost } }
          : { kind: 'hold', reason: d.reason };
      });
      if (outcome.kind === 'answer')
        this.#emit({ type: 'decision', id: it.id, tool: action.tool, by: 'policy', answer: outcome.decision.answer, reason: outcome.decision.reason ?? '' });
    }
  }
}
