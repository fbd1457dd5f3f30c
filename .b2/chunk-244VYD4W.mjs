import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  isGoneHere
} from "./chunk-IVI4HKH5.mjs";
import {
  readScoreRates
} from "./chunk-DL5UYYIV.mjs";
import {
  FAILED_STATES,
  UNFINISHED_STATES
} from "./chunk-MH23QIYG.mjs";
import {
  formatProblem
} from "./chunk-4EMWZ36I.mjs";
import {
  budgetOf
} from "./chunk-M4QEDMWX.mjs";
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";
import {
  deciderOf
} from "./chunk-F57UOP2X.mjs";
import {
  untrustedCost
} from "./chunk-O4EQ2A5A.mjs";

// src/read/receivers.ts
function describeReceivers(n, commands = []) {
  if (!n) return "none";
  const hosts = n.urls.map((u) => new URL(u).host);
  const where = commands.map((c) => `pid ${c.pid} on ${c.host}`).join(", ");
  const parts = [hosts.length ? `${hosts.length} URL${hosts.length === 1 ? "" : "s"} (${hosts.join(", ")})` : "", where ? `a command on ${where}` : ""].filter(Boolean);
  return `${parts.length ? parts.join(" and ") : "no URL"}, ${n.format}`;
}

// src/read/rate.ts
var RATE_WINDOW = 100;
function coveredMs(intervals, from, to) {
  const cut = intervals.map((i) => ({ start: Math.max(i.start, from), end: Math.min(i.end, to) })).filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  let total = 0;
  let start = -Infinity;
  let end = -Infinity;
  for (const i of cut) {
    if (i.start > end) {
      if (end > start) total += end - start;
      start = i.start;
      end = i.end;
    } else if (i.end > end) end = i.end;
  }
  if (end > start) total += end - start;
  return total;
}
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length === 0 ? 0 : s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
function ratePerSecond(recent) {
  const ends = recent.finishedAt.map((t) => Date.parse(t));
  if (ends.length < 2) return null;
  const runs = recent.runs.map((r) => ({ start: Date.parse(r.createdAt), end: Date.parse(r.finishedAt) }));
  const from = Math.min(...ends);
  const to = Math.max(...ends);
  const busy = coveredMs(runs, from, to);
  if (busy > 0 && busy >= median(runs.map((r) => r.end - r.start))) return (ends.length - 1) / (busy / 1e3);
  const all = coveredMs(runs, -Infinity, Infinity);
  return all > 0 ? ends.length / (all / 1e3) : null;
}
function etaSeconds(rate, unfinished, workerRunning, waitingForPerson = 0) {
  if (unfinished === 0) return 0;
  const left = unfinished - waitingForPerson;
  if (left <= 0 || !workerRunning || rate === null || rate <= 0) return null;
  return Math.ceil(left / rate);
}

