import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  withoutStoredCommand
} from "./chunk-QFB6ZTTJ.mjs";
import {
  scorersForStore,
  scorersFromStore
} from "./chunk-2A6FAXNZ.mjs";
import {
  cutText,
  decodeCursor,
  encodeCursor
} from "./chunk-HXA3HFZH.mjs";
import {
  parseStoredJson
} from "./chunk-ADUNF5BB.mjs";
import {
  idempotencyKey
} from "./chunk-Q6TQJGNT.mjs";
import {
  ACTIVE_STATES,
  UNFINISHED_STATES,
  sqlStates,
  zeroCounts
} from "./chunk-MH23QIYG.mjs";
import {
  InputError,
  LeaseLostError,
  OverBudgetError
} from "./chunk-4EMWZ36I.mjs";
import {
  COST_BOUND,
  planCost,
  untrustedCost
} from "./chunk-O4EQ2A5A.mjs";

// src/store/common/changed-row.ts
function changedRow(stored, cols, k) {
  const field = stored.question !== cols.questions[k] ? "question" : (stored.threadKey ?? null) !== (cols.threads[k] ?? null) ? "thread" : stored.meta !== cols.metas[k] ? "meta" : null;
  if (field === null) return null;
  return { id: cols.ids[k], line: cols.lines[k], storedLine: stored.line, field, storedMeta: stored.meta, meta: cols.metas[k] };
}

// src/store/common/append-plan.ts
function planAppend(cols, stored, nextSeq) {
  const fresh = [];
  const changed = [];
  let kept = 0;
  let next = nextSeq;
  for (let k = 0; k < cols.ids.length; k++) {
    const s = stored(cols.ids[k]);
    if (!s) {
      fresh.push({ id: cols.ids[k], seq: next++, line: cols.lines[k], question: cols.questions[k], threadKey: cols.threads[k] ?? null, meta: cols.metas[k], expectedJson: cols.expecteds?.[k] ?? null });
      continue;
    }
    kept++;
    const c = changedRow(s, cols, k);
    if (c) changed.push(c);
  }
  return { fresh, changed, kept, next };
}
function duplicateInAppend() {
  return new Error("batch append: an id given twice (ids must be unique among the rows given)");
}

