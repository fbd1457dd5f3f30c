import type { ServiceClient } from '../api/index.js';
import type { Policy } from '../policy/index.js';
import { ACTIVE_STATES, type BatchRecord, type ItemRecord, type Store } from '../store/index.js';
import { AdaptiveCap } from './adaptive-cap.js';
import { StateTally } from './state-tally.js';
import { errorKind } from './error-kind.js';
import type { RunnerEvent, StateCounts } from './events.js';
import { driveItem, type DriveContext } from './item-driver.js';
import { idempotencyKey } from './keys.js';
import { decide } from '../policy/decide.js';

const TALLY_REREAD_MS = 5000;

/** Options of a batch run. */
export interface RunnerOptions {
  store: Store;
  client: ServiceClient;
  batch: BatchRecord;
  /** Auto-answer policy; null holds every pause. */
  policy: Policy | null;
  /** Most runs in flight. @default batch.settings.concurrency */
  concurrency?: number;
  /** How runs are followed. @default batch.settings.follow */
  follow?: 'sse' | 'poll';
  /** Receives progress; must not throw. */
  onEvent?: (e: RunnerEvent) => void;
  /** How often to look for items a person answered meanwhile. @default 1000 */
  answeredPollMs?: number;
  /** Delays before an item whose request kept failing is tried again. @default [2000, 5000, 15000, 30000, 60000] */
  retryLaterMs?: readonly number[];
}

/** How a batch run ended. */
export interface RunnerResult {
  counts: StateCounts;
  interrupted: boolean;
  /** Items left unfinished because the service could not be reached. */
  stalled: number;
  /** Set when the batch stopped for a reason that affects every item (e.g. HTTP 401). */
  fatal: Error | null;
}

/**
 * Runs a batch: re-attaches items that have a run or a stored request, then admits
 * queued items in file order under an adaptive cap, one at a time per thread.
 */
export class BatchRunner {
  readonly #o: RunnerOptions;
  readonly #abort = new AbortController();
  readonly #cap: AdaptiveCap;
  /** Every drive not yet returned, including those whose slot was already released. */
  readonly #drives = new Set<Promise<void>>();
  /** How many of those have not reached their end (the set drops them a tick later). */
  #unfinished = 0;
  readonly #active = new Set<string>();
  readonly #activeThreads = new Set<string>();
  readonly #ready: ItemRecord[] = [];
  readonly #later = new Map<string, { at: number; tries: number }>();
  #cursor = -1;
  #cursorDone = false;
  /** Queued items read ahead of the cursor, last first; each is re-read before it is claimed. */
  #page: ItemRecord[] = [];
  #wake: (() => void) | null = null;
  /** Items holding a slot: a drive releases its slot when its last run finishes, before its bookkeeping. */
  #driving = 0;
  #fatal: Error | null = null;
  #stalled = 0;
  #tally: StateTally | null = null;
  #tallyReadAt = 0;

  constructor(o: RunnerOptions) {
    this.#o = o;
    this.#cap = new AdaptiveCap(o.concurrency ?? o.batch.settings.concurrency);
  }

