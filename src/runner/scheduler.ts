import { hostname } from 'node:os';
import { LeaseLostError } from '../errors.js';
import { isTerminal } from '../store/item-states.js';
import type { ItemRecord, WorkerRecord } from '../store/index.js';
import { BatchCap } from './batch-cap.js';
import { systemClock, type Clock } from '../clock.js';
import { ItemSlot, type SlotHost } from './item-slot.js';
import { isTryLater, type SchedulerOptions, type SchedulerResult } from './scheduler-options.js';
import { Presence } from './presence.js';
import { isStoreFault } from './store-fault.js';
import { errorCodeOf } from './error-kind.js';
import { isLocalFault } from '../api/network-errors.js';
import type { SlotMember } from './shared-slots.js';

export type { SchedulerEvent, SchedulerOptions, SchedulerResult, Step, StepContext, TryLater } from './scheduler-options.js';
export { isTryLater, tryLater } from './scheduler-options.js';

/** How long a claim keeps an item: a worker silent this long is taken for dead. @default 30000 */
export const DEFAULT_LEASE_MS = 30_000;
/** Delays before an item whose request kept failing is tried again. */
export const DEFAULT_RETRY_LATER_MS: readonly number[] = [2000, 5000, 15000, 30000, 60000];

/**
 * The one scheduler: registers a worker, claims items through the store port under the
 * batch's cap (shared by every worker), renews its leases, drives each item with `step`,
 * retries transient failures later on one schedule, continues threads, and leaves when
 * nothing is left — or waits while other workers still have runs in flight.
 */
/** Why the loop's sleep ended early (see #sleep). */
const WOKEN = Symbol('woken');

export class Scheduler {
  readonly #o: SchedulerOptions;
  readonly #clock: Clock;
  readonly #abort = new AbortController();
  readonly #cap: BatchCap;
  /** Drives in flight (counted, not kept: a promise and its reactions per run in flight would be), and the wait for the last. */
  #drives = 0;
  #drivesOver: (() => void) | null = null;
  /** The first error a drive could not put anywhere (a failure while recording a failure): run() throws it once the drives are over. */
  #driveError: { error: unknown } | null = null;
  /** What every item's slot tells this scheduler (one object for all). */
  readonly #slotHost: SlotHost;
  readonly #later = new Map<string, { at: number; tries: number; item: ItemRecord }>();
  readonly #threads = new Map<string, number>();
  #driving = 0;
  #cursor = -1;
  #sent = 0;
  #stalled = 0;
  /** Items this worker gave up on and released for a resume: never taken over again by it. */
  readonly #gaveUp = new Set<string>();
  #fatal: Error | null = null;
  #cancelled = false;
  #wakeSleep: (() => void) | null = null;
  /** Set by a wake that came while the loop was busy: its next sleep is skipped. */
  #kicked = false;
  #presence: Presence | null = null;
  #orphanScanAt = -Infinity;
  #claimedAt = -Infinity;
  /** A claim was put off to gather more free slots: the loop comes back within the cap's gatherMs. */
  #claimDue = false;
  /** Items whose run ended at the service and whose outcome is being stored (their slots are free). */
  readonly #ended = new Set<string>();
  /** The last claim found fewer items than free slots: the queue is dry for now. */
  #dry = false;
  /** Runs taken over being read again at the service: no new claims until they are all read. */
  #rereading = 0;
  /** This scheduler's part in slots shared with another batch of this process (its agent judge's). */
  readonly #shared: SlotMember | null;
  /** The last look for work found slots of its own but none left by the shared ones: work waits, this worker stays. */
  #sharedFull = false;

  constructor(o: SchedulerOptions) {
    this.#o = o;
    this.#clock = o.clock ?? systemClock;
    this.#cap = new BatchCap({ cap: o.cap, ...(o.localCap !== undefined ? { local: o.localCap } : {}), store: o.store, batchId: o.batch.id, onChange: (cap, reason) => o.onEvent?.({ type: 'cap', cap, reason }) });
    this.#slotHost = {
      admitted: () => this.#cap.admitted(),
      endedEarly: (id) => void this.#ended.add(id),
      freed: () => {
        this.#driving--;
        this.#slotFreed();
        this.#shared?.freed();
      },
      rereading: () => void this.#rereading++,
      reread: () => {
        if (--this.#rereading === 0) this.#wake();
      },
    };
    this.#shared = o.slots?.join({ first: o.slotsFirst ?? false, inFlight: () => this.inFlight, wake: () => this.#wake() }) ?? null;
  }

