import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  systemClock
} from "./chunk-64FYAIQV.mjs";
import {
  isStoreFault
} from "./chunk-7GICCHH3.mjs";
import {
  classifyFailure,
  isLocalFault
} from "./chunk-YHPNXTWT.mjs";
import {
  ApiError
} from "./chunk-CZMGSLWJ.mjs";
import {
  isGoneHere,
  processStart
} from "./chunk-IVI4HKH5.mjs";
import {
  isTerminal
} from "./chunk-MH23QIYG.mjs";
import {
  LeaseLostError,
  ResqError
} from "./chunk-4EMWZ36I.mjs";

// src/runner/error-kind.ts
function errorKind(err, signal) {
  const v = classifyFailure({ error: err, aborted: signal.aborted, request: "submit", idempotent: true });
  switch (v.action) {
    case "abort":
      return "aborted";
    case "stop":
      return "fatal";
    case "retry":
    case "unknown":
      return "transient";
    case "fail":
    case "gone":
      return "permanent";
    case "bug":
      return "bug";
  }
}
function errorCodeOf(err, kind) {
  if (err instanceof ApiError) return err.apiCode ?? `http_${err.status}`;
  if (kind === "bug") return "internal";
  return err instanceof ResqError ? err.code : "internal";
}

// src/runner/scheduler.ts
import { hostname } from "node:os";