  #emit(e: RunnerEvent): void {
    if (e.type === 'item') this.#tally?.move(e.id, e.state);
    this.#o.onEvent?.(e);
  }

  /** Counts by state for progress: kept in memory, re-read from the store every few seconds. */
  #counts(): StateCounts {
    const now = Date.now();
    if (!this.#tally || now - this.#tallyReadAt > TALLY_REREAD_MS) {
      const fresh = this.#o.store.items.counts(this.#o.batch.id);
      if (this.#tally) this.#tally.reset(fresh);
      else this.#tally = new StateTally(fresh);
      this.#tallyReadAt = now;
    }
    return this.#tally.counts;
  }

  /** Stops admitting, aborts in-flight requests (their state is already stored) and lets run() return. */
  stop(): void {
    this.#abort.abort();
    this.#wake?.();
  }

  /** Tells the runner the service throttled an admission (HTTP 429): the cap halves. */
  throttled(): void {
    if (this.#cap.throttled(Date.now())) {
      this.#emit({ type: 'cap', cap: this.#cap.current, reason: 'HTTP 429 from the service' });
    }
  }

  /** Runs until every item is finished or held, or stop() is called. */
  async run(): Promise<RunnerResult> {
    const { store, batch } = this.#o;
    this.#redecideHeld();
    const resumed = store.items.list(batch.id, { states: ACTIVE_STATES });
    this.#counts();
    for (const it of resumed) this.#claim(it);
    this.#ready.push(...resumed);
    this.#emit({
      type: 'start',
      batch: batch.name,
      batchId: batch.id,
      total: batch.totalItems,
      counts: this.#counts(),
      resumed: resumed.length,
    });
    const signal = this.#abort.signal;
    let lastPoll = Date.now();
    const pollMs = this.#o.answeredPollMs ?? 1000;
    while (!signal.aborted) {
      if (Date.now() - lastPoll >= pollMs) {
        lastPoll = Date.now();
        this.#pickUpAnswered();
      }
      if (this.#inFlight() < this.#cap.current) {
        if (this.#admitOne()) continue;
        if (this.#unfinished === 0 && this.#later.size === 0) {
          lastPoll = Date.now();
          if (!this.#pickUpAnswered()) break;
          continue;
        }
      }
      await this.#sleep(Math.min(pollMs, this.#nextLaterIn()));
    }
    while (this.#drives.size > 0) await Promise.all(this.#drives);
    const counts = store.items.counts(batch.id);
    this.#emit({
      type: 'end',
      counts,
      interrupted: signal.aborted && !this.#fatal,
      stalled: this.#stalled,
      fatal: this.#fatal?.message ?? null,
    });
    return { counts, interrupted: signal.aborted && !this.#fatal, stalled: this.#stalled, fatal: this.#fatal };
  }

  #inFlight(): number {
    return this.#driving;
  }

  /** Starts the next item when a slot is free; returns whether one was started. */
  #admitOne(): boolean {
    if (this.#abort.signal.aborted || this.#driving >= this.#cap.current) return false;
    const next = this.#next();
    if (!next) return false;
    this.#driving++;
    this.#unfinished++;
    // Runs synchronously up to its first request: the key is stored and the request sent now.
    const drive = this.#drive(next);
    this.#drives.add(drive);
    void drive.finally(() => this.#drives.delete(drive));
    return true;
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, Math.max(1, ms));
      function done(): void {
        clearTimeout(t);
        resolve();
      }
      this.#wake = () => {
        this.#wake = null;
        done();
      };
    });
  }

  #nextLaterIn(): number {
    let soonest = Infinity;
    for (const v of this.#later.values()) soonest = Math.min(soonest, v.at - Date.now());
    return soonest;
  }

  #claim(item: ItemRecord): void {
    this.#tally?.track(item.id, item.state);
    this.#active.add(item.id);
    if (item.threadKey) this.#activeThreads.add(item.threadKey);
  }

  #release(item: ItemRecord): void {
    this.#tally?.untrack(item.id);
    this.#active.delete(item.id);
    if (item.threadKey) this.#activeThreads.delete(item.threadKey);
  }

  /**
   * Held items get a second look under the policy this run was given: a batch resumed
   * with a more generous policy answers what the old one held. Each in one transaction.
   */
  #redecideHeld(): void {
    const { store, batch, policy } = this.#o;
    if (!policy) return;
    for (const it of store.items.list(batch.id, { states: ['held'] })) {
      const run = it.runId ? store.runs.get(it.runId) : null;
      const action = run?.requiredAction;
      if (!run || !action) continue;
      const nextKey = idempotencyKey(batch.id, it.id, it.step + 1);
      const outcome = store.redecideHeld(it, (approvedCost) => {
        const d = decide(policy, action, { approvedCost });
        return d.kind === 'answer'
          ? {
              kind: 'answer',
              nextKey,
              decision: { runId: run.id, tool: action.tool, input: action.input, answer: d.answer, by: 'policy', reason: d.reason, cost: d.cost },
            }
          : { kind: 'hold', reason: d.reason };
      });
      if (outcome.kind === 'answer')
        this.#emit({ type: 'decision', id: it.id, tool: action.tool, by: 'policy', answer: outcome.decision.answer, reason: outcome.decision.reason ?? '' });
    }
  }

  /** Items a person answered (`resq answer`) while this runner was attached. */
  #pickUpAnswered(): boolean {
    const { store, batch } = this.#o;
    let found = false;
    for (const it of store.items.iterate(batch.id, { states: ['waiting'] })) {
      if (this.#active.has(it.id) || this.#later.has(it.id)) continue;
      if (it.threadKey && this.#activeThreads.has(it.threadKey)) continue;
      this.#claim(it);
      this.#ready.push(it);
      found = true;
    }
    return found;
  }

  /** The next item to drive: resumed and continuing items first, then queued ones in file order. */
  #next(): ItemRecord | null {
    const ready = this.#ready.shift();
    if (ready) return ready;
    const now = Date.now();
    for (const [id, v] of this.#later) {
      if (v.at > now) continue;
      const it = this.#o.store.items.get(this.#o.batch.id, id);
      if (!it) continue;
      v.at = Infinity;
      this.#claim(it);
      return it;
    }
    const { store, batch } = this.#o;
    while (!this.#cursorDone) {
      if (this.#page.length === 0) {
        // One page serves many admissions: re-reading it for each one cost O(page) rows per run.
        this.#page = store.items.list(batch.id, { states: ['queued'], afterSeq: this.#cursor, limit: 256 }).reverse();
        if (this.#page.length === 0) {
          this.#cursorDone = true;
          break;
        }
      }
      let it: ItemRecord | undefined;
      while ((it = this.#page.pop())) {
        this.#cursor = it.seq;
        if (this.#active.has(it.id)) continue;
        if (it.threadKey) {
          // Later items of a thread are reached through the thread, once the earlier ones finish.
          if (this.#activeThreads.has(it.threadKey)) continue;
          if (store.items.hasUnfinishedBefore(batch.id, it.threadKey, it.seq)) continue;
        }
        const fresh = store.items.get(batch.id, it.id);
        if (!fresh || fresh.state !== 'queued') continue;
        this.#claim(fresh);
        return fresh;
      }
    }
    return null;
  }

  async #drive(item: ItemRecord): Promise<void> {
    const signal = this.#abort.signal;
    const ctx: DriveContext = {
      store: this.#o.store,
      client: this.#o.client,
      batch: this.#o.batch,
      policy: this.#o.policy,
      follow: this.#o.follow ?? this.#o.batch.settings.follow,
      signal,
      emit: (e) => this.#emit(e),
      admitted: () => this.#cap.admitted(),
    };
    let released = false;
    // A thread's next item follows this one in its slot, so thread items hold theirs to the end.
    if (!item.threadKey)
      ctx.release = () => {
        if (released) return;
        released = true;
        this.#driving--;
        try {
          this.#admitOne();
        } catch {
          // Not this item's fault: the scheduler's loop tries again and reports it.
          this.#wake?.();
        }
      };
    let end: ItemRecord | null = null;
    try {
      end = await driveItem(ctx, item);
      this.#later.delete(item.id);
    } catch (err) {
      end = this.#failed(item, err);
    }
    this.#release(item);
    if (!released) this.#driving--;
    released = true;
    this.#unfinished--;
    if (end && end.threadKey && (end.state === 'completed' || end.state === 'failed' || end.state === 'error'))
      this.#continueThread(end);
    this.#emit({
      type: 'progress',
      counts: this.#counts(),
      inFlight: this.#inFlight(),
      cap: this.#cap.current,
      total: this.#o.batch.totalItems,
    });
    this.#wake?.();
  }

  #continueThread(done: ItemRecord): void {
    if (!done.threadKey || this.#abort.signal.aborted) return;
    const next = this.#o.store.items.nextQueuedInThread(done.batchId, done.threadKey, done.seq);
    if (!next) return;
    this.#claim(next);
    this.#ready.unshift(next);
  }

  /** Classifies a failed step; returns the item when it ended in `error`. */
  #failed(item: ItemRecord, err: unknown): ItemRecord | null {
    const signal = this.#abort.signal;
    const kind = errorKind(err, signal);
    const message = err instanceof Error ? err.message : String(err);
    const current = this.#o.store.items.get(item.batchId, item.id) ?? item;
    switch (kind) {
      case 'aborted':
        return null;
      case 'fatal':
        this.#fatal = err instanceof Error ? err : new Error(message);
        this.#abort.abort();
        return null;
      case 'permanent':
      case 'bug':
        this.#later.delete(item.id);
        this.#o.store.markError(current, kind === 'bug' ? `internal error: ${message}` : message);
        this.#emit({ type: 'item', id: item.id, state: 'error', runId: current.runId, detail: message });
        return this.#o.store.items.get(item.batchId, item.id);
      case 'transient': {
        const delays = this.#o.retryLaterMs ?? [2000, 5000, 15000, 30000, 60000];
        const tries = (this.#later.get(item.id)?.tries ?? 0) + 1;
        if (tries > delays.length) {
          this.#later.delete(item.id);
          this.#stalled++;
          this.#emit({ type: 'warning', message: `item ${item.id}: gave up for now (${message}); resume later` });
          return null;
        }
        const delayMs = delays[tries - 1] ?? 60000;
        this.#later.set(item.id, { at: Date.now() + delayMs, tries });
        this.#emit({ type: 'retry-later', id: item.id, delayMs, reason: message });
        return null;
      }
    }
  }
}
