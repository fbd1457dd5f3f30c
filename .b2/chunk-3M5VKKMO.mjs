import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  decide
} from "./chunk-SYF23C3W.mjs";
import {
  Scheduler,
  StateTally,
  errorKind
} from "./chunk-TLQTFDDA.mjs";
import {
  isRunFailure,
  isRunFinished,
  isSaneServiceTime
} from "./chunk-HDST666U.mjs";
import {
  systemClock
} from "./chunk-64FYAIQV.mjs";
import {
  idempotencyKey
} from "./chunk-Q6TQJGNT.mjs";
import {
  RATE_WINDOW,
  etaSeconds,
  forPersonBehindThreads,
  ratePerSecond,
  unfinishedOf
} from "./chunk-244VYD4W.mjs";

// src/runner/drive-context.ts
var ItemDriveContext = class {
  #shared;
  #step;
  constructor(shared, step) {
    this.#shared = shared;
    this.#step = step;
  }
  get store() {
    return this.#shared.store;
  }
  get client() {
    return this.#shared.client;
  }
  get batch() {
    return this.#shared.batch;
  }
  get policy() {
    return this.#shared.policy;
  }
  get follow() {
    return this.#shared.follow;
  }
  get signal() {
    return this.#step.signal;
  }
  emit(e) {
    this.#shared.emit(e);
  }
  get scoreCompleted() {
    return this.#shared.scoreCompleted;
  }
  admitted() {
    this.#step.admitted();
  }
  release() {
    this.#step.release();
  }
  rereading() {
    this.#step.rereading();
  }
  reread() {
    this.#step.reread();
  }
};

// src/runner/run-snapshot.ts
function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
function fileRefs(run) {
  const results = run.output?.tool_results;
  if (!Array.isArray(results)) return [];
  const out = [];
  for (const r of results) {
    if (!isObject(r) || !Array.isArray(r.files)) continue;
    for (const f of r.files) {
      if (!isObject(f) || typeof f.id !== "string" || typeof f.url !== "string") continue;
      out.push({
        id: f.id,
        url: f.url,
        role: typeof f.role === "string" ? f.role : null,
        name: typeof f.name === "string" ? f.name : null,
        tool: typeof r.tool === "string" ? r.tool : null
      });
    }
  }
  return out;
}
function runError(run) {
  const e = run.error;
  if (e === void 0 || e === null || e === "") return null;
  if (typeof e === "string") return { code: null, message: e };
  if (isObject(e)) {
    const code = typeof e.code === "string" && e.code !== "" ? e.code : null;
    if (typeof e.message === "string" && e.message !== "") return { code, message: e.message };
    return { code, message: code ?? JSON.stringify(e) };
  }
  return { code: null, message: JSON.stringify(e) };
}
var LONGEST_RUN_MS = 366 * 864e5;
function serviceSeconds(run) {
  const start = run.created_at;
  const end = [run.finished_at, run.completed_at, run.updated_at].find(isSaneServiceTime);
  if (!isSaneServiceTime(start) || end === void 0) return null;
  const ms = Date.parse(end) - Date.parse(start);
  return ms >= 0 && ms <= LONGEST_RUN_MS ? ms / 1e3 : null;
}
function toSnapshot(run, unwatched = false) {
  const ra = run.required_action;
  const output = run.output;
  return {
    id: run.id,
    status: run.status,
    threadId: run.thread_id ?? null,
    createdAt: typeof run.created_at === "string" ? run.created_at : null,
    requiredAction: ra ? { tool: ra.tool, input: isObject(ra.input) ? ra.input : {} } : null,
    output: output ? {
      text: typeof output.text === "string" ? output.text : "",
      tool_results: Array.isArray(output.tool_results) ? output.tool_results : []
    } : null,
    files: fileRefs(run),
    error: runError(run),
    serviceSeconds: isRunFinished(run) ? serviceSeconds(run) : null,
    unwatched
  };
}