// src/store/rows/records.ts
function parseJson(text) {
  return text == null ? null : JSON.parse(text);
}
function storedSettings(raw) {
  const s = withoutStoredCommand(raw);
  if (s.scorers === void 0) return s;
  const scorers = scorersFromStore(s.scorers);
  const { scorers: _raw, ...rest } = s;
  return scorers ? { ...rest, scorers } : rest;
}
function batchFromRow(r) {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    sourcePath: r.source_path,
    sourceSha256: r.source_sha256,
    baseUrl: r.base_url,
    settings: storedSettings(JSON.parse(r.settings)),
    policy: parseJson(r.policy),
    totalItems: r.total_items,
    invalidRows: JSON.parse(r.invalid_rows),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    cancelledAt: r.cancelled_at
  };
}
function runFromRow(r) {
  return {
    id: r.id,
    batchId: r.batch_id,
    itemId: r.item_id,
    step: r.step,
    parentRunId: r.parent_run_id,
    idempotencyKey: r.idempotency_key,
    status: r.status,
    threadId: r.thread_id,
    requiredAction: parseJson(r.required_action),
    output: parseJson(r.output),
    errorCode: r.error_code ?? null,
    error: r.error ?? null,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    seconds: r.seconds === null ? null : Number(r.seconds),
    unwatched: Boolean(r.unwatched)
  };
}
function fileFromRow(r) {
  return {
    batchId: r.batch_id,
    id: r.id,
    itemId: r.item_id,
    runId: r.run_id,
    tool: r.tool,
    role: r.role,
    name: r.name,
    url: r.url,
    mediaType: r.media_type,
    firstSeenAt: r.first_seen_at,
    expiresAt: r.expires_at,
    status: r.status,
    path: r.path,
    bytes: r.bytes,
    sha256: r.sha256,
    error: r.error,
    host: r.host,
    dev: r.disk_dev ?? null,
    ino: r.disk_ino ?? null
  };
}
function modelRunFromRow(r) {
  return {
    batchId: r.batch_id,
    itemId: r.item_id,
    modelId: r.model_id,
    inputs: JSON.parse(r.inputs),
    mode: r.mode,
    idempotencyKey: r.idempotency_key,
    submits: r.submits,
    modelRunId: r.model_run_id,
    httpStatus: r.http_status,
    status: r.status,
    pollUrl: r.poll_url,
    outputs: parseJson(r.outputs),
    error: r.error,
    credits: r.credits,
    polls: r.polls,
    submittedAt: r.submitted_at,
    admittedAt: r.admitted_at,
    finishedAt: r.finished_at
  };
}
function itemFromRow(r) {
  return {
    batchId: r.batch_id,
    id: r.id,
    seq: r.seq,
    line: r.line,
    question: r.question,
    threadKey: r.thread_key,
    // Numbers keep the text the file had (12345678901234567890, -0, 1.50) through to the export.
    meta: parseStoredJson(r.meta),
    expected: r.expected == null ? null : parseStoredJson(r.expected),
    state: r.state,
    step: r.step,
    pendingKey: r.pending_key,
    pendingAnswer: parseJson(r.pending_answer),
    runId: r.run_id,
    threadId: r.thread_id,
    runStatus: r.run_status,
    text: r.text,
    error: r.error,
    errorCode: r.error_code ?? null,
    holdReason: r.hold_reason,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    updatedAt: r.updated_at,
    owner: r.owner,
    leaseUntil: r.lease_until,
    attempt: r.attempt,
    fence: r.fence ?? 0
  };
}
function workerFromRow(r) {
  return { id: r.id, batchId: r.batch_id, host: r.host, pid: r.pid, pidStart: r.pid_start, startedAt: r.started_at, heartbeatAt: r.heartbeat_at, items: r.n };
}
function decisionFromRow(r) {
  return {
    id: r.id,
    batchId: r.batch_id,
    itemId: r.item_id,
    runId: r.run_id,
    tool: r.tool,
    input: JSON.parse(r.input),
    answer: JSON.parse(r.answer),
    by: r.by,
    person: r.person ?? null,
    reason: r.reason,
    cost: r.cost,
    decidedAt: r.decided_at,
    respondKey: r.respond_key ?? null,
    overBudget: r.over_budget === true || r.over_budget === 1
  };
}
function settingsText(s) {
  return JSON.stringify(s.scorers ? { ...s, scorers: scorersForStore(s.scorers) } : s);
}

// src/store/common/flights.ts
var IN_FLIGHT_MARK = "queued";
function queuedRow(i = "i") {
  return `${i}.state = 'queued' AND NOT EXISTS (SELECT 1 FROM flights nf WHERE nf.item_key = ${i}.key)`;
}
var FLIGHT_COLUMNS = [
  "state",
  "step",
  "pending_key",
  "pending_answer",
  "run_id",
  "thread_id",
  "run_status",
  "text",
  "owner",
  "lease_until",
  "fence",
  "started_at",
  "updated_at"
];
var FLIGHT_SET = new Set(FLIGHT_COLUMNS);
function runGoing(f = "") {
  const p = f ? `${f}.` : "";
  return `(${p}state <> 'waiting' OR ${p}lease_until IS NOT NULL)`;
}
function runNotGoing(f = "") {
  const p = f ? `${f}.` : "";
  return `${p}owner IS NULL AND ${p}lease_until IS NULL AND ${p}state = 'waiting'`;
}
var ITEM_ONLY = ["id", "seq", "line", "question", "thread_key", "meta", "expected", "error", "error_code", "hold_reason", "finished_at", "attempt"];
function overFlight(c, i = "i", f = "f") {
  return FLIGHT_SET.has(c) ? `CASE WHEN ${f}.item_key IS NULL THEN ${i}.${c} ELSE ${f}.${c} END` : `${i}.${c}`;
}
function isFlightColumn(c) {
  return FLIGHT_SET.has(c);
}
function itemColumns(i = "i", f = "f") {
  return [...ITEM_ONLY.map((c) => `${i}.${c}`), ...FLIGHT_COLUMNS.map((c) => `${overFlight(c, i, f)} AS ${c}`)].join(", ");
}
function stateOf(i = "i", f = "f") {
  return overFlight("state", i, f);
}
function layFlight(row, flight, prefix = "") {
  const out = row;
  for (const c of FLIGHT_COLUMNS) out[c] = flight[prefix + c];
  return row;
}
var LANDED_COLUMNS = FLIGHT_COLUMNS.filter((c) => c !== "updated_at");
function flightSelect(values) {
  return FLIGHT_COLUMNS.map((c) => values[c] ?? c).join(", ");
}
function storedStates(states) {
  const out = [...states];
  if (states.some((s) => ACTIVE_STATES.includes(s)) && !out.includes(IN_FLIGHT_MARK)) out.push(IN_FLIGHT_MARK);
  return out;
}
var UNFINISHED_ROWS = sqlStates(storedStates(UNFINISHED_STATES));
function countsOf(kept, flying) {
  const out = zeroCounts();
  for (const r of kept) if (r.state in out) out[r.state] += Number(r.n);
  for (const r of flying) {
    out[r.state] += Number(r.n);
    out[IN_FLIGHT_MARK] -= Number(r.n);
  }
  return out;
}