  /**
   * Slots this worker fills now, at most `max`: its share of the batch's cap, and of slots
   * shared with another batch what those leave it, taken until {@link #settle} (the other
   * batch's claim meanwhile cannot have them).
   */
  #take(max = Infinity): number {
    const own = Math.min(max, this.#cap.share - this.inFlight);
    if (!this.#shared) return own;
    const taken = own > 0 ? this.#shared.take(own) : 0;
    this.#sharedFull = own > 0 && taken <= 0;
    return taken;
  }

  /** A claim for `taken` slots is over, `got` items started (they count as in flight now). */
  #settle(taken: number, got: number, dry: boolean): void {
    this.#shared?.settle(taken, got, dry);
  }

  /** This worker's share of the batch's cap. */
  get share(): number {
    return this.#cap.share;
  }

  get #leaseMs(): number {
    return this.#o.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /** This worker, once registered. */
  get worker(): WorkerRecord | null {
    return this.#presence?.worker ?? null;
  }


  /** Items driven now (a slot each), and items waiting to be retried (they keep theirs). */
  get inFlight(): number {
    return this.#driving + this.#later.size;
  }

  get cap(): number {
    return this.#cap.current;
  }

  /** Stops admitting and aborts requests in flight (their state is stored); run() then returns. */
  stop(): void {
    this.#abort.abort();
    this.#wake();
  }

  /** Wakes the loop at once (a person answered an item, a slot came free). */
  wake(): void {
    this.#wake();
  }

  /** This process added `n` items to the batch: claimed first from shared slots, else looked for at once. */
  more(n: number): void {
    if (this.#shared) this.#shared.want(n);
    else this.#wake();
  }

  /**
   * A slot came free: the loop looks for work, unless runs taken over are still being read
   * again (no claim until the last, whose reread wakes it; ten thousand resumed runs would
   * otherwise turn the loop ten thousand times for nothing).
   */
  #slotFreed(): void {
    if (this.#rereading > 0 || this.#gathering()) return;
    this.#wake();
  }

  /**
   * A claim was put off to gather free slots and they are still fewer than a claim's worth
   * (or the queue was dry): the loop's sleep ends by itself within gatherMs, and a wake for
   * each slot freed meanwhile would only put the claim off again (a turn of the loop, its
   * timer and its tick per run). A thread's next item, slots shared with another batch and
   * the last run in flight wake it.
   */
  #gathering(): boolean {
    return this.#claimDue && this.#driving > 0 && this.#threads.size === 0 && !this.#shared && (this.#dry || this.#cap.share - this.inFlight < this.#cap.gather);
  }

  /** Ends the loop's sleep now, or, when it is busy, skips its next one. */
  #wake(): void {
    if (this.#wakeSleep) this.#wakeSleep();
    else this.#kicked = true;
  }

  /** The service throttled an admission (HTTP 429): the cap halves, for every worker of the batch. */
  throttled(): void {
    this.#cap.throttled(this.#clock.now());
  }