// src/runner/item-driver.ts
var yieldToIo = () => nextTurn ??= new Promise(
  (resolve) => setImmediate(() => {
    nextTurn = null;
    setImmediate(resolve);
  })
);
var nextTurn = null;
async function readTakenOver(ctx, runId) {
  ctx.rereading();
  const run = await ctx.client.getRun(runId, { signal: ctx.signal });
  if (isRunFinished(run)) return run;
  ctx.reread();
  return null;
}
async function driveItem(ctx, start) {
  let item = start;
  const { store, client, signal } = ctx;
  let startedHere = false;
  for (; ; ) {
    signal.throwIfAborted();
    switch (item.state) {
      case "submitting": {
        const key = item.pendingKey ?? idempotencyKey(item.batchId, item.id, item.step, item.attempt);
        const body = item.threadId ? { input: item.question, thread_id: item.threadId } : { input: item.question };
        const run = await client.createRun(body, { idempotencyKey: key, signal });
        await yieldToIo();
        item = await store.markAdmitted(item, {
          id: run.id,
          status: run.status,
          threadId: run.thread_id ?? null,
          step: item.step,
          parentRunId: null,
          idempotencyKey: key
        });
        startedHere = true;
        ctx.admitted();
        ctx.emit({ type: "item", id: item.id, state: "running", runId: run.id });
        break;
      }
      case "waiting": {
        if (!item.runId || !item.pendingKey || !item.pendingAnswer)
          throw new Error(`item ${item.id} is waiting without a run, key or answer`);
        const parent = item.runId;
        const run = await client.respond(parent, item.pendingAnswer, { idempotencyKey: item.pendingKey, signal });
        item = await store.markAdmitted(item, {
          id: run.id,
          status: run.status,
          threadId: run.thread_id ?? null,
          step: item.step,
          parentRunId: parent,
          idempotencyKey: item.pendingKey
        });
        startedHere = true;
        ctx.emit({ type: "item", id: item.id, state: "running", runId: run.id, detail: "answered" });
        break;
      }
      case "running": {
        if (!item.runId) throw new Error(`item ${item.id} is running without a run id`);
        const ended = startedHere ? null : await readTakenOver(ctx, item.runId);
        const run = ended ?? await client.followRun(item.runId, { mode: ctx.follow, signal });
        const snap = toSnapshot(run, ended !== null);
        startedHere = true;
        if (run.status === "requires_action" && snap.requiredAction) {
          const action = snap.requiredAction;
          const nextKey = idempotencyKey(item.batchId, item.id, item.step + 1, item.attempt);
          const paused = await store.markPaused(item, snap, (approvedCost) => {
            const d = decide(ctx.policy, action, { approvedCost });
            return d.kind === "answer" ? {
              kind: "answer",
              nextKey,
              decision: {
                runId: run.id,
                tool: action.tool,
                input: action.input,
                answer: d.answer,
                by: "policy",
                reason: d.reason,
                cost: d.cost
              }
            } : { kind: "hold", reason: d.reason };
          });
          const outcome = paused.outcome;
          item = paused.item;
          ctx.emit({
            type: "decision",
            id: item.id,
            tool: action.tool,
            by: "policy",
            answer: outcome.kind === "answer" ? outcome.decision.answer : null,
            reason: outcome.kind === "answer" ? outcome.decision.reason ?? "" : outcome.reason
          });
          ctx.emit({ type: "item", id: item.id, state: outcome.kind === "answer" ? "waiting" : "held", runId: run.id });
        } else {
          const state = run.status === "cancelled" ? "cancelled" : isRunFailure(run.status) ? "failed" : "completed";
          ctx.release();
          await yieldToIo();
          item = await store.markFinished(item, snap, state);
          ctx.emit({ type: "item", id: item.id, state, runId: run.id, detail: run.status });
          if (state === "completed") await ctx.scoreCompleted?.(item);
        }
        break;
      }
      default:
        return item;
    }
  }
}