// src/store/common/batch-num.ts
var batchNumOf = (param = "?") => `(SELECT num FROM batches WHERE id = ${param})`;

// src/store/common/budget-group.ts
var groupLeaderSql = (where) => `(SELECT coalesce(spends_with, num) FROM batches WHERE ${where})`;
var groupSpendSql = (where) => `WITH leader(n) AS (SELECT coalesce(spends_with, num) FROM batches WHERE ${where})
   SELECT coalesce(sum(s.approved), 0) AS c FROM leader, batches b JOIN batch_spend s ON s.batch_num = b.num
   WHERE b.num = leader.n OR b.spends_with = leader.n`;
var spendsWithSql = (param) => groupLeaderSql(`id = ${param}`);
function spendsWithNum(spendsWith, leader) {
  if (leader === null || leader === void 0) throw new InputError(`batch "${spendsWith}" to spend with is not in the database`);
  const num = Number(leader);
  if (!Number.isSafeInteger(num) || num < 0) throw new Error(`the database gave batch "${spendsWith}" a key that is not one: ${String(leader).slice(0, 40)}`);
  return num;
}

// src/store/common/claim-plan.ts
var QUEUED_PAGE = 64;
function takeOverStates(req) {
  return (req.takeOver ?? ACTIVE_STATES).filter((s) => ACTIVE_STATES.includes(s));
}
function effectiveCap(cap, capLimit) {
  return capLimit !== null && capLimit < cap ? capLimit : cap;
}
function pickOrphans(rows, skip, max) {
  const left = skip?.length ? new Set(skip) : null;
  return rows.filter((r) => !left?.has(r.id)).slice(0, max).sort((a, b) => a.seq - b.seq);
}
function takesSlot(it) {
  return it.state === "waiting" && it.leaseUntil === null;
}
var ClaimBudget = class {
  inFlight;
  taken = 0;
  fresh = 0;
  max;
  cap;
  maxQueued;
  constructor(req, cap, inFlight) {
    this.max = req.max;
    this.cap = cap;
    this.maxQueued = req.maxQueued ?? req.max;
    this.inFlight = inFlight;
  }
  /** Whether an orphan may be taken (an answered item no worker held needs a free slot); counts it when so. */
  takeOrphan(it) {
    if (takesSlot(it)) {
      if (this.inFlight >= this.cap) return false;
      this.inFlight++;
    }
    this.taken++;
    return true;
  }
  /** Whether one more queued item may be moved to `submitting`. */
  get roomForQueued() {
    return this.taken < this.max && this.inFlight < this.cap && this.fresh < this.maxQueued;
  }
  /** How many more queued items this claim can take now. */
  get wantQueued() {
    return Math.min(this.max - this.taken, this.cap - this.inFlight, this.maxQueued - this.fresh);
  }
  /** Counts a queued item taken. */
  takeQueued() {
    this.taken++;
    this.inFlight++;
    this.fresh++;
  }
};
function queuedPageSize(want, passed) {
  return Math.min(QUEUED_PAGE, Math.max(1, Math.ceil(want + passed)));
}
function submitPlan(it, lease, nowMs, threadId) {
  return {
    pendingKey: idempotencyKey(it.batchId, it.id, it.step, it.attempt),
    threadId,
    startedAt: it.startedAt ?? new Date(nowMs).toISOString(),
    owner: lease.workerId,
    leaseUntil: nowMs + lease.leaseMs,
    fence: it.fence + 1
  };
}
function ownedPlan(it, lease, nowMs) {
  return { owner: lease.workerId, leaseUntil: nowMs + lease.leaseMs, fence: it.fence + 1 };
}
function inSeqOrder(rows) {
  for (let i = 1; i < rows.length; i++) if (rows[i].seq < rows[i - 1].seq) return rows.sort((a, b) => a.seq - b.seq);
  return rows;
}