// src/read/waits.ts
var WAITING_NAMED = 5;
var FOR_PERSON = ["thread-held", "cancelled", "limit", "no-worker"];
function threadReason(state) {
  return state === "held" ? "thread-held" : state === "queued" ? "thread-queued" : "thread-running";
}
function waitReason(ctx, thread) {
  if (thread?.behindState) return threadReason(thread.behindState);
  if (ctx.cancelled) return "cancelled";
  if (ctx.liveWorkers === 0) return ctx.limit !== void 0 ? "limit" : "no-worker";
  return ctx.inFlight >= ctx.cap ? "cap" : "ready";
}
function behindWords(first) {
  const by = /* @__PURE__ */ new Map();
  for (const w of first) by.set(w.behindId ?? "", [...by.get(w.behindId ?? "") ?? [], w]);
  return [...by.values()].map((ws) => `${ws.map((w) => w.id).join(", ")} wait${ws.length === 1 ? "s" : ""} for ${ws[0].behindId} (${ws[0].behindState}) in thread ${ws[0].threadKey}`).join("; ");
}
function groupHead(reason, n, ctx) {
  switch (reason) {
    case "thread-held":
      return `${n} queued behind held items of their thread`;
    case "thread-running":
      return `${n} queued behind running items of their thread`;
    case "thread-queued":
      return `${n} queued behind earlier queued items of their thread`;
    case "cancelled":
      return `${n} queued in a cancelled batch, not to be sent`;
    case "limit":
      return `${n} queued left by --limit ${ctx.limit}`;
    case "no-worker":
      return `${n} queued with no worker running`;
    case "cap":
      return `${n} queued behind the cap (${ctx.inFlight} in flight of ${ctx.cap})`;
    case "ready":
      return `${n} queued, ready for a worker's next claim`;
  }
}
function groupOf(reason, count, first, ctx) {
  const named = reason.startsWith("thread-") ? behindWords(first) : first.map((w) => w.id).join(", ");
  const more = count > first.length ? ` and ${count - first.length} more` : "";
  return { reason, count, forPerson: FOR_PERSON.includes(reason), first, text: `${groupHead(reason, count, ctx)}${named ? `: ${named}${more}` : ""}` };
}
function waitGroups(queued, firstQueued, threads, ctx) {
  const inThread = new Map(threads.first.map((t) => [t.id, t]));
  const groups = [];
  let behindThread = 0;
  for (const reason of ["thread-held", "thread-running", "thread-queued"]) {
    const count = Object.entries(threads.byState).reduce((n, [state, k]) => threadReason(state) === reason ? n + (k ?? 0) : n, 0);
    behindThread += count;
    const first2 = threads.first.filter((t) => threadReason(t.behindState) === reason).slice(0, WAITING_NAMED);
    if (count > 0) groups.push(groupOf(reason, count, first2, ctx));
  }
  const rest = Math.max(0, queued - behindThread);
  const first = firstQueued.filter((q) => !inThread.has(q.id)).slice(0, WAITING_NAMED).map((q) => ({ id: q.id, threadKey: q.threadKey, behindId: null, behindState: null }));
  if (rest > 0) groups.push(groupOf(waitReason(ctx, null), rest, first.slice(0, rest), ctx));
  return groups;
}
function forPersonBehindThreads(threads) {
  return Object.entries(threads.byState).reduce((n, [state, k]) => FOR_PERSON.includes(threadReason(state)) ? n + (k ?? 0) : n, 0);
}
function forPersonCount(groups) {
  return groups.reduce((n, g) => n + (g.forPerson ? g.count : 0), 0);
}
async function readWaitGroups(store, batch, queued, ctx) {
  if (queued === 0) return [];
  const many = WAITING_NAMED * 4;
  const [firstQueued, threads] = await Promise.all([store.listItems(batch.id, { states: ["queued"], limit: many }), store.threadWaits(batch.id, many)]);
  return waitGroups(queued, firstQueued, threads, ctx);
}
function itemWaitOf(batch, item, thread, ctx, hint = {}) {
  const reason = waitReason(ctx, thread);
  const base = { id: item.id, threadKey: item.threadKey, behindId: thread?.behindId ?? null, behindState: thread?.behindState ?? null, reason, forPerson: FOR_PERSON.includes(reason) };
  const behind = thread ? `behind ${thread.behindId} (${thread.behindState}) in its thread ${thread.threadKey}` : "";
  const see = thread ? commandHint(["resq", "show", batch.name, thread.behindId], hint) : "";
  const text = {
    "thread-held": `waits ${behind}: it starts once a person answers ${thread?.behindId} and it ends (see ${see})`,
    "thread-running": `waits ${behind}: it starts once that item ends (see ${see})`,
    "thread-queued": `waits ${behind}: it starts after that item ends (see ${see})`,
    cancelled: "the batch was cancelled: it will not be sent",
    limit: `left queued by --limit ${ctx.limit}: ${commandHint(["resq", "resume", batch.name], hint)} goes on`,
    "no-worker": `waits for a worker: ${commandHint(["resq", "resume", batch.name], hint)} runs it`,
    cap: `waits for a slot: ${ctx.inFlight} in flight of the cap ${ctx.cap}`,
    ready: "ready: a live worker starts it at its next claim"
  }[reason];
  return { ...base, text };
}
async function readItemWait(store, batch, item, ctx, hint = {}) {
  const thread = item.threadKey === null ? null : (await store.threadWaits(batch.id, 1, { itemId: item.id })).first[0] ?? null;
  return itemWaitOf(batch, item, thread, ctx, hint);
}