  async run(): Promise<SchedulerResult> {
    const { store, batch } = this.#o;
    const signal = this.#abort.signal;
    const presence = new Presence({ store, batch, host: this.#o.host ?? hostname(), pid: this.#o.pid ?? process.pid, leaseMs: this.#leaseMs });
    this.#presence = presence;
    const others = await presence.register(this.#storeNow());
    this.#cap.workers = others.length + 1;
    this.#o.onEvent?.({ type: 'joined', worker: presence.worker, others });
    const heartbeatMs = this.#o.heartbeatMs ?? Math.floor(this.#leaseMs / 3);
    let lastBeat = this.#clock.now();
    let lastCount = lastBeat;
    let rescanned = false;
    let announcedWait = false;
    let lastLook = false;
    try {
      while (!signal.aborted) {
        const now = this.#clock.now();
        if (now - lastBeat >= heartbeatMs) {
          lastBeat = now;
          const beat = await presence.beat(this.#storeNow());
          if (beat.cancelled) this.#cancel();
          await this.#cap.sync(beat.capLimit);
          this.#cap.workers = beat.workers;
          if (beat.reaped > 0) this.#orphanScanAt = -Infinity;
        } else if (now - lastCount >= (this.#o.pollMs ?? 1000)) {
          // Workers that joined since: this one's share shrinks within a second, not a heartbeat.
          // Workers of this host whose process is gone are given up on the same tick, and
          // their items looked for at once (not after their lease, nor once this one is idle).
          lastCount = now;
          const census = await presence.census(this.#storeNow());
          this.#cap.workers = census.workers;
          if (census.reaped > 0) this.#orphanScanAt = -Infinity;
        }
        if (signal.aborted) break;
        const got = (await this.#continueThreads()) + (await this.#claim());
        this.#retryDue();
        if (got > 0) {
          rescanned = false;
          lastLook = false;
          continue;
        }
        // Slots the other batch holds are not an end: they free as its runs end (it wakes this
        // loop); nor are runs taken over whose outcomes are being stored (the last one wakes it).
        if (this.#driving === 0 && this.#later.size === 0 && !this.#sharedFull && this.#rereading === 0) {
          if (!rescanned && this.#cursor !== -1) {
            // Items behind the cursor may be claimable now (a thread's next item, a retry).
            this.#cursor = -1;
            rescanned = true;
            continue;
          }
          // Nothing here: stay only while live workers hold items (their runs may still
          // need taking over if they die); dead workers' items come back through claims.
          // More work is coming from this process (the answers an agent judge judges): stay for it.
          const stay = !this.#cancelled && this.#o.stayWhile?.() === true;
          const busy = stay ? [] : await presence.busyOthers(this.#storeNow());
          if (!stay && (busy.length === 0 || this.#o.wait === false || this.#cancelled)) {
            // One last look for items to take over (a worker just gone stale leaves them).
            if (!lastLook && !this.#cancelled) {
              lastLook = true;
              this.#orphanScanAt = -Infinity;
              continue;
            }
            break;
          }
          lastLook = false;
          if (await presence.reapDeadLocal(this.#storeNow())) continue;
          if (!announcedWait && !stay) {
            announcedWait = true;
            const inFlight = busy.reduce((n, w) => n + w.items, 0);
            this.#o.onEvent?.({ type: 'waiting-for-workers', inFlight, workers: busy });
          }
        }
        this.#o.onEvent?.({ type: 'tick', inFlight: this.inFlight, cap: this.#cap.current });
        // Waiting on other workers, look more often: the batch may end at any moment.
        const pollMs = announcedWait ? Math.min(250, this.#o.pollMs ?? 1000) : (this.#o.pollMs ?? 1000);
        await this.#sleep(Math.min(this.#claimDue ? this.#cap.gatherMs : pollMs, this.#nextLaterIn()));
        rescanned = false;
      }
    } catch (e) {
      if (!isStoreFault(e)) throw e;
      this.#setFatal(e);
    }
    while (this.#drives > 0) await new Promise<void>((resolve) => (this.#drivesOver = resolve));
    this.#shared?.leave();
    if (this.#driveError) throw this.#driveError.error;
    await presence.retire(this.#storeNow());
    return { interrupted: signal.aborted && !this.#fatal && !this.#cancelled, cancelled: this.#cancelled, stalled: this.#stalled, fatal: this.#fatal };
  }

  /**
   * The time the store writes leases and heartbeats with: none in production (the database's
   * own clock, as each statement runs: a lease written after a stall is never already
   * expired), an injected clock's in tests.
   */
  #storeNow(): number | undefined {
    return this.#clock === systemClock ? undefined : this.#clock.now();
  }

  #lease(): { workerId: string; leaseMs: number } {
    return this.#presence!.lease;
  }

  #cancel(): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#o.onEvent?.({ type: 'cancelled' });
  }


  /** Claims up to the free local slots; returns how many items it started. */
  async #claim(): Promise<number> {
    if (this.#cancelled || this.#abort.signal.aborted) {
      this.#sharedFull = false;
      return 0;
    }
    // Runs taken over are read first and, where they ended, their outcomes stored: the slots
    // they free meanwhile are claimed together after the last (its reread wakes the loop).
    if (this.#rereading > 0) return 0;
    const free = this.#take();
    if (free <= 0) return 0;
    let r = { got: 0, dry: false };
    try {
      r = await this.#claimFor(free);
      return r.got;
    } finally {
      this.#settle(free, r.got, r.dry);
    }
  }

  /** Claims up to `free` items (slots taken); returns how many it started, and whether fewer were there (none when the claim was put off). */
  async #claimFor(free: number): Promise<{ got: number; dry: boolean }> {
    // With thousands in flight, slots free one at a time: gather some into one claim (each
    // claim counts the batch's runs in flight), waiting at most a few ms per thousand slots.
    // A dry queue is looked at again only after gatherMs while runs are in flight: otherwise
    // each run ending at the tail of a batch would be a claim of its own (one per run in flight).
    const wait = free < this.#cap.gather || (this.#dry && this.#driving > 0);
    if (wait && this.#clock.now() - this.#claimedAt < this.#cap.gatherMs) {
      this.#claimDue = true;
      return { got: 0, dry: false };
    }
    this.#claimDue = false;
    this.#claimedAt = this.#clock.now();
    const left = this.#o.limit === undefined ? Infinity : this.#o.limit - this.#sent;
    // Items to take over (a dead worker's, a person's answers) are looked for on the regular
    // tick; a claim for a slot that just came free looks at queued items only.
    const now = this.#clock.now();
    const scan = now - this.#orphanScanAt >= (this.#o.pollMs ?? 1000);
    if (scan) this.#orphanScanAt = now;
    const claim = await this.#o.store.claimItems(
      this.#o.batch.id,
      { ...this.#lease(), max: free, cap: this.#cap.current, afterSeq: this.#cursor, maxQueued: Math.max(0, left), takeOver: scan ? this.#o.takeOver : [], ended: [...this.#ended], skip: [...this.#gaveUp] },
      this.#storeNow(),
    );
    this.#cursor = claim.cursor;
    this.#dry = claim.items.length < free;
    if (claim.cancelled) this.#cancel();
    claim.items.forEach((it, i) => {
      const fresh = i >= claim.items.length - claim.fresh;
      if (fresh) this.#sent++;
      this.#start(it, 0, fresh);
    });
    return { got: claim.items.length, dry: this.#dry };
  }

  /** Claims the next item of each thread whose item just ended here. */
  async #continueThreads(): Promise<number> {
    let n = 0;
    for (const [key, seq] of [...this.#threads]) {
      if (this.#cancelled || this.#abort.signal.aborted) break;
      const slot = this.#take(1);
      if (slot <= 0) break;
      this.#threads.delete(key);
      let next = null;
      try {
        next = await this.#o.store.claimNextInThread(this.#o.batch.id, key, seq, { ...this.#lease(), cap: this.#cap.current }, this.#storeNow());
        if (next) {
          this.#sent++;
          this.#start(next, 0, true);
          n++;
        }
      } finally {
        this.#settle(slot, next ? 1 : 0, false);
      }
    }
    return n;
  }

  #retryDue(): void {
    const now = this.#clock.now();
    for (const [id, v] of this.#later) {
      if (v.at > now || this.#abort.signal.aborted) continue;
      this.#later.delete(id);
      this.#start(v.item, v.tries);
    }
  }

  #nextLaterIn(): number {
    let soonest = Infinity;
    const now = this.#clock.now();
    for (const v of this.#later.values()) soonest = Math.min(soonest, v.at - now);
    return Math.max(1, soonest);
  }

  #sleep(ms: number): Promise<void> {
    const wake = new AbortController();
    if (this.#kicked) {
      this.#kicked = false;
      return Promise.resolve();
    }
    this.#wakeSleep = () => {
      this.#wakeSleep = null;
      // A reason of our own: abort() without one builds a DOMException (a stack trace), and
      // the loop is woken once per run that starts or ends.
      wake.abort(WOKEN);
    };
    return this.#clock.sleep(ms, wake.signal).finally(() => {
      this.#wakeSleep = null;
    });
  }

  #start(item: ItemRecord, tries = 0, fresh = false): void {
    this.#driving++;
    this.#drives++;
    void this.#drive(item, tries, fresh);
  }

  async #drive(item: ItemRecord, tries: number, fresh: boolean): Promise<void> {
    const ctx = new ItemSlot(this.#slotHost, item, this.#abort.signal, fresh);
    try {
      const end = await this.#o.step(item, ctx);
      if (isTryLater(end)) await this.#retryLater(item, tries, end.tryLater);
      else if (end) {
        this.#o.onLeave?.(end);
        if (end.threadKey && isTerminal(end.state)) this.#threads.set(end.threadKey, end.seq);
      }
    } catch (err) {
      // A drive is not awaited by anyone (counted, not kept): what #failed cannot record is kept for run() to throw.
      await this.#failed(item, err, tries).catch((e: unknown) => void (this.#driveError ??= { error: e }));
    } finally {
      const early = ctx.early;
      if (early) this.#ended.delete(item.id);
      // A run taken over and found ended has its outcome stored now (or its drive failed).
      ctx.reread();
      // Frees the slot, and looks for work (unless it went early: then the look is below).
      ctx.free();
      // Released early, its outcome is stored now: the batch's count of runs in flight has
      // dropped, so a claim that found the cap full a moment ago may succeed.
      if (early) this.#slotFreed();
      if (--this.#drives === 0) this.#drivesOver?.();
    }
  }

  async #failed(item: ItemRecord, err: unknown, tries: number): Promise<void> {
    const signal = this.#abort.signal;
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof LeaseLostError) {
      // Its write found another owner or fencing token: nothing of it was kept, and this
      // worker sends nothing more for the item.
      this.#o.onEvent?.({ type: 'warning', message: `${message}: this worker stopped driving it` });
      return;
    }
    // The database, not the item, failed: stop this worker and leave the item as stored.
    if (isStoreFault(err)) return this.#setFatal(err);
    const kind = this.#o.classify(err, signal);
    switch (kind) {
      case 'aborted':
        return;
      case 'fatal':
        return this.#setFatal(err);
      case 'permanent':
      case 'bug': {
        try {
          await this.#o.markError(item, kind === 'bug' ? `internal error: ${message}` : message, errorCodeOf(err, kind));
        } catch (e) {
          if (!(e instanceof LeaseLostError)) throw e;
          this.#o.onEvent?.({ type: 'warning', message: `${e.message}: this worker stopped driving it` });
          return;
        }
        const now = await this.#o.store.getItem(item.batchId, item.id);
        if (now) {
          this.#o.onLeave?.(now);
          if (now.threadKey) this.#threads.set(now.threadKey, now.seq);
        }
        return;
      }
      case 'transient':
        // This machine ran short (open files, memory, disk): fewer at once here for a while.
        if (isLocalFault(err)) this.#cap.localFault(this.#clock.now());
        return this.#retryLater(item, tries, message);
    }
  }

  /** Tries the item again after the next delay of the retry-later schedule, or leaves it for a resume once the schedule is spent. */
  async #retryLater(item: ItemRecord, tries: number, reason: string): Promise<void> {
    const delays = this.#o.retryLaterMs ?? DEFAULT_RETRY_LATER_MS;
    if (tries >= delays.length) {
      this.#stalled++;
      // Released, its lease gone: without the skip this worker's next look for items to take
      // over would find it again and run the schedule anew, for ever, instead of ending.
      this.#gaveUp.add(item.id);
      await this.#o.store.releaseItem(item.batchId, item.id, this.#lease().workerId, item.fence);
      this.#o.onEvent?.({ type: 'warning', message: `item ${item.id}: gave up for now (${reason}); resume later` });
      return;
    }
    const delayMs = delays[tries] ?? 60_000;
    const fresh = (await this.#o.store.getItem(item.batchId, item.id)) ?? item;
    if (fresh.owner !== item.owner || fresh.fence !== item.fence) {
      // Claimed by another worker while this one failed: its driver is the item's now.
      this.#o.onEvent?.({ type: 'warning', message: `item ${item.id} was claimed by ${fresh.owner ?? 'no worker'} meanwhile: this worker stopped driving it` });
      return;
    }
    this.#later.set(item.id, { at: this.#clock.now() + delayMs, tries: tries + 1, item: fresh });
    this.#o.onEvent?.({ type: 'retry-later', id: item.id, delayMs, reason });
  }

  #setFatal(err: unknown): void {
    this.#fatal ??= err instanceof Error ? err : new Error(String(err));
    this.#abort.abort();
    this.#wake();
  }
}