// src/store/common/thread-waits.ts
function threadWaitsSql(batchNum, scope = {}) {
  const heads = scope.heldOnly ? `SELECT thread_key, seq FROM items x
      WHERE x.batch_num = ${batchNum} AND x.state <> 'queued' AND x.state = 'held'
        AND NOT EXISTS (SELECT 1 FROM items e WHERE e.batch_num = ${batchNum} AND e.thread_key = x.thread_key AND e.seq < x.seq AND e.state IN ${UNFINISHED_ROWS})` : `SELECT thread_key, MIN(seq) AS seq FROM items
      WHERE batch_num = ${batchNum} AND thread_key IS NOT NULL AND state IN ${UNFINISHED_ROWS}${// One item: its own thread only, not every thread of the batch.
  scope.item ? ` AND thread_key = (SELECT t.thread_key FROM items t WHERE t.batch_num = ${batchNum} AND t.id = ${scope.item})` : ""}
      GROUP BY thread_key`;
  return `WITH heads AS ${scope.heldOnly ? "MATERIALIZED " : ""}(${heads})
    SELECT q.id AS id, q.seq AS seq, q.thread_key AS thread_key, hi.id AS behind_id, ${stateOf("hi", "f")} AS behind_state
    FROM heads h
    JOIN items hi ON hi.batch_num = ${batchNum} AND hi.thread_key = h.thread_key AND hi.seq = h.seq
    LEFT JOIN flights f ON f.item_key = hi.key
    JOIN items q ON q.batch_num = ${batchNum} AND q.thread_key = h.thread_key AND q.seq > h.seq AND ${queuedRow("q")}${scope.item ? ` AND q.id = ${scope.item}` : ""}`;
}
function threadWaitsOf(counts, rows) {
  const byState = {};
  for (const c of counts) byState[c.state] = Number(c.n);
  return { byState, first: rows.map((r) => ({ id: r.id, threadKey: r.thread_key, behindId: r.behind_id, behindState: r.behind_state })) };
}

// src/store/common/fencing.ts
function stillHeld(stored, held) {
  return stored.owner === held.owner && stored.fence === held.fence;
}
function leaseLost(itemId, stored, held) {
  if (!stored) return new LeaseLostError(`item ${itemId} vanished from the database`);
  const who = stored.owner !== null ? `claimed by worker ${stored.owner}` : stored.fence !== held.fence ? `claimed again and is ${stored.state} now, held by no worker` : `let go (${stored.state} now)`;
  return new LeaseLostError(`item ${itemId} was ${who}; token ${stored.fence}, this driver's ${held.fence}`);
}
function priorOutcome(prior, fallbackKey) {
  return {
    kind: "answer",
    nextKey: prior.respondKey ?? fallbackKey,
    decision: { runId: prior.runId, tool: prior.tool, input: prior.input, answer: prior.answer, by: prior.by, person: prior.person, reason: prior.reason, cost: prior.cost }
  };
}

// src/store/common/cost-sums.ts
function trustedCostSql(column) {
  return `CASE WHEN ${column} BETWEEN 0 AND ${COST_BOUND} THEN ${column} ELSE 0 END`;
}

// src/store/common/budget-check.ts
function checkBudget(itemId, approved, cost, guard) {
  if (!guard || !(cost > 0) || approved + cost <= guard.budget) return false;
  if (!guard.allowOver) throw new OverBudgetError(itemId, approved, cost, guard.budget);
  return true;
}