// src/read/batch-status.ts
var STALE_MS = 6e4;
var FAILED_LISTED = 10;
function countIn(counts, states) {
  return states.reduce((n, s) => n + counts[s], 0);
}
function unfinishedOf(counts) {
  return countIn(counts, UNFINISHED_STATES) - counts.held;
}
function workersOf(o, nowMs) {
  return o.workers.map((w) => ({
    id: w.id,
    host: w.host,
    pid: w.pid,
    gone: isGoneHere(w),
    startedAt: w.startedAt,
    heartbeatAt: w.heartbeatAt,
    heartbeatAgeMs: Math.max(0, nowMs - w.heartbeatAt),
    items: w.items
  }));
}
function batchCard(o) {
  const b = o.batch;
  return {
    id: b.id,
    name: b.name,
    kind: b.kind,
    createdAt: b.createdAt,
    cancelledAt: b.cancelledAt,
    total: b.totalItems,
    counts: o.counts,
    held: o.counts.held,
    approvedCost: o.approvedCost,
    files: o.files,
    liveWorkers: o.workers.filter((w) => !isGoneHere(w)).length
  };
}
function resumeCommand(batch, place = {}) {
  return commandHint(["resq", "resume", batch.name], { db: place.db });
}
function nextStepOf(batch, unfinished, liveWorkers, place = {}) {
  if (unfinished === 0 || liveWorkers > 0 || batch.cancelledAt) return null;
  const command = resumeCommand(batch, place);
  return { why: "no-worker", text: `no worker running: ${command}`, command };
}
async function readNextStep(store, batch, nowMs, place = {}) {
  const ov = await store.overview(batch.id, nowMs, STALE_MS);
  return nextStepOf(batch, unfinishedOf(ov.counts), batchCard(ov).liveWorkers, place);
}
function isLive(it, nowMs) {
  return it.owner !== null && (it.leaseUntil ?? 0) >= nowMs;
}
function waitContextOf(batch, liveWorkers, live, limit) {
  return { cancelled: batch.cancelledAt !== null, liveWorkers, inFlight: live.inFlight, cap: live.capLimit ?? batch.settings.concurrency, limit };
}
async function readWaitContext(store, batch, nowMs) {
  const [ov, live] = await Promise.all([store.overview(batch.id, nowMs, STALE_MS), store.batchLive(batch.id, 0)]);
  return waitContextOf(ov.batch, batchCard(ov).liveWorkers, live);
}
async function readBatchStatus(store, batch, o) {
  const nowMs = o.nowMs;
  const [ov, live, recent] = await Promise.all([store.overview(batch.id, nowMs, STALE_MS), store.batchLive(batch.id, o.heldLimit ?? 50), store.recentFinishes(batch.id, RATE_WINDOW)]);
  const card = batchCard(ov);
  const counts = ov.counts;
  const unfinished = unfinishedOf(counts);
  const rate = ratePerSecond(recent);
  const heldItems = await Promise.all(
    live.held.map(async (h) => {
      const [item, decisions] = await Promise.all([store.getItem(batch.id, h.id), store.decisionsForItem(batch.id, h.id)]);
      const run = item?.runId ? await store.getRun(item.runId) : null;
      const input = run?.requiredAction?.input ?? null;
      return { ...h, runId: item?.state === "held" ? item.runId ?? null : null, input, untrustedCost: untrustedCost(input), decisions: decisions.map(deciderOf) };
    })
  );
  const waiting = await readWaitGroups(store, batch, counts.queued, waitContextOf(ov.batch, card.liveWorkers, live, o.limit));
  const etaLeavesOut = forPersonCount(waiting);
  const unknownSubmission = (await store.listItems(batch.id, { states: ["submitting"] })).filter((it) => !isLive(it, nowMs)).map((it) => it.id);
  const failed = await store.listItems(batch.id, { states: FAILED_STATES, limit: FAILED_LISTED });
  const outbox = batch.settings.notify && store.outboxState ? await store.outboxState(batch.id) : null;
  const commands = outbox && store.notifyCommands ? (await store.notifyCommands(batch.id, nowMs)).map(({ host, pid }) => ({ host, pid })) : [];
  return {
    ...card,
    concurrency: batch.settings.concurrency,
    inFlight: live.inFlight,
    capLimit: live.capLimit,
    workers: workersOf(ov, nowMs),
    heldItems,
    unfinished,
    ratePerS: rate === null ? null : Number(rate.toFixed(3)),
    etaS: etaSeconds(rate, unfinished, card.liveWorkers > 0, etaLeavesOut),
    etaLeavesOut,
    waiting,
    next: nextStepOf(batch, unfinished, card.liveWorkers, o.hint),
    notify: outbox ? { receivers: describeReceivers(batch.settings.notify, commands), commands, undelivered: outbox.undelivered, lastError: outbox.lastError } : null,
    unknownSubmission,
    invalidRows: batch.invalidRows.length,
    skipped: batch.invalidRows.slice(0, 100).map(formatProblem),
    failed: failed.map((it) => ({ id: it.id, question: it.question, status: it.state === "error" ? "error" : "failed", errorCode: it.errorCode, error: it.error })),
    failedTotal: countIn(counts, FAILED_STATES),
    budget: budgetOf(batch.policy),
    // Decisions are held to the budget group's spend (its agent judge's approvals too): so is what status says of it.
    budgetSpent: await store.budgetSpent(batch.id),
    scores: await readScoreRates(store, batch)
  };
}

export {
  describeReceivers,
  RATE_WINDOW,
  ratePerSecond,
  etaSeconds,
  forPersonBehindThreads,
  readItemWait,
  STALE_MS,
  FAILED_LISTED,
  countIn,
  unfinishedOf,
  workersOf,
  batchCard,
  resumeCommand,
  nextStepOf,
  readNextStep,
  waitContextOf,
  readWaitContext,
  readBatchStatus
};
//# sourceMappingURL=chunk-244VYD4W.mjs.map
