import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  checkUnchanged,
  defaultBatchName
} from "./chunk-CHVFPQGZ.mjs";
import {
  DEFAULT_REQUEST_CONNECTIONS
} from "./chunk-VYH6EALL.mjs";
import {
  notifyOver
} from "./chunk-QFB6ZTTJ.mjs";
import {
  scorersForStore
} from "./chunk-2A6FAXNZ.mjs";
import {
  systemClock
} from "./chunk-64FYAIQV.mjs";
import {
  describeReceivers,
  readBatchStatus
} from "./chunk-244VYD4W.mjs";
import {
  BatchExistsError,
  InputError,
  formatProblem
} from "./chunk-4EMWZ36I.mjs";

// src/runner/shared-slots.ts
var SharedSlots = class {
  #limit;
  #members = /* @__PURE__ */ new Set();
  /** `limit`: the most runs in flight over all members (read at each claim: the cap moves). */
  constructor(limit) {
    this.#limit = limit;
  }
  /** Runs in flight over all members now, and slots taken for claims under way. */
  get inUse() {
    let n = 0;
    for (const m of this.#members) n += m.inFlight() + m.taken;
    return n;
  }
  /** Work the first members wait to start (kept from the others' claims). */
  get #wanted() {
    let n = 0;
    for (const m of this.#members) if (m.first) n += m.wanted;
    return n;
  }
  /**
   * A scheduler takes part: `inFlight` reads its runs in flight (and those waiting to be
   * retried: they keep their slots), `wake` starts its next look for work.
   */
  join(o) {
    const m = new Member(this, o.first ?? false, o.inFlight, o.wake);
    this.#members.add(m);
    return m;
  }
  /** @internal Slots `m` may claim now. */
  freeFor(m) {
    const kept = m.first ? 0 : this.#wanted;
    return Math.max(0, this.#limit() - this.inUse - kept);
  }
  /** @internal A slot of `from` came free, or a first member gave up its wants: the others look again. */
  wakeOthers(from) {
    for (const m of this.#members) if (m !== from) m.wake();
  }
  /** @internal */
  leave(m) {
    this.#members.delete(m);
    this.wakeOthers(m);
  }
};
var Member = class {
  wanted = 0;
  /** Slots taken for claims under way. */
  taken = 0;
  pool;
  first;
  inFlight;
  wake;
  constructor(pool, first, inFlight, wake) {
    this.pool = pool;
    this.first = first;
    this.inFlight = inFlight;
    this.wake = wake;
  }
  free() {
    return this.pool.freeFor(this);
  }
  want(n) {
    if (n <= 0) return;
    this.wanted += n;
    this.wake();
  }
  take(n) {
    const got = Math.max(0, Math.min(n, this.free()));
    this.taken += got;
    return got;
  }
  settle(taken, got, dry) {
    this.taken -= taken;
    if (this.wanted > 0) this.wanted = dry ? 0 : Math.max(0, this.wanted - got);
    if (got < taken) this.pool.wakeOthers(this);
  }
  freed() {
    this.pool.wakeOthers(this);
  }
  leave() {
    this.wanted = 0;
    this.pool.leave(this);
  }
};

// src/runner/batch-overrides.ts
function describePolicy(p) {
  if (p == null) return "none (every pause held)";
  const tools = Object.keys(p);
  return tools.length ? `rules for ${tools.join(", ")}` : "empty";
}
function applyOverrides(batch, o) {
  const was = batch.settings;
  const settings = { ...was, download: { ...was.download } };
  const changes = [];
  if (o.concurrency !== void 0 && o.concurrency !== was.concurrency) {
    changes.push(`concurrency: ${was.concurrency} \u2192 ${o.concurrency}`);
    settings.concurrency = o.concurrency;
  }
  if (o.follow !== void 0 && o.follow !== was.follow) {
    changes.push(`follow: ${was.follow} \u2192 ${o.follow}`);
    settings.follow = o.follow;
  }
  if (o.download === false && was.download.enabled) {
    changes.push("download: on \u2192 off");
    settings.download.enabled = false;
  }
  const notify = o.notify && notifyOver(o.notify, was.notify);
  if (notify !== void 0 && JSON.stringify(notify) !== JSON.stringify(was.notify)) {
    changes.push(`notify: ${describeReceivers(was.notify)} \u2192 ${describeReceivers(notify)}`);
    settings.notify = notify;
  }
  const named = (s) => s?.length ? s.map((x) => x.name).join(", ") : "none";
  const scorers = o.scorers === void 0 ? void 0 : scorersForStore(o.scorers);
  if (scorers !== void 0 && JSON.stringify(scorers) !== JSON.stringify(was.scorers)) {
    changes.push(`scorers: ${named(was.scorers)} \u2192 ${named(scorers)}`);
    settings.scorers = scorers;
  }
  let policy = batch.policy;
  if (o.policy !== void 0 && JSON.stringify(o.policy) !== JSON.stringify(batch.policy)) {
    changes.push(`policy: replaced (was ${describePolicy(batch.policy)}; now ${describePolicy(o.policy)})`);
    policy = o.policy;
  }
  let baseUrl = batch.baseUrl;
  if (o.baseUrl !== void 0 && o.baseUrl !== batch.baseUrl) {
    changes.push(`base URL: ${batch.baseUrl ?? (was.service === "sim" ? "sim" : "(none)")} \u2192 ${o.baseUrl ?? "(none)"}`);
    baseUrl = o.baseUrl;
  }
  return { settings, policy, baseUrl, changes };
}

// src/runner/descriptor-fit.ts
var RESERVED_DESCRIPTORS = 48;
var DESCRIPTORS_PER_RUN = 1;
var CHURN_RUNS_PER_DESCRIPTOR = 16;
function requestDescriptors(runs) {
  return Math.min(runs, DEFAULT_REQUEST_CONNECTIONS);
}
var DESCRIPTORS_PER_DOWNLOAD = 2;
function fitDescriptors(limit, needs) {
  const sides = needs.sameProcess ? 2 : 1;
  const forDownloads = needs.downloads * (DESCRIPTORS_PER_DOWNLOAD + sides - 1);
  const fixed = RESERVED_DESCRIPTORS + forDownloads;
  const need = (runs) => fixed + sides * (runs * DESCRIPTORS_PER_RUN + Math.ceil(runs / CHURN_RUNS_PER_DESCRIPTOR) + requestDescriptors(runs));
  const needed = need(needs.concurrency);
  if (limit === null || needed <= limit) return { concurrency: needs.concurrency, needed, limit, runs: needs.concurrency };
  let lo = 1;
  let hi = needs.concurrency;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (need(mid) <= limit) lo = mid;
    else hi = mid - 1;
  }
  return { concurrency: needs.concurrency, needed, limit, runs: lo };
}
function isLowered(fit) {
  return fit.runs < fit.concurrency;
}

// src/runner/descriptor-limit.ts
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
function readDescriptorLimit() {
  if (process.platform === "win32") return null;
  try {
    return parseProcLimits(readFileSync("/proc/self/limits", "utf8"));
  } catch {
  }
  try {
    return parseUlimit(execFileSync("/bin/sh", ["-c", "ulimit -n"], { encoding: "utf8", timeout: 5e3, stdio: ["ignore", "pipe", "ignore"] }));
  } catch {
    return null;
  }
}
function parseProcLimits(text) {
  const m = /^Max open files\s+(\S+)/m.exec(text);
  return m ? parseUlimit(m[1]) : null;
}
function parseUlimit(text) {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : null;
}

// src/runner/session.ts
async function findBatch(store, o, name) {
  const b = typeof o.batch === "object" ? o.batch : await store.findBatch(name);
  if (b && b.kind !== "runs") throw new InputError(`batch "${b.name}" is a model batch; choose another name with --batch`);
  return b;
}
async function runBatchSession(o) {
  const { store } = o;
  const emit = (e) => o.onEvent?.(e);
  const name = typeof o.batch === "object" ? o.batch.name : o.batch ?? o.source?.name ?? (o.source ? defaultBatchName(o.source.questions) : null);
  if (!name) throw new InputError("give a question set or a batch to run");
  let batch = await findBatch(store, o, name);
  if (!batch && !o.source) throw new InputError(`no batch named "${name}"`);
  if (batch && o.source && !o.source.append) await checkUnchanged(batch, o.source.questions);
  if (batch && !o.source && batch.settings.judgeOf === void 0) await checkUnchanged(batch, batch.sourcePath);
  const planned = batch ? applyOverrides(batch, o.overrides ?? {}) : null;
  const plan = {
    batch,
    name,
    settings: planned?.settings ?? o.source.settings,
    baseUrl: o.overrides?.baseUrl ?? (batch ? batch.baseUrl : o.source.baseUrl)
  };
  const service = o.dryRun ? null : typeof o.service === "function" ? await o.service(plan) : { client: o.service };
  try {
    await service?.check?.();
    const existed = batch !== null;
    const invalid = [];
    if (!batch) {
      try {
        const { loadBatch } = await import("./load-batch-TV32UWTE.mjs");
        const loaded = await loadBatch({ store, ...o.source, name, policy: o.source.policy });
        batch = loaded.batch;
        invalid.push(...loaded.invalid);
        for (const n of loaded.notices) emit({ type: "notice", message: `notice: ${n}` });
      } catch (e) {
        if (!(e instanceof BatchExistsError)) throw e;
        batch = await store.findBatch(name);
        if (!batch) throw e;
      }
    } else if (o.source?.append) {
      const { appendToBatch } = await import("./load-batch-TV32UWTE.mjs");
      const grown = await appendToBatch({ store, batch, questions: o.source.questions, skipInvalid: o.source.skipInvalid ?? false });
      batch = grown.batch;
      invalid.push(...grown.invalid);
      for (const n of grown.notices) emit({ type: "notice", message: `notice: ${n}` });
      emit({ type: "notice", message: `batch ${batch.name}: ${grown.appended} new ${grown.appended === 1 ? "item" : "items"} appended (${grown.kept} unchanged)` });
    }
    for (const p of invalid.slice(0, 20)) emit({ type: "notice", message: `skipped: ${formatProblem(p)}` });
    if (existed && o.source) emit({ type: "notice", message: `resuming batch ${batch.name} (${batch.totalItems} items)` });
    const merged = existed ? applyOverrides(batch, o.overrides ?? {}) : { settings: batch.settings, policy: batch.policy, baseUrl: batch.baseUrl, changes: [] };
    if (merged.changes.length > 0) {
      await store.updateBatchSettings(batch.id, merged.settings, merged.policy, merged.baseUrl);
      batch = await store.findBatch(batch.id) ?? batch;
    }
    for (const c of merged.changes) emit({ type: "notice", message: c });
    const policy = batch.policy ?? null;
    const base = { batch, policy, changes: merged.changes, invalid, existed };
    if (!service) return { ...base, run: null, files: null, judging: null, status: await readBatchStatus(store, batch, { nowMs: systemClock.now(), hint: o.hint }) };
    const { run, files, judging } = await runWorker(o, batch, policy, service, emit);
    return { ...base, run, files, judging, status: await readBatchStatus(store, batch, { nowMs: systemClock.now(), hint: o.hint, limit: o.limit }) };
  } finally {
    await service?.close?.();
  }
}
async function runWorker(o, batch, policy, service, emit) {
  const client = service.client;
  const { BatchRunner } = await import("./batch-runner-DC35FC44.mjs");
  const fit = fitDescriptors(o.descriptorLimit !== void 0 ? o.descriptorLimit : readDescriptorLimit(), {
    concurrency: batch.settings.concurrency,
    downloads: batch.settings.download.enabled ? batch.settings.download.concurrency : 0,
    sameProcess: service.sameProcess ?? false
  });
  if (isLowered(fit)) emit({ type: "descriptors", concurrency: fit.concurrency, needed: fit.needed, limit: fit.limit, runs: fit.runs });
  const downloads = await downloaderFor(o, batch, client, emit);
  downloads?.kick(batch);
  const notifier = batch.settings.notify ? (await import("./worker-3XESASMY.mjs")).startWorkerNotifier(o.store, batch, { ...o.notify, onProblem: (message) => emit({ type: "warning", message }) }) : null;
  const { workerScorers, completedScorer, agentScorers } = await import("./worker-scorers-KM4L7OKT.mjs");
  const scoreLocally = completedScorer(o.store, batch.id, workerScorers(batch.settings.scorers, o.scorers), { onProblem: (message) => emit({ type: "warning", message }) });
  const agents = agentScorers(batch, o.scorers);
  let judge = null;
  const slots = agents.length > 0 ? new SharedSlots(() => runner.share) : null;
  const scoreCompleted = scoreLocally || slots ? async (item) => {
    await scoreLocally?.(item);
    try {
      await judge?.completed(item);
    } catch (e) {
      emit({ type: "warning", message: `item ${item.id}: its judging was not recorded (${e instanceof Error ? e.message : String(e)}); \`resq score\` or a resume judges it` });
    }
  } : null;
  const runner = new BatchRunner({
    ...scoreCompleted ? { scoreCompleted } : {},
    ...slots ? { slots } : {},
    store: o.store,
    client,
    batch,
    policy,
    ...isLowered(fit) ? { localCap: fit.runs } : {},
    ...o.limit !== void 0 ? { limit: o.limit } : {},
    wait: o.wait ?? true,
    ...o.leaseMs !== void 0 ? { leaseMs: o.leaseMs } : {},
    ...o.retryLaterMs !== void 0 ? { retryLaterMs: o.retryLaterMs } : {},
    onEvent: (e) => {
      if (e.type === "item") downloads?.kick(batch);
      emit(e);
    }
  });
  const stop = () => {
    runner.stop();
    judge?.stop();
    downloads?.stop();
  };
  if (o.signal?.aborted) stop();
  o.signal?.addEventListener("abort", stop, { once: true });
  let judged = false;
  try {
    if (slots) {
      const { startJudgeAlongside } = await import("./judge-alongside-FC6RASFL.mjs");
      judge = await startJudgeAlongside({
        store: o.store,
        parent: batch,
        scorers: agents,
        client,
        slots,
        wait: o.wait ?? true,
        ...o.leaseMs !== void 0 ? { leaseMs: o.leaseMs } : {},
        ...o.retryLaterMs !== void 0 ? { retryLaterMs: o.retryLaterMs } : {},
        onEvent: emit
      });
      if (o.signal?.aborted) judge.stop();
    }
    const run = await runner.run();
    if (run.interrupted || run.fatal) downloads?.stop();
    judged = true;
    const judging = judge ? await judge.finish(run.interrupted || run.cancelled || run.fatal !== null || (o.signal?.aborted ?? false)) : null;
    const files = await downloads?.drain() ?? null;
    return { run, files, judging };
  } finally {
    if (!judged) downloads?.stop();
    if (judge && !judged) await judge.finish(true).catch(() => {
    });
    o.signal?.removeEventListener("abort", stop);
    await notifier?.finish(o.notify?.graceMs);
  }
}
async function downloaderFor(o, batch, client, emit) {
  const d = batch.settings.download;
  if (!d.enabled) return null;
  const { Downloader } = await import("./files-EELZJ42A.mjs");
  return new Downloader({
    store: o.store,
    client,
    outDir: o.out ?? d.out ?? "out",
    concurrency: d.concurrency,
    onEvent: (e) => {
      if (e.type === "file-problem") emit({ type: "warning", message: `file ${e.fileId} (item ${e.itemId}): ${e.status}: ${e.reason}` });
    }
  });
}

export {
  runBatchSession
};
//# sourceMappingURL=chunk-I7JJSHCE.mjs.map