// src/store/rows/run-failure.ts
function runErrorColumns(run) {
  return { error_code: run.error?.code ?? null, error: run.error?.message ?? null };
}
function itemErrorColumns(run, state) {
  if (state !== "failed") return { error_code: null, error: null };
  const own = runErrorColumns(run);
  return { error_code: own.error_code, error: own.error ?? `run ${run.id} ended with status ${run.status}` };
}

// src/store/common/transition-patches.ts
var UNLEASED = { owner: null, lease_until: null };
var UNHELD = { hold_reason: null };
function admittedPatch(item, run, also) {
  return {
    state: "running",
    run_id: run.id,
    thread_id: run.threadId ?? item.threadId,
    run_status: run.status,
    pending_key: null,
    pending_answer: null,
    ...also
  };
}
function finishedPatch(item, run, state, at, also) {
  return {
    state,
    run_status: run.status,
    text: run.output?.text ?? null,
    thread_id: run.threadId ?? item.threadId,
    ...itemErrorColumns(run, state),
    finished_at: at,
    ...also
  };
}
function pauseSeen(run) {
  return { run_status: run.status, text: run.output?.text ?? null };
}
function answeredPatch(item, decision, nextKey, seen, also) {
  return { state: "waiting", step: item.step + 1, pending_key: nextKey, pending_answer: decision.answer, ...seen, ...also };
}
function heldPatch(seen, reason, also) {
  return { state: "held", ...seen, hold_reason: reason, ...also };
}
function cancelledPatch(at, also) {
  return { state: "cancelled", pending_key: null, finished_at: at, ...also };
}
function errorPatch(message, code, at, also) {
  return { state: "error", error: message, error_code: code, pending_key: null, finished_at: at, ...also };
}

// src/store/rows/item-pages.ts
function summaryFromRow(r) {
  return {
    id: r.id,
    seq: Number(r.seq),
    state: r.state,
    question: cutText(r.question),
    answer: cutText(r.answer),
    runStatus: r.run_status,
    error: cutText(r.error),
    holdReason: r.hold_reason,
    meta: JSON.parse(r.meta),
    step: Number(r.step),
    updatedAt: r.updated_at,
    finishedAt: r.finished_at
  };
}
var SORT_COLUMN = { seq: "seq", id: "id", updated: "updated_at" };
var backwards = (q) => Boolean(q.before && decodeCursor(q.before));
function readQuery(q) {
  return backwards(q) ? { ...q, desc: !q.desc, after: q.before ?? null, before: null } : { ...q, before: null };
}
function pageOf(rows, q) {
  const more = rows.length > q.limit;
  const read = more ? rows.slice(0, q.limit) : rows;
  const sort = q.sort ?? "seq";
  const cursor = (r) => r ? encodeCursor({ v: sort === "seq" ? Number(r.seq) : sort === "id" ? r.id : r.updated_at, seq: Number(r.seq) }) : null;
  if (backwards(q)) {
    const shown = [...read].reverse();
    return { items: shown.map(summaryFromRow), next: cursor(shown.at(-1)), prev: more ? cursor(shown[0]) : null };
  }
  const after = Boolean(q.after && decodeCursor(q.after));
  return { items: read.map(summaryFromRow), next: more ? cursor(read.at(-1)) : null, prev: after ? cursor(read[0]) : null };
}