// src/runner/batch-runner.ts
var TALLY_REREAD_MS = 5e3;
var PROGRESS_EVERY_MS = 200;
var BatchRunner = class {
  #o;
  #scheduler;
  #tally = null;
  #tallyReadAt = 0;
  /** The batch's rate over its latest ended items, re-read with the counts (null until two ended). */
  #rate = null;
  /** Queued items behind a held item of their thread (the ETA leaves them out), re-read when the held count changes. */
  #forPerson = 0;
  #forPersonAtHeld = 0;
  #progressAt = -Infinity;
  /** The wait for the last progress of a burst; aborted at the end. */
  #progressLater = null;
  /** A progress is being read (its counts); another asked for meanwhile follows it. */
  #progressBusy = false;
  #progressAgain = false;
  #ended = false;
  #clock;
  constructor(o) {
    this.#o = o;
    this.#clock = o.clock ?? systemClock;
    const shared = {
      store: o.store,
      client: o.client,
      batch: o.batch,
      policy: o.policy,
      follow: o.follow ?? o.batch.settings.follow,
      emit: (e) => this.#emit(e),
      scoreCompleted: o.scoreCompleted
    };
    this.#scheduler = new Scheduler({
      store: o.store,
      batch: o.batch,
      cap: o.concurrency ?? o.batch.settings.concurrency,
      ...o.localCap !== void 0 ? { localCap: o.localCap } : {},
      step: (item, ctx) => {
        this.#tally?.track(item.id, item.state);
        return driveItem(new ItemDriveContext(shared, ctx), item);
      },
      classify: errorKind,
      markError: async (item, message, code) => {
        const end = await o.store.markError(item.batchId, item.id, message, code ?? null, item);
        this.#emit({ type: "item", id: item.id, state: "error", runId: end?.runId ?? item.runId, detail: message });
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
      ...o.slots ? { slots: o.slots, slotsFirst: o.slotsFirst ?? false } : {},
      ...o.stayWhile ? { stayWhile: o.stayWhile } : {}
    });
  }
  #emit(e) {
    if (e.type === "item") this.#tally?.move(e.id, e.state);
    this.#o.onEvent?.(e);
  }
  #onScheduler(e) {
    switch (e.type) {
      case "retry-later":
      case "warning":
      case "cap":
        return this.#o.onEvent?.(e);
      case "joined":
        return this.#o.onEvent?.({ type: "joined", workerId: e.worker.id, others: e.others.map((w) => ({ id: w.id, host: w.host, pid: w.pid })) });
      case "waiting-for-workers":
        return this.#o.onEvent?.({ type: "waiting", inFlight: e.inFlight, workers: e.workers.map((w) => ({ id: w.id, host: w.host, pid: w.pid })) });
      case "cancelled":
        return this.#o.onEvent?.({ type: "warning", message: `batch ${this.#o.batch.name} was cancelled: nothing more is sent` });
      case "tick":
        void this.#progress();
    }
  }
  /** Counts by state for progress: kept in memory, re-read from the store every few seconds. */
  async #counts() {
    const now = this.#clock.now();
    if (!this.#tally || now - this.#tallyReadAt > TALLY_REREAD_MS) {
      this.#tallyReadAt = now;
      const [fresh, recent] = await Promise.all([this.#o.store.itemCounts(this.#o.batch.id), this.#o.store.recentFinishes(this.#o.batch.id, RATE_WINDOW)]);
      this.#rate = ratePerSecond(recent);
      if (this.#tally) this.#tally.reset(fresh);
      else this.#tally = new StateTally(fresh);
    }
    const counts = this.#tally.counts;
    if (counts.held !== this.#forPersonAtHeld) {
      this.#forPersonAtHeld = counts.held;
      this.#forPerson = counts.held === 0 ? 0 : forPersonBehindThreads(await this.#o.store.threadWaits(this.#o.batch.id, 0, { heldOnly: true }));
    }
    return counts;
  }
  async #progress() {
    if (this.#ended) return;
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
      this.#progressAt = this.#clock.now();
      const rate = this.#rate === null ? null : Number(this.#rate.toFixed(3));
      const etaLeavesOut = Math.min(this.#forPerson, unfinishedOf(counts));
      const etaS = etaSeconds(this.#rate, unfinishedOf(counts), true, etaLeavesOut);
      this.#o.onEvent?.({ type: "progress", counts, inFlight: this.#scheduler.inFlight, cap: this.#scheduler.cap, total: this.#o.batch.totalItems, ratePerS: rate, etaS, etaLeavesOut });
    } catch {
    } finally {
      this.#progressBusy = false;
      if (this.#progressAgain) {
        this.#progressAgain = false;
        void this.#progress();
      }
    }
  }
  /** Stops admitting, aborts in-flight requests (their state is already stored) and lets run() return. */
  stop() {
    this.#scheduler.stop();
  }
  /** This worker's share of the batch's cap (the most runs in flight it starts). */
  get share() {
    return this.#scheduler.share;
  }
  /** Wakes the runner at once (a person answered an item). */
  wake() {
    this.#scheduler.wake();
  }
  /** This process appended `n` items to the batch while it runs (an agent judge's judgings): they are claimed at once, first from shared slots. */
  more(n) {
    this.#scheduler.more(n);
  }
  /** Tells the runner the service throttled an admission (HTTP 429): the cap halves. */
  throttled() {
    this.#scheduler.throttled();
  }
  /** Runs until nothing is left for this worker (or stop() is called). */
  async run() {
    const { store, batch } = this.#o;
    this.#ended = false;
    await this.#redecideHeld();
    const counts = await this.#counts();
    const resumed = counts.submitting + counts.running + counts.waiting;
    this.#o.onEvent?.({ type: "start", batch: batch.name, batchId: batch.id, total: batch.totalItems, counts, resumed });
    const stopListening = store.onAnswered?.(batch.id, () => this.#scheduler.wake());
    const stopThrottle = this.#o.client.onThrottle((e) => e.admission && this.throttled());
    let r;
    try {
      r = await this.#scheduler.run();
    } finally {
      stopListening?.();
      stopThrottle();
      this.#progressLater?.abort();
      this.#progressLater = null;
      this.#ended = true;
    }
    const end = await store.itemCounts(batch.id);
    this.#o.onEvent?.({ type: "end", counts: end, interrupted: r.interrupted, stalled: r.stalled, fatal: r.fatal?.message ?? null });
    return { counts: end, interrupted: r.interrupted, cancelled: r.cancelled, stalled: r.stalled, fatal: r.fatal };
  }
  /**
   * Held items get a second look under the policy this run was given: a batch resumed
   * with a more generous policy answers what the old one held. Each in one transaction.
   */
  async #redecideHeld() {
    const { store, batch, policy } = this.#o;
    if (!policy) return;
    for (const it of await store.listItems(batch.id, { states: ["held"] })) {
      const run = it.runId ? await store.getRun(it.runId) : null;
      const action = run?.requiredAction;
      if (!run || !action) continue;
      const nextKey = idempotencyKey(batch.id, it.id, it.step + 1, it.attempt);
      const outcome = await store.redecideHeld(batch.id, it.id, (approvedCost) => {
        const d = decide(policy, action, { approvedCost });
        return d.kind === "answer" ? { kind: "answer", nextKey, decision: { runId: run.id, tool: action.tool, input: action.input, answer: d.answer, by: "policy", reason: d.reason, cost: d.cost } } : { kind: "hold", reason: d.reason };
      });
      if (outcome.kind === "answer")
        this.#emit({ type: "decision", id: it.id, tool: action.tool, by: "policy", answer: outcome.decision.answer, reason: outcome.decision.reason ?? "" });
    }
  }
};

export {
  BatchRunner
};
//# sourceMappingURL=chunk-3M5VKKMO.mjs.map