// src/runner/adaptive-cap.ts
var AdaptiveCap = class {
  max;
  #current;
  #credit = 0;
  #lastCut = -Infinity;
  #coolDownMs;
  constructor(max, coolDownMs = 1e3) {
    this.max = Math.max(1, Math.floor(max));
    this.#current = this.max;
    this.#coolDownMs = coolDownMs;
  }
  /** The cap now. */
  get current() {
    return this.#current;
  }
  /** The service said too many (429): halve the cap, once per cool-down. Returns whether it moved. */
  throttled(now) {
    if (now - this.#lastCut < this.#coolDownMs || this.#current === 1) return false;
    this.#lastCut = now;
    this.#current = Math.max(1, Math.floor(this.#current / 2));
    this.#credit = 0;
    return true;
  }
  /** An admission went through: creep back towards the maximum. */
  /** Takes a lower cap another worker of the batch set (after its own 429s). Returns whether it changed. */
  lowerTo(cap) {
    const n = Math.max(1, Math.min(this.max, Math.floor(cap)));
    if (n >= this.#current) return false;
    this.#current = n;
    this.#credit = 0;
    return true;
  }
  admitted() {
    if (this.#current >= this.max) return;
    this.#credit += 1;
    if (this.#credit >= this.#current) {
      this.#credit = 0;
      this.#current += 1;
    }
  }
};

// src/runner/batch-cap.ts
var GATHER_MS_PER_SLOT = 0.01;
var GATHER_MS_MAX = 100;
var BatchCap = class {
  #cap;
  /** What this machine fits: this worker's alone, never stored (another machine may fit more). */
  #local;
  #store;
  #batchId;
  #onChange;
  /** Live workers of the batch, this one included (from the last heartbeat). */
  workers = 1;
  /** The batch's stored cap limit as this worker last saw or wrote it. */
  #seen = null;
  /** `local`: most runs in flight this machine fits. @default o.cap */
  constructor(o) {
    this.#cap = new AdaptiveCap(o.cap);
    this.#local = new AdaptiveCap(o.local ?? o.cap);
    this.#store = o.store;
    this.#batchId = o.batchId;
    this.#onChange = o.onChange;
  }
  /** The batch's cap now. */
  get current() {
    return this.#cap.current;
  }
  /** This worker's share of the cap (a dead worker's share passes to the others once its heartbeat is stale). */
  get share() {
    return Math.max(1, Math.min(this.#local.current, Math.ceil(this.#cap.current / this.workers)));
  }
  /** How long a freed slot may wait to be claimed with others. */
  get gatherMs() {
    return Math.min(GATHER_MS_MAX, this.share * GATHER_MS_PER_SLOT);
  }
  /** The fewest free slots worth a claim of their own before {@link gatherMs} has passed. */
  get gather() {
    return Math.max(1, Math.floor(this.share / 64));
  }
  /** The service admitted a request: the cap recovers by one slot per cap's worth of admissions. */
  admitted() {
    this.#cap.admitted();
    this.#local.admitted();
  }
  /** This machine ran short (EMFILE, ENOMEM, …) although the runs fit: this worker's share halves for a while; nothing is stored. */
  localFault(now) {
    this.#local.throttled(now);
  }
  /** The service throttled an admission (HTTP 429): the cap halves, for every worker of the batch. */
  throttled(now) {
    if (!this.#cap.throttled(now)) return;
    this.#onChange(this.#cap.current, "HTTP 429 from the service");
    this.#seen = this.#cap.current;
    this.#store.setCapLimit(this.#batchId, this.#cap.current).catch(() => {
    });
  }
  /**
   * At a heartbeat: a lower cap another worker set after its 429s is taken here, and this
   * worker's recovery raises the batch's again, lifting it at the full concurrency. Only a
   * 429 lowers it.
   */
  async sync(limit) {
    if (limit === null) {
      this.#seen = null;
      return;
    }
    if (limit !== this.#seen && limit < this.#cap.current) {
      this.#seen = limit;
      this.#cap.lowerTo(limit);
      this.#onChange(this.#cap.current, "lowered by another worker of the batch (HTTP 429)");
    } else if (this.#cap.current > limit) {
      const next = this.#cap.current >= this.#cap.max ? null : this.#cap.current;
      await this.#store.setCapLimit(this.#batchId, next);
      this.#seen = next;
    } else this.#seen = limit;
  }
};

// src/runner/item-slot.ts
var ItemSlot = class {
  signal;
  fresh;
  #host;
  #itemId;
  /** A thread's next item follows this one in its slot, so thread items hold theirs to the end. */
  #holdToEnd;
  #released = false;
  /** Released when its run ended, before its outcome was stored. */
  #early = false;
  /** Its run, taken over, is being read again (counted by the host until found going or the drive ends). */
  #rereading = false;
  constructor(host, item, signal, fresh) {
    this.#host = host;
    this.#itemId = item.id;
    this.#holdToEnd = Boolean(item.threadKey);
    this.signal = signal;
    this.fresh = fresh;
  }
  /** Whether the slot went early (its item is among the ended ones whose outcome is not stored yet). */
  get early() {
    return this.#early;
  }
  admitted() {
    this.#host.admitted();
  }
  /**
   * The item's run has ended at the service but its outcome is not stored yet: the next
   * claim may use the slot now (the store counts the item until the outcome is written).
   * A thread item keeps its slot.
   */
  release() {
    if (this.#released || this.#holdToEnd) return;
    this.#early = true;
    this.#host.endedEarly(this.#itemId);
    this.free();
  }
  rereading() {
    if (this.#rereading) return;
    this.#rereading = true;
    this.#host.rereading();
  }
  /** Ends the count of a read again (once); the drive's end calls it too. */
  reread() {
    if (!this.#rereading) return;
    this.#rereading = false;
    this.#host.reread();
  }
  /** Frees the slot (once). */
  free() {
    if (this.#released) return;
    this.#released = true;
    this.#host.freed();
  }
};

// src/runner/scheduler-options.ts
function tryLater(reason) {
  return { tryLater: reason };
}
function isTryLater(end) {
  return typeof end === "object" && end !== null && "tryLater" in end;
}

// src/runner/presence.ts
var Presence = class {
  #store;
  #batch;
  #host;
  #pid;
  #pidStart;
  #leaseMs;
  #worker = null;
  /** `pidStart`: the start identity of process `pid` (read from the system when not given). */
  constructor(o) {
    this.#store = o.store;
    this.#batch = o.batch;
    this.#host = o.host;
    this.#pid = o.pid;
    this.#pidStart = o.pidStart !== void 0 ? o.pidStart : processStart(o.pid);
    this.#leaseMs = o.leaseMs;
  }
  /** This worker (after {@link register}). */
  get worker() {
    if (!this.#worker) throw new Error("worker not registered");
    return this.#worker;
  }
  /** The lease this worker claims with. */
  get lease() {
    return { workerId: this.worker.id, leaseMs: this.#leaseMs };
  }
  /** Registers; returns the other live workers (after giving up dead local ones). */
  async register(now) {
    this.#worker = await this.#store.registerWorker(this.#batch.id, { host: this.#host, pid: this.#pid, pidStart: this.#pidStart }, now);
    await this.reapDeadLocal(now);
    return (await this.#store.liveWorkers(this.#batch.id, this.#leaseMs, now)).filter((w) => w.id !== this.worker.id);
  }
  /** Renews the heartbeat and this worker's leases; counts the live workers (see {@link census}). */
  async beat(now) {
    const b = await this.#store.heartbeat(this.lease, now);
    return { ...b, ...await this.census(now) };
  }
  /**
   * Live workers of the batch, this one included, after giving up the workers of this host
   * whose process is gone (`reaped`): run on the scheduler's regular tick, it costs the one
   * read of the live workers it makes anyway, and a look at each local worker's process.
   */
  async census(now) {
    const live = await this.#store.liveWorkers(this.#batch.id, this.#leaseMs, now);
    const reaped = await this.#reap(live, now);
    return { workers: Math.max(1, live.length - reaped), reaped };
  }
  /** Other live workers that hold items. */
  async busyOthers(now) {
    return (await this.#store.liveWorkers(this.#batch.id, this.#leaseMs, now)).filter((w) => w.id !== this.worker.id && w.items > 0);
  }
  /**
   * Workers on this host whose process is gone (killed, crashed) give their items up at
   * once instead of after their lease: a resume right after a kill -9 re-attaches without
   * waiting. Another host's workers are judged by their heartbeat alone. Returns how many.
   */
  async reapDeadLocal(now) {
    return this.#reap(await this.#store.liveWorkers(this.#batch.id, this.#leaseMs, now), now);
  }
  /** Retires the workers of `live` that are gone (see {@link reapDeadLocal}); returns how many. */
  async #reap(live, now) {
    let n = 0;
    for (const w of live) {
      if (!this.#isGone(w)) continue;
      await this.#store.retireWorker(w.id, now);
      n++;
    }
    return n;
  }
  /** Whether another worker of this host is gone (its process ended, or its pid now names another process). */
  #isGone(w) {
    if (w.id === this.worker.id || w.host !== this.#host) return false;
    if (w.pid === this.#pid && (w.pidStart === null || this.#pidStart === null)) return true;
    return isGoneHere(w, this.#host);
  }
  /** Leaves: this worker's leases end now. */
  async retire(now) {
    if (this.#worker) await this.#store.retireWorker(this.#worker.id, now);
  }
};

// src/runner/scheduler.ts
var DEFAULT_LEASE_MS = 3e4;
var DEFAULT_RETRY_LATER_MS = [2e3, 5e3, 15e3, 3e4, 6e4];
var WOKEN = /* @__PURE__ */ Symbol("woken");
var Scheduler = class {
  #o;
  #clock;
  #abort = new AbortController();
  #cap;
  /** Drives in flight (counted, not kept: a promise and its reactions per run in flight would be), and the wait for the last. */
  #drives = 0;
  #drivesOver = null;
  /** The first error a drive could not put anywhere (a failure while recording a failure): run() throws it once the drives are over. */
  #driveError = null;
  /** What every item's slot tells this scheduler (one object for all). */
  #slotHost;
  #later = /* @__PURE__ */ new Map();
  #threads = /* @__PURE__ */ new Map();
  #driving = 0;
  #cursor = -1;
  #sent = 0;
  #stalled = 0;
  /** Items this worker gave up on and released for a resume: never taken over again by it. */
  #gaveUp = /* @__PURE__ */ new Set();
  #fatal = null;
  #cancelled = false;
  #wakeSleep = null;
  /** Set by a wake that came while the loop was busy: its next sleep is skipped. */
  #kicked = false;
  #presence = null;
  #orphanScanAt = -Infinity;
  #claimedAt = -Infinity;
  /** A claim was put off to gather more free slots: the loop comes back within the cap's gatherMs. */
  #claimDue = false;
  /** Items whose run ended at the service and whose outcome is being stored (their slots are free). */
  #ended = /* @__PURE__ */ new Set();
  /** The last claim found fewer items than free slots: the queue is dry for now. */
  #dry = false;
  /** Runs taken over being read again at the service: no new claims until they are all read. */
  #rereading = 0;
  /** This scheduler's part in slots shared with another batch of this process (its agent judge's). */
  #shared;
  /** The last look for work found slots of its own but none left by the shared ones: work waits, this worker stays. */
  #sharedFull = false;
  constructor(o) {
    this.#o = o;
    this.#clock = o.clock ?? systemClock;
    this.#cap = new BatchCap({ cap: o.cap, ...o.localCap !== void 0 ? { local: o.localCap } : {}, store: o.store, batchId: o.batch.id, onChange: (cap, reason) => o.onEvent?.({ type: "cap", cap, reason }) });
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
      }
    };
    this.#shared = o.slots?.join({ first: o.slotsFirst ?? false, inFlight: () => this.inFlight, wake: () => this.#wake() }) ?? null;
  }
  /**
   * Slots this worker fills now, at most `max`: its share of the batch's cap, and of slots
   * shared with another batch what those leave it, taken until {@link #settle} (the other
   * batch's claim meanwhile cannot have them).
   */
  #take(max = Infinity) {
    const own = Math.min(max, this.#cap.share - this.inFlight);
    if (!this.#shared) return own;
    const taken = own > 0 ? this.#shared.take(own) : 0;
    this.#sharedFull = own > 0 && taken <= 0;
    return taken;
  }
  /** A claim for `taken` slots is over, `got` items started (they count as in flight now). */
  #settle(taken, got, dry) {
    this.#shared?.settle(taken, got, dry);
  }
  /** This worker's share of the batch's cap. */
  get share() {
    return this.#cap.share;
  }
  get #leaseMs() {
    return this.#o.leaseMs ?? DEFAULT_LEASE_MS;
  }
  /** This worker, once registered. */
  get worker() {
    return this.#presence?.worker ?? null;
  }
  /** Items driven now (a slot each), and items waiting to be retried (they keep theirs). */
  get inFlight() {
    return this.#driving + this.#later.size;
  }
  get cap() {
    return this.#cap.current;
  }
  /** Stops admitting and aborts requests in flight (their state is stored); run() then returns. */
  stop() {
    this.#abort.abort();
    this.#wake();
  }
  /** Wakes the loop at once (a person answered an item, a slot came free). */
  wake() {
    this.#wake();
  }
  /** This process added `n` items to the batch: claimed first from shared slots, else looked for at once. */
  more(n) {
    if (this.#shared) this.#shared.want(n);
    else this.#wake();
  }
  /**
   * A slot came free: the loop looks for work, unless runs taken over are still being read
   * again (no claim until the last, whose reread wakes it; ten thousand resumed runs would
   * otherwise turn the loop ten thousand times for nothing).
   */
  #slotFreed() {
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
  #gathering() {
    return this.#claimDue && this.#driving > 0 && this.#threads.size === 0 && !this.#shared && (this.#dry || this.#cap.share - this.inFlight < this.#cap.gather);
  }
  /** Ends the loop's sleep now, or, when it is busy, skips its next one. */
  #wake() {
    if (this.#wakeSleep) this.#wakeSleep();
    else this.#kicked = true;
  }
  /** The service throttled an admission (HTTP 429): the cap halves, for every worker of the batch. */
  throttled() {
    this.#cap.throttled(this.#clock.now());
  }
  async run() {
    const { store, batch } = this.#o;
    const signal = this.#abort.signal;
    const presence = new Presence({ store, batch, host: this.#o.host ?? hostname(), pid: this.#o.pid ?? process.pid, leaseMs: this.#leaseMs });
    this.#presence = presence;
    const others = await presence.register(this.#storeNow());
    this.#cap.workers = others.length + 1;
    this.#o.onEvent?.({ type: "joined", worker: presence.worker, others });
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
        } else if (now - lastCount >= (this.#o.pollMs ?? 1e3)) {
          lastCount = now;
          const census = await presence.census(this.#storeNow());
          this.#cap.workers = census.workers;
          if (census.reaped > 0) this.#orphanScanAt = -Infinity;
        }
        if (signal.aborted) break;
        const got = await this.#continueThreads() + await this.#claim();
        this.#retryDue();
        if (got > 0) {
          rescanned = false;
          lastLook = false;
          continue;
        }
        if (this.#driving === 0 && this.#later.size === 0 && !this.#sharedFull && this.#rereading === 0) {
          if (!rescanned && this.#cursor !== -1) {
            this.#cursor = -1;
            rescanned = true;
            continue;
          }
          const stay = !this.#cancelled && this.#o.stayWhile?.() === true;
          const busy = stay ? [] : await presence.busyOthers(this.#storeNow());
          if (!stay && (busy.length === 0 || this.#o.wait === false || this.#cancelled)) {
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
            this.#o.onEvent?.({ type: "waiting-for-workers", inFlight, workers: busy });
          }
        }
        this.#o.onEvent?.({ type: "tick", inFlight: this.inFlight, cap: this.#cap.current });
        const pollMs = announcedWait ? Math.min(250, this.#o.pollMs ?? 1e3) : this.#o.pollMs ?? 1e3;
        await this.#sleep(Math.min(this.#claimDue ? this.#cap.gatherMs : pollMs, this.#nextLaterIn()));
        rescanned = false;
      }
    } catch (e) {
      if (!isStoreFault(e)) throw e;
      this.#setFatal(e);
    }
    while (this.#drives > 0) await new Promise((resolve) => this.#drivesOver = resolve);
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
  #storeNow() {
    return this.#clock === systemClock ? void 0 : this.#clock.now();
  }
  #lease() {
    return this.#presence.lease;
  }
  #cancel() {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#o.onEvent?.({ type: "cancelled" });
  }
  /** Claims up to the free local slots; returns how many items it started. */
  async #claim() {
    if (this.#cancelled || this.#abort.signal.aborted) {
      this.#sharedFull = false;
      return 0;
    }
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
  async #claimFor(free) {
    const wait = free < this.#cap.gather || this.#dry && this.#driving > 0;
    if (wait && this.#clock.now() - this.#claimedAt < this.#cap.gatherMs) {
      this.#claimDue = true;
      return { got: 0, dry: false };
    }
    this.#claimDue = false;
    this.#claimedAt = this.#clock.now();
    const left = this.#o.limit === void 0 ? Infinity : this.#o.limit - this.#sent;
    const now = this.#clock.now();
    const scan = now - this.#orphanScanAt >= (this.#o.pollMs ?? 1e3);
    if (scan) this.#orphanScanAt = now;
    const claim = await this.#o.store.claimItems(
      this.#o.batch.id,
      { ...this.#lease(), max: free, cap: this.#cap.current, afterSeq: this.#cursor, maxQueued: Math.max(0, left), takeOver: scan ? this.#o.takeOver : [], ended: [...this.#ended], skip: [...this.#gaveUp] },
      this.#storeNow()
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
  async #continueThreads() {
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
  #retryDue() {
    const now = this.#clock.now();
    for (const [id, v] of this.#later) {
      if (v.at > now || this.#abort.signal.aborted) continue;
      this.#later.delete(id);
      this.#start(v.item, v.tries);
    }
  }
  #nextLaterIn() {
    let soonest = Infinity;
    const now = this.#clock.now();
    for (const v of this.#later.values()) soonest = Math.min(soonest, v.at - now);
    return Math.max(1, soonest);
  }
  #sleep(ms) {
    const wake = new AbortController();
    if (this.#kicked) {
      this.#kicked = false;
      return Promise.resolve();
    }
    this.#wakeSleep = () => {
      this.#wakeSleep = null;
      wake.abort(WOKEN);
    };
    return this.#clock.sleep(ms, wake.signal).finally(() => {
      this.#wakeSleep = null;
    });
  }
  #start(item, tries = 0, fresh = false) {
    this.#driving++;
    this.#drives++;
    void this.#drive(item, tries, fresh);
  }
  async #drive(item, tries, fresh) {
    const ctx = new ItemSlot(this.#slotHost, item, this.#abort.signal, fresh);
    try {
      const end = await this.#o.step(item, ctx);
      if (isTryLater(end)) await this.#retryLater(item, tries, end.tryLater);
      else if (end) {
        this.#o.onLeave?.(end);
        if (end.threadKey && isTerminal(end.state)) this.#threads.set(end.threadKey, end.seq);
      }
    } catch (err) {
      await this.#failed(item, err, tries).catch((e) => void (this.#driveError ??= { error: e }));
    } finally {
      const early = ctx.early;
      if (early) this.#ended.delete(item.id);
      ctx.reread();
      ctx.free();
      if (early) this.#slotFreed();
      if (--this.#drives === 0) this.#drivesOver?.();
    }
  }
  async #failed(item, err, tries) {
    const signal = this.#abort.signal;
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof LeaseLostError) {
      this.#o.onEvent?.({ type: "warning", message: `${message}: this worker stopped driving it` });
      return;
    }
    if (isStoreFault(err)) return this.#setFatal(err);
    const kind = this.#o.classify(err, signal);
    switch (kind) {
      case "aborted":
        return;
      case "fatal":
        return this.#setFatal(err);
      case "permanent":
      case "bug": {
        try {
          await this.#o.markError(item, kind === "bug" ? `internal error: ${message}` : message, errorCodeOf(err, kind));
        } catch (e) {
          if (!(e instanceof LeaseLostError)) throw e;
          this.#o.onEvent?.({ type: "warning", message: `${e.message}: this worker stopped driving it` });
          return;
        }
        const now = await this.#o.store.getItem(item.batchId, item.id);
        if (now) {
          this.#o.onLeave?.(now);
          if (now.threadKey) this.#threads.set(now.threadKey, now.seq);
        }
        return;
      }
      case "transient":
        if (isLocalFault(err)) this.#cap.localFault(this.#clock.now());
        return this.#retryLater(item, tries, message);
    }
  }
  /** Tries the item again after the next delay of the retry-later schedule, or leaves it for a resume once the schedule is spent. */
  async #retryLater(item, tries, reason) {
    const delays = this.#o.retryLaterMs ?? DEFAULT_RETRY_LATER_MS;
    if (tries >= delays.length) {
      this.#stalled++;
      this.#gaveUp.add(item.id);
      await this.#o.store.releaseItem(item.batchId, item.id, this.#lease().workerId, item.fence);
      this.#o.onEvent?.({ type: "warning", message: `item ${item.id}: gave up for now (${reason}); resume later` });
      return;
    }
    const delayMs = delays[tries] ?? 6e4;
    const fresh = await this.#o.store.getItem(item.batchId, item.id) ?? item;
    if (fresh.owner !== item.owner || fresh.fence !== item.fence) {
      this.#o.onEvent?.({ type: "warning", message: `item ${item.id} was claimed by ${fresh.owner ?? "no worker"} meanwhile: this worker stopped driving it` });
      return;
    }
    this.#later.set(item.id, { at: this.#clock.now() + delayMs, tries: tries + 1, item: fresh });
    this.#o.onEvent?.({ type: "retry-later", id: item.id, delayMs, reason });
  }
  #setFatal(err) {
    this.#fatal ??= err instanceof Error ? err : new Error(String(err));
    this.#abort.abort();
    this.#wake();
  }
};

// src/runner/state-tally.ts
var StateTally = class {
  #counts;
  #known = /* @__PURE__ */ new Map();
  constructor(initial) {
    this.#counts = { ...initial };
  }
  /** The counts now (a copy). */
  get counts() {
    return { ...this.#counts };
  }
  /** Remembers the state an item was in when the runner took it. */
  track(id, state) {
    this.#known.set(id, state);
  }
  /** Forgets an item the runner let go. */
  untrack(id) {
    this.#known.delete(id);
  }
  /** Moves a tracked item to a new state. */
  move(id, to) {
    const from = this.#known.get(id);
    if (from === void 0 || from === to) return;
    this.#counts[from] = Math.max(0, this.#counts[from] - 1);
    this.#counts[to] += 1;
    this.#known.set(id, to);
  }
  /** Replaces the counts with a fresh reading from the store. */
  reset(counts) {
    this.#counts = { ...counts };
  }
};

export {
  errorKind,
  tryLater,
  isTryLater,
  Scheduler,
  StateTally
};
//# sourceMappingURL=chunk-TLQTFDDA.mjs.map