// src/store/common/verdicts.ts
var VERDICT_COLUMNS = "item_id, seq, scorer, version, pass, score, reason, scored_at, by";
var VERDICT_UPSERT = "ON CONFLICT (batch_num, seq, scorer, version) DO UPDATE SET pass = excluded.pass, score = excluded.score, reason = excluded.reason, scored_at = excluded.scored_at, by = excluded.by";
var passValue = (v) => v.pass === null ? null : v.pass ? 1 : 0;
function verdictValues(itemId, seq, v) {
  return [itemId, seq, v.scorer, v.version, passValue(v), v.score, v.reason, v.scoredAt, v.by];
}
function verdictOfRow(r) {
  const pass = r.pass === null ? null : Number(r.pass) === 1 ? true : Number(r.pass) === 0 ? false : null;
  const n = r.score === null ? null : Number(r.score);
  return { scorer: r.scorer, version: r.version, pass, score: n !== null && Number.isFinite(n) && n >= 0 && n <= 1 ? n : null, reason: r.reason, scoredAt: r.scored_at, by: r.by };
}
function groupVerdicts(rows) {
  const out = [];
  for (const r of rows) {
    const last = out[out.length - 1];
    if (last && last.itemId === r.item_id) last.verdicts.push(verdictOfRow(r));
    else out.push({ itemId: r.item_id, seq: Number(r.seq), verdicts: [verdictOfRow(r)] });
  }
  return out;
}
function totalsOf(s, completed, passed, failed) {
  return { scorer: s.name, version: s.version, passed, failed, unscored: Math.max(0, completed - passed - failed) };
}
function verdictCountsSql(num, scorer, version) {
  return `SELECT coalesce(sum(CASE WHEN v.pass = 1 THEN 1 ELSE 0 END), 0) AS passed, coalesce(sum(CASE WHEN v.pass = 0 THEN 1 ELSE 0 END), 0) AS failed
    FROM verdicts v JOIN items i ON i.batch_num = v.batch_num AND i.seq = v.seq
    WHERE v.batch_num = ${num} AND v.scorer = ${scorer} AND v.version = ${version} AND v.pass IS NOT NULL AND i.state = 'completed'`;
}
var completedCountSql = (num) => `SELECT count(*) AS n FROM items WHERE batch_num = ${num} AND state = 'completed'`;
function verdictWhere(f, p) {
  const has = (cond) => `EXISTS (SELECT 1 FROM verdicts v WHERE v.batch_num = i.batch_num AND v.seq = i.seq AND v.scorer = ${p(f.scorer)} AND v.version = ${p(f.version)} AND ${cond})`;
  if (f.is === "passed") return has("v.pass = 1");
  if (f.is === "failed") return has("v.pass = 0");
  return `(i.state = 'completed' AND NOT ${has("v.pass IS NOT NULL")})`;
}

// src/store/rows/outbox.ts
function parseObject(text) {
  if (!text) return {};
  try {
    const v = JSON.parse(text);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}
function claimFromRow(r, held = []) {
  const delivered = JSON.parse(r.delivered || "[]");
  return {
    row: Number(r.id),
    batchId: r.batch_id,
    key: r.key,
    type: r.type,
    data: parseObject(r.data),
    createdAt: Number(r.created_at),
    attempts: Number(r.attempts),
    owner: r.owner ?? "",
    fence: Number(r.fence),
    delivered: Array.isArray(delivered) ? delivered.map(String) : [],
    held
  };
}
function heldFromRow(r) {
  const action = parseObject(r.required_action);
  const input = parseObject(JSON.stringify(action.input ?? {}));
  const cost = planCost(input);
  return {
    itemId: r.item_id,
    runId: r.run_id,
    reason: r.reason,
    tool: typeof action.tool === "string" ? action.tool : null,
    cost,
    untrustedCost: untrustedCost(input),
    heldAt: Number(r.created_at)
  };
}
function factIds(data) {
  const f = data.facts;
  return Array.isArray(f) ? f.filter((x) => Number.isInteger(x)) : [];
}

// src/store/common/held-plan.ts
function* heldPlan(o, now) {
  let added = 0;
  const last = yield { kind: "lastDigest" };
  if (last === null || last <= now - o.digestMs) {
    const facts = yield { kind: "facts" };
    if (facts.length > 0) {
      yield { kind: "add", key: `digest:${facts[0]}`, facts, reminder: false };
      added++;
    }
  }
  if (o.remindMs !== null) {
    yield { kind: "dropAnswered" };
    const due = yield { kind: "due", before: now - o.remindMs };
    if (due.length > 0) {
      yield { kind: "add", key: `remind:${due[0]}:${now}`, facts: due, reminder: true };
      added++;
    }
  }
  return added;
}
function runHeldPlan(plan, step) {
  let answer;
  for (; ; ) {
    const s = plan.next(answer);
    if (s.done) return s.value;
    answer = step(s.value);
  }
}
async function runHeldPlanAsync(plan, step) {
  let answer;
  for (; ; ) {
    const s = plan.next(answer);
    if (s.done) return s.value;
    answer = await step(s.value);
  }
}
function heldEventData(facts, reminder) {
  return JSON.stringify({ facts, reminder });
}

// src/store/common/web-sessions.ts
var SESSION_TOUCH_MS = 6e4;
var WEB_SESSION_KEEP_MS = 30 * 864e5;
function sessionUse(row, idleMs, nowMs) {
  if (row === null || row.endedAt !== null) return "refused";
  if (nowMs - row.lastSeenAt > idleMs) return "end";
  return nowMs - row.lastSeenAt >= SESSION_TOUCH_MS ? "touch" : "live";
}
async function settleSessionUse(use, write) {
  if (use === "end") await write.end();
  if (use !== "touch") return use === "live";
  return write.touch();
}

// src/store/common/forecasts.ts
var FORECAST_COLUMNS = "made_at, file_path, file_sha256, for_batch_id, learned_from, questions, cost_estimate, cost_low, cost_high, held_estimate, held_low, held_high";
function forecastValues(f) {
  return [f.madeAt, f.filePath, f.fileSha256, f.forBatchId, JSON.stringify(f.learnedFrom), f.questions, f.cost?.estimate ?? null, f.cost?.low ?? null, f.cost?.high ?? null, f.held?.estimate ?? null, f.held?.low ?? null, f.held?.high ?? null];
}
var spreadOf = (estimate, low, high) => estimate === null || low === null || high === null ? null : { estimate: Number(estimate), low: Number(low), high: Number(high) };
function forecastOfRow(r) {
  let names;
  try {
    names = JSON.parse(r.learned_from);
  } catch {
    names = [];
  }
  return {
    madeAt: r.made_at,
    filePath: r.file_path,
    fileSha256: r.file_sha256,
    forBatchId: r.for_batch_id,
    learnedFrom: Array.isArray(names) ? names.filter((n) => typeof n === "string") : [],
    questions: Number(r.questions),
    cost: spreadOf(r.cost_estimate, r.cost_low, r.cost_high),
    held: spreadOf(r.held_estimate, r.held_low, r.held_high)
  };
}

export {
  planAppend,
  duplicateInAppend,
  batchFromRow,
  runFromRow,
  fileFromRow,
  modelRunFromRow,
  itemFromRow,
  workerFromRow,
  decisionFromRow,
  settingsText,
  IN_FLIGHT_MARK,
  queuedRow,
  FLIGHT_COLUMNS,
  runGoing,
  runNotGoing,
  overFlight,
  isFlightColumn,
  itemColumns,
  stateOf,
  layFlight,
  LANDED_COLUMNS,
  flightSelect,
  storedStates,
  UNFINISHED_ROWS,
  countsOf,
  batchNumOf,
  groupLeaderSql,
  groupSpendSql,
  spendsWithSql,
  spendsWithNum,
  takeOverStates,
  effectiveCap,
  pickOrphans,
  ClaimBudget,
  queuedPageSize,
  submitPlan,
  ownedPlan,
  inSeqOrder,
  threadWaitsSql,
  threadWaitsOf,
  stillHeld,
  leaseLost,
  priorOutcome,
  trustedCostSql,
  checkBudget,
  runErrorColumns,
  UNLEASED,
  UNHELD,
  admittedPatch,
  finishedPatch,
  pauseSeen,
  answeredPatch,
  heldPatch,
  cancelledPatch,
  errorPatch,
  SORT_COLUMN,
  readQuery,
  pageOf,
  VERDICT_COLUMNS,
  VERDICT_UPSERT,
  passValue,
  verdictValues,
  verdictOfRow,
  groupVerdicts,
  totalsOf,
  verdictCountsSql,
  completedCountSql,
  verdictWhere,
  claimFromRow,
  heldFromRow,
  factIds,
  heldPlan,
  runHeldPlan,
  runHeldPlanAsync,
  heldEventData,
  WEB_SESSION_KEEP_MS,
  sessionUse,
  settleSessionUse,
  FORECAST_COLUMNS,
  forecastValues,
  forecastOfRow
};
//# sourceMappingURL=chunk-22G66OTL.mjs.map
