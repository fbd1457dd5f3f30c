import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  ANSWERED_CHANNEL,
  AnswersListener,
  beginSql,
  connectError,
  esm_default,
  makePool,
  waitingQueries,
  withTx
} from "./chunk-GZBJE4PP.mjs";
import {
  ClaimBudget,
  FLIGHT_COLUMNS,
  FORECAST_COLUMNS,
  IN_FLIGHT_MARK,
  LANDED_COLUMNS,
  UNFINISHED_ROWS,
  UNHELD,
  UNLEASED,
  VERDICT_COLUMNS,
  VERDICT_UPSERT,
  WEB_SESSION_KEEP_MS,
  admittedPatch,
  answeredPatch,
  batchFromRow,
  batchNumOf,
  cancelledPatch,
  checkBudget,
  claimFromRow,
  completedCountSql,
  countsOf,
  decisionFromRow,
  duplicateInAppend,
  effectiveCap,
  errorPatch,
  factIds,
  fileFromRow,
  finishedPatch,
  flightSelect,
  forecastOfRow,
  forecastValues,
  groupLeaderSql,
  groupSpendSql,
  groupVerdicts,
  heldEventData,
  heldFromRow,
  heldPatch,
  heldPlan,
  isFlightColumn,
  itemFromRow,
  layFlight,
  leaseLost,
  modelRunFromRow,
  overFlight,
  pageOf,
  pauseSeen,
  pickOrphans,
  planAppend,
  priorOutcome,
  queuedPageSize,
  queuedRow,
  readQuery,
  runErrorColumns,
  runFromRow,
  runGoing,
  runHeldPlanAsync,
  sessionUse,
  settingsText,
  settleSessionUse,
  spendsWithNum,
  spendsWithSql,
  stillHeld,
  storedStates,
  takeOverStates,
  threadWaitsOf,
  threadWaitsSql,
  totalsOf,
  trustedCostSql,
  verdictCountsSql,
  verdictOfRow,
  verdictValues,
  verdictWhere,
  workerFromRow
} from "./chunk-22G66OTL.mjs";
import "./chunk-QFB6ZTTJ.mjs";
import "./chunk-2A6FAXNZ.mjs";
import "./chunk-UUEOY5IK.mjs";
import {
  cutText,
  decodeCursor,
  fileExpiry,
  pauseFromRow
} from "./chunk-HXA3HFZH.mjs";
import {
  runTimes
} from "./chunk-UM7NX3RY.mjs";
import {
  DbWait
} from "./chunk-LX2MAEXG.mjs";
import {
  isoNow,
  systemClock
} from "./chunk-64FYAIQV.mjs";
import {
  parsePgTarget
} from "./chunk-KD7OSFDT.mjs";
import "./chunk-5GEFFECR.mjs";
import {
  maskLocation
} from "./chunk-755LHRXT.mjs";
import "./chunk-ADUNF5BB.mjs";
import {
  idempotencyKey
} from "./chunk-Q6TQJGNT.mjs";
import {
  ACTIVE_STATES,
  ENDED_STATES,
  TERMINAL_STATES,
  isTerminal,
  sqlStates
} from "./chunk-MH23QIYG.mjs";
import {
  BatchExistsError,
  ItemNotHeldError
} from "./chunk-4EMWZ36I.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import {
  keptTotal,
  recordedCost
} from "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/store/postgres/sql.ts
var names = /* @__PURE__ */ new Map();
function hot(text) {
  if (!names.has(text)) names.set(text, `resq_${names.size}`);
  return text;
}
function statement(text, values, rowMode) {
  const name = names.get(text);
  return { ...name ? { name } : {}, text, values, ...rowMode ? { rowMode } : {} };
}
async function all(c, text, params = []) {
  return (await c.query(statement(text, params))).rows;
}
async function one(c, text, params = []) {
  return (await c.query(statement(text, params))).rows[0] ?? null;
}
async function scalar(c, text, params = []) {
  const r = await c.query(statement(text, params, "array"));
  return r.rows[0]?.[0];
}
function transactionEnd(c) {
  let open = true;
  return async (sql) => {
    if (!open) return;
    open = false;
    try {
      await c.query(sql);
    } finally {
      c.release();
    }
  };
}
var prepared = {
  all: (c, text, params = []) => all(c, hot(text), params),
  one: (c, text, params = []) => one(c, hot(text), params),
  scalar: (c, text, params = []) => scalar(c, hot(text), params),
  exec: (c, text, params = []) => c.query(statement(hot(text), params))
};
var stamp = (now) => now === null ? isoNow() : new Date(now).toISOString();
var dbNow = (param) => `coalesce(${param}::bigint, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)`;
var ITEMS_FROM = "items i LEFT JOIN flights f ON f.item_key = i.key";
var ITEM_COLS = `i.*, f.item_key AS f_item_key, f.batch_num AS f_batch_num, ${FLIGHT_COLUMNS.map((c) => `f.${c} AS f_${c}`).join(", ")}`;
var col = (c) => isFlightColumn(c) ? `(${overFlight(c)})` : overFlight(c);
var located = /* @__PURE__ */ new WeakMap();
function whereIs(item) {
  return located.get(item) ?? null;
}
function numOf(item) {
  const w = located.get(item);
  if (!w) throw new Error(`item ${item.batchId}/${item.id} was not read by this store`);
  return w.batchNum;
}
function flatRow(r, batchId) {
  const flying = r.f_item_key !== null && r.f_item_key !== void 0;
  const out = { batch_id: batchId };
  for (const [k, v] of Object.entries(r)) if (!k.startsWith("f_")) out[k] = v;
  if (flying) layFlight(out, r, "f_");
  return out;
}
function itemFromJoined(r, batchId) {
  const row = flatRow(r, batchId);
  const item = itemFromRow(row);
  const flying = r.f_item_key !== null && r.f_item_key !== void 0;
  located.set(item, { key: Number(r.key), batchNum: Number(r.batch_num), flying, row });
  return item;
}
function itemFromParts(batchId, r, f) {
  const i = { ...r, batch_id: batchId };
  const item = itemFromRow(f ? layFlight({ ...i }, f) : i);
  located.set(item, { key: Number(i.key), batchNum: Number(r.batch_num), flying: f !== null, row: i });
  return item;
}
function statesWhere(arg, states) {
  const rows = storedStates(states);
  if (!rows.includes(IN_FLIGHT_MARK)) return `i.state = ANY(${arg(rows)})`;
  const exact = `${col("state")} = ANY(${arg(states)})`;
  if (states.includes(IN_FLIGHT_MARK)) return `(i.state = ANY(${arg(rows)}) AND ${exact})`;
  const flying = states.filter((s) => ACTIVE_STATES.includes(s));
  return `(${exact} AND ((i.state = ANY(${arg(states)}) AND i.state <> 'queued')
    OR i.key = ANY(ARRAY(SELECT item_key FROM flights WHERE state = ANY(${arg(flying)})))))`;
}

// src/store/postgres/batch-load.ts
var CHUNK = 500;
function metaText(it) {
  return typeof it.meta === "string" ? it.meta : JSON.stringify(it.meta);
}
async function insertBatch(c, b, clock) {
  const now = isoNow(clock);
  const spendsWith = b.spendsWith === void 0 ? null : spendsWithNum(b.spendsWith, (await c.query(`SELECT ${spendsWithSql("$1")} AS n`, [b.spendsWith])).rows[0]?.n);
  try {
    const r = await c.query(
      `INSERT INTO batches (id, name, kind, source_path, source_sha256, base_url, settings, policy, created_at, updated_at, spends_with)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10) RETURNING num`,
      [b.id, b.name, b.kind, b.sourcePath, b.sourceSha256, b.baseUrl, settingsText(b.settings), b.policy == null ? null : JSON.stringify(b.policy), now, spendsWith]
    );
    return Number(r.rows[0].num);
  } catch (e) {
    if (e.code === "23505") throw new BatchExistsError(`batch "${b.name}" exists`);
    throw e;
  }
}
async function insertItems(c, batchNum, items, now) {
  const refused = [];
  for (let i = 0; i < items.length; i += CHUNK) {
    const chunk = items.slice(i, i + CHUNK);
    const values = [batchNum];
    const rows = chunk.map((it, k) => {
      values.push(it.id, it.seq, it.line, it.question, it.threadKey, metaText(it), it.expectedJson ?? null, now);
      const b = k * 8 + 1;
      return `($1, $${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}, $${b + 8})`;
    });
    const r = await c.query(
      `INSERT INTO items (batch_num, id, seq, line, question, thread_key, meta, expected, updated_at) VALUES ${rows.join(", ")}
       ON CONFLICT (batch_num, id) DO NOTHING RETURNING seq`,
      values
    );
    if (r.rowCount === chunk.length) continue;
    const stored2 = new Set(r.rows.map((x) => x.seq));
    for (const it of chunk) {
      if (stored2.has(it.seq)) continue;
      const first = await c.query("SELECT line FROM items WHERE batch_num = $1 AND id = $2", [batchNum, it.id]);
      refused.push({ item: it, firstLine: first.rows[0].line });
    }
  }
  return refused;
}
async function beginBatchLoad(pool, batch, clock = systemClock) {
  const c = await pool.connect();
  c.on("error", () => {
  });
  const now = isoNow(clock);
  let n = 0;
  let buffer = [];
  const end = transactionEnd(c);
  let num;
  try {
    await c.query(beginSql(pool));
    num = await insertBatch(c, batch, clock);
  } catch (e) {
    await end("ROLLBACK");
    throw e;
  }
  const flush = async () => {
    const rows = buffer;
    buffer = [];
    const refused = rows.length ? await insertItems(c, num, rows, now) : [];
    n += rows.length - refused.length;
    return refused;
  };
  return {
    add: async (item) => {
      buffer.push(item);
      return buffer.length >= CHUNK ? flush() : [];
    },
    addColumns: async (cols, seq0) => {
      for (let k = 0; k < cols.ids.length; k++)
        buffer.push({ id: cols.ids[k], seq: seq0 + k, line: cols.lines[k], question: cols.questions[k], threadKey: cols.threads[k] ?? null, meta: cols.metas[k], expectedJson: cols.expecteds?.[k] ?? null });
      return flush();
    },
    flush,
    commit: async (invalid, sourceSha256) => {
      if ((await flush()).length) throw new Error("batch load: duplicate ids left unreported (call flush before commit)");
      await c.query("UPDATE batches SET total_items = $1, invalid_rows = $2, source_sha256 = coalesce($3, source_sha256), updated_at = $4 WHERE id = $5", [
        n,
        JSON.stringify(invalid),
        sourceSha256 ?? null,
        isoNow(clock),
        batch.id
      ]);
      await end("COMMIT");
      return n;
    },
    rollback: async () => end("ROLLBACK")
  };
}
async function loadModelBatch(c, batch, model, rows, clock = systemClock) {
  const num = await insertBatch(c, batch, clock);
  await c.query("INSERT INTO model_batches (batch_num, model_id, mode, description) VALUES ($1, $2, $3, $4)", [num, model.modelId, model.mode, JSON.stringify(model.description)]);
  const now = isoNow(clock);
  await insertItems(c, num, rows.map((r, seq) => ({ id: r.id, seq, line: r.line, question: JSON.stringify(r.inputs), threadKey: null, meta: r.meta })), now);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const values = [num];
    const tuples = chunk.map((r, k) => {
      values.push(r.id, model.modelId, JSON.stringify(r.inputs));
      return `($1, $${k * 3 + 2}, $${k * 3 + 3}, $${k * 3 + 4})`;
    });
    await c.query(`INSERT INTO model_runs (batch_num, item_id, model_id, inputs) VALUES ${tuples.join(", ")}`, values);
  }
  await c.query("UPDATE batches SET total_items = $1, invalid_rows = $2, updated_at = $3 WHERE id = $4", [rows.length, "[]", isoNow(clock), batch.id]);
}
async function updateBatchSettings(c, id, settings, policy, baseUrl, clock = systemClock) {
  await c.query("UPDATE batches SET settings = $1, policy = $2, base_url = $3, updated_at = $4 WHERE id = $5", [
    settingsText(settings),
    policy == null ? null : JSON.stringify(policy),
    baseUrl,
    isoNow(clock),
    id
  ]);
}

// src/store/postgres/batch-append.ts
async function beginBatchAppend(pool, batchId, clock = systemClock) {
  const c = await pool.connect();
  c.on("error", () => {
  });
  const end = transactionEnd(c);
  let next;
  let num;
  try {
    await c.query(beginSql(pool));
    num = Number((await c.query("SELECT num FROM batches WHERE id = $1 FOR UPDATE", [batchId])).rows[0]?.num);
    const r = await c.query("SELECT coalesce(max(seq), -1) + 1 AS next FROM items WHERE batch_num = $1", [num]);
    next = Number(r.rows[0].next);
  } catch (e) {
    await end("ROLLBACK");
    throw e;
  }
  const now = isoNow(clock);
  let kept = 0;
  let appended = 0;
  return {
    addColumns: async (cols) => {
      const found = await c.query(
        // index items_by_id
        'SELECT id, line, question, thread_key AS "threadKey", meta FROM items WHERE batch_num = $1 AND id = ANY($2::text[])',
        [num, cols.ids]
      );
      const stored2 = new Map(found.rows.map((row) => [row.id, row]));
      const plan = planAppend(cols, (id) => stored2.get(id), next);
      next = plan.next;
      kept += plan.kept;
      if (plan.fresh.length > 0) {
        if ((await insertItems(c, num, plan.fresh, now)).length > 0) throw duplicateInAppend();
        appended += plan.fresh.length;
      }
      return plan.changed;
    },
    tally: () => ({ kept, appended }),
    commit: async (invalid, sourceSha256) => {
      await c.query("UPDATE batches SET total_items = total_items + $1, invalid_rows = $2, source_sha256 = $3, updated_at = $4 WHERE id = $5", [
        appended,
        JSON.stringify(invalid),
        sourceSha256,
        isoNow(clock),
        batchId
      ]);
      await end("COMMIT");
      return { kept, appended };
    },
    rollback: async () => end("ROLLBACK")
  };
}
async function appendItems(c, batchId, cols, clock = systemClock) {
  const row = (await c.query("SELECT num FROM batches WHERE id = $1 FOR NO KEY UPDATE", [batchId])).rows[0];
  if (!row) throw new Error(`batch ${batchId} not found`);
  const num = Number(row.num);
  const next = Number((await c.query("SELECT coalesce(max(seq), -1) + 1 AS next FROM items WHERE batch_num = $1", [num])).rows[0].next);
  const found = await c.query('SELECT id, line, question, thread_key AS "threadKey", meta FROM items WHERE batch_num = $1 AND id = ANY($2::text[])', [num, cols.ids]);
  const stored2 = new Map(found.rows.map((row2) => [row2.id, row2]));
  const plan = planAppend(cols, (id) => stored2.get(id), next);
  if (plan.fresh.length === 0) return { appended: 0 };
  const now = isoNow(clock);
  if ((await insertItems(c, num, plan.fresh, now)).length > 0) throw duplicateInAppend();
  await c.query("UPDATE batches SET total_items = total_items + $1, updated_at = $2 WHERE id = $3", [plan.fresh.length, now, batchId]);
  return { appended: plan.fresh.length };
}

// src/store/postgres/claims.ts
import { randomUUID } from "node:crypto";
var { all: all2, one: one2, scalar: scalar2, exec } = prepared;
var IN_FLIGHT = `SELECT count(*) FROM flights WHERE batch_num = $1 AND ${runGoing()}`;
var isoOf = (col2) => `to_char(to_timestamp(${col2} / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
async function inFlight(c, num, ended = []) {
  if (ended.length === 0) return scalar2(c, IN_FLIGHT, [num]);
  return scalar2(c, `${IN_FLIGHT} AND item_key NOT IN (SELECT key FROM items WHERE batch_num = $1 AND id = ANY($2))`, [num, ended]);
}
async function register(c, batchId, w, now) {
  const id = `${w.host}:${w.pid}:${randomUUID().slice(0, 8)}`;
  const pidStart = w.pidStart ?? null;
  const at = await scalar2(
    c,
    `INSERT INTO workers (id, batch_num, host, pid, pid_start, started_at, heartbeat_at)
     SELECT $1, ${batchNumOf("$2")}, $3, $4, $6, ${isoOf("t")}, t
       FROM (SELECT ${dbNow("$5")} AS t) n RETURNING heartbeat_at`,
    [id, batchId, w.host, w.pid, now, pidStart]
  );
  return { id, batchId, host: w.host, pid: w.pid, pidStart, startedAt: new Date(at).toISOString(), heartbeatAt: at, items: 0 };
}
async function heartbeat(c, lease, now) {
  await exec(c, `UPDATE workers SET heartbeat_at = ${dbNow("$1")} WHERE id = $2`, [now, lease.workerId]);
  await exec(c, `UPDATE flights SET lease_until = ${dbNow("$1")} + $3 WHERE owner = $2`, [now, lease.workerId, lease.leaseMs]);
  const b = await one2(
    c,
    "SELECT b.cancelled_at, b.cap_limit FROM workers w JOIN batches b ON b.num = w.batch_num WHERE w.id = $1",
    [lease.workerId]
  );
  return { cancelled: (b?.cancelled_at ?? null) !== null, capLimit: b?.cap_limit ?? null };
}
async function setCapLimit(c, batchId, capLimit) {
  await c.query("UPDATE batches SET cap_limit = $1 WHERE id = $2", [capLimit, batchId]);
}
async function retire(c, workerId, now) {
  await exec(c, "UPDATE flights SET owner = NULL, lease_until = 0 WHERE owner = $1", [workerId]);
  await exec(
    c,
    `UPDATE workers SET stopped_at = ${isoOf("t")}, heartbeat_at = t
     FROM (SELECT ${dbNow("$1")} AS t) n WHERE id = $2`,
    [now, workerId]
  );
}
async function live(c, batchId, staleMs, now) {
  const rows = await all2(
    c,
    // index workers_for_live
    `SELECT w.*, $1::text AS batch_id, (SELECT count(*) FROM flights f WHERE f.owner = w.id) AS n FROM workers w
     WHERE w.batch_num = ${batchNumOf("$1")} AND w.stopped_at IS NULL AND w.heartbeat_at >= ${dbNow("$2")} - $3 ORDER BY w.started_at`,
    [batchId, now, staleMs]
  );
  return rows.map(workerFromRow);
}
async function ownAll(c, items, lease, now) {
  if (items.length === 0) return [];
  const rows = await all2(
    c,
    `UPDATE flights f SET owner = $2, lease_until = ${dbNow("$3")} + $4, fence = f.fence + 1, updated_at = $5
     FROM unnest($1::bigint[]) AS v(key) WHERE f.item_key = v.key RETURNING f.*`,
    [items.map((it) => whereIs(it).key), lease.workerId, now, lease.leaseMs, stamp(now)]
  );
  if (rows.length !== items.length) throw new Error(`takeover wrote ${rows.length} of ${items.length} flights`);
  const byKey = new Map(rows.map((f) => [Number(f.item_key), f]));
  return items.map((it) => {
    const f = byKey.get(Number(whereIs(it).key));
    return { ...it, state: f.state, owner: f.owner, leaseUntil: Number(f.lease_until), fence: Number(f.fence), updatedAt: f.updated_at };
  });
}
var SUBMITTED = flightSelect({
  state: "'submitting'",
  owner: "$4",
  lease_until: `${dbNow("$5")} + $8`,
  updated_at: "$3",
  pending_key: "v.key",
  thread_id: "v.thread",
  started_at: "coalesce(i.started_at, $3)",
  fence: "i.fence + 1"
});
async function submitAll(c, batchId, num, items, threads, lease, now) {
  if (items.length === 0) return [];
  const keys = items.map((it) => idempotencyKey(it.batchId, it.id, it.step, it.attempt));
  const rows = await all2(
    c,
    `WITH flown AS (
       INSERT INTO flights (item_key, batch_num, ${FLIGHT_COLUMNS.join(", ")})
       SELECT i.key, $2, ${SUBMITTED}
       FROM unnest($1::bigint[], $6::text[], $7::text[]) AS v(item_key, key, thread) JOIN items i ON i.key = v.item_key RETURNING *)
     SELECT row_to_json(i) AS i, row_to_json(flown) AS f FROM flown JOIN items i ON i.key = flown.item_key`,
    [items.map((it) => whereIs(it).key), num, stamp(now), lease.workerId, now, keys, items.map((it) => threads.get(it.id) ?? null), lease.leaseMs]
  );
  return rows.map((r) => itemFromParts(batchId, r.i, r.f)).sort((a, b) => a.seq - b.seq);
}
async function threadOf(c, it) {
  return it.threadKey ? await scalar2(c, "SELECT thread_id FROM threads WHERE batch_num = $1 AND thread_key = $2", [numOf(it), it.threadKey]) ?? null : null;
}
async function claim(c, batchId, req, now) {
  const b = await one2(c, "SELECT num, cancelled_at, cap_limit FROM batches WHERE id = $1 FOR NO KEY UPDATE", [batchId]);
  if (!b) return { items: [], cursor: req.afterSeq, fresh: 0, inFlight: 0, cancelled: false };
  const count = await inFlight(c, b.num, req.ended ?? []);
  if (b.cancelled_at !== null) return { items: [], cursor: req.afterSeq, fresh: 0, inFlight: count, cancelled: true };
  const budget = new ClaimBudget(req, effectiveCap(req.cap, b.cap_limit), count);
  const out = [];
  const states = takeOverStates(req);
  if (states.length > 0) {
    const orphans = await all2(
      c,
      // Never an item the claimer holds itself (see the SQLite adapter's claims.ts). The
      // flights of the batch (index flights_for_claim), their item rows locked.
      `SELECT ${ITEM_COLS} FROM flights f JOIN items i ON i.key = f.item_key
       WHERE f.batch_num = $1 AND f.state = ANY($2)
         AND (f.owner IS NULL OR (f.lease_until < ${dbNow("$3")} AND f.owner <> $5))
       ORDER BY i.seq LIMIT $4 FOR NO KEY UPDATE OF i SKIP LOCKED`,
      [b.num, states, now, req.max + (req.skip?.length ?? 0), req.workerId]
    );
    const taken = pickOrphans(orphans.map((r) => itemFromJoined(r, batchId)), req.skip, req.max).filter((it) => budget.takeOrphan(it));
    for (const it of await ownAll(c, taken, req, now)) out.push(it);
  }
  let cursor = req.afterSeq;
  let passed = 0;
  const taking = [];
  const threads = /* @__PURE__ */ new Map();
  scan: while (budget.roomForQueued) {
    const rows = await all2(
      c,
      // index items_for_claim; a queued item has no flights row (its flight's key looked up).
      `SELECT i.* FROM items i WHERE i.batch_num = $1 AND i.seq > $2 AND ${queuedRow()} ORDER BY i.seq LIMIT $3 FOR NO KEY UPDATE SKIP LOCKED`,
      [b.num, cursor, queuedPageSize(budget.wantQueued, passed + 8)]
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      if (!budget.roomForQueued) break scan;
      cursor = row.seq;
      const it = itemFromJoined(row, batchId);
      if (it.threadKey && await hasUnfinishedBefore(c, b.num, it.threadKey, it.seq)) {
        passed++;
        continue;
      }
      if (it.threadKey) threads.set(it.id, await threadOf(c, it));
      taking.push(it);
      budget.takeQueued();
    }
  }
  out.push(...await submitAll(c, batchId, b.num, taking, threads, req, now));
  if (out.length > 0) await alive(c, req.workerId, now);
  return { items: out, cursor, fresh: budget.fresh, inFlight: budget.inFlight, cancelled: false };
}
async function claimNextInThread(c, batchId, threadKey, afterSeq, req, now) {
  const b = await one2(c, "SELECT num, cancelled_at, cap_limit FROM batches WHERE id = $1 FOR NO KEY UPDATE", [batchId]);
  if (!b || b.cancelled_at !== null) return null;
  const row = await one2(
    c,
    // index items_for_thread_claim
    `SELECT i.* FROM items i WHERE i.batch_num = $1 AND i.thread_key = $2 AND i.seq > $3 AND ${queuedRow()} ORDER BY i.seq LIMIT 1 FOR NO KEY UPDATE SKIP LOCKED`,
    [b.num, threadKey, afterSeq]
  );
  if (!row) return null;
  const next = itemFromJoined(row, batchId);
  if (await hasUnfinishedBefore(c, b.num, threadKey, next.seq)) return null;
  if (await inFlight(c, b.num) >= effectiveCap(req.cap, b.cap_limit)) return null;
  await alive(c, req.workerId, now);
  const [taken] = await submitAll(c, batchId, b.num, [next], /* @__PURE__ */ new Map([[next.id, await threadOf(c, next)]]), req, now);
  return taken ?? null;
}
async function alive(c, workerId, now) {
  await exec(c, `UPDATE workers SET heartbeat_at = t FROM (SELECT ${dbNow("$1")} AS t) n WHERE id = $2 AND heartbeat_at < t`, [now, workerId]);
}
async function release(c, batchId, itemId, workerId, fence) {
  await exec(
    c,
    `UPDATE flights SET owner = NULL, lease_until = 0
     WHERE item_key = (SELECT key FROM items WHERE batch_num = ${batchNumOf("$1")} AND id = $2) AND owner = $3 AND fence = coalesce($4, fence)`,
    [batchId, itemId, workerId, fence ?? null]
  );
}
async function cancel(c, batchId, now) {
  const at = stamp(now);
  await exec(c, "UPDATE batches SET cancelled_at = coalesce(cancelled_at, $1) WHERE id = $2", [at, batchId]);
  return (await exec(c, `UPDATE items SET state = 'cancelled', finished_at = $1, updated_at = $1 WHERE batch_num = ${batchNumOf("$2")} AND ${queuedRow("items")}`, [at, batchId])).rowCount ?? 0;
}
async function requeue(c, batchId, ids, states, at) {
  const picked = ids ? await all2(c, `SELECT id, state FROM items WHERE batch_num = ${batchNumOf("$1")} AND id = ANY($2) ORDER BY seq`, [batchId, ids]) : await all2(c, `SELECT id, state FROM items WHERE batch_num = ${batchNumOf("$1")} AND state = ANY($2) ORDER BY seq`, [batchId, states]);
  const wanted = picked.filter((p) => states.includes(p.state)).map((p) => p.id);
  const back = wanted.length === 0 ? [] : await all2(
    c,
    `UPDATE items SET state = 'queued', attempt = attempt + 1, step = 0, pending_key = NULL, pending_answer = NULL, run_id = NULL,
       run_status = NULL, text = NULL, error = NULL, hold_reason = NULL, finished_at = NULL, owner = NULL, lease_until = NULL,
       thread_id = CASE WHEN thread_key IS NULL THEN NULL ELSE thread_id END, updated_at = $1
     WHERE batch_num = ${batchNumOf("$2")} AND id = ANY($3) AND state IN ${sqlStates(TERMINAL_STATES)} RETURNING id, seq`,
    [at, batchId, wanted]
  );
  const done = back.sort((a, b) => a.seq - b.seq).map((r) => r.id);
  if (done.length > 0) await exec(c, "UPDATE batches SET cancelled_at = NULL WHERE id = $1", [batchId]);
  return done;
}
async function hasUnfinishedBefore(c, num, threadKey, seq) {
  return await one2(c, `SELECT 1 FROM items WHERE batch_num = $1 AND thread_key = $2 AND seq < $3 AND state IN ${UNFINISHED_ROWS} LIMIT 1`, [num, threadKey, seq]) !== null;
}

// src/store/postgres/decisions.ts
var { exec: exec2 } = prepared;
async function insertDecision(c, item, d, nextKey, clock = systemClock) {
  const added = await exec2(
    c,
    `INSERT INTO decisions (batch_num, item_id, run_id, tool, input, answer, by, person, reason, cost, decided_at, respond_key, over_budget)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (batch_num, run_id) DO NOTHING`,
    [numOf(item), item.id, d.runId, d.tool, JSON.stringify(d.input), JSON.stringify(d.answer), d.by, d.person ?? null, d.reason, recordedCost(d.cost), isoNow(clock), nextKey, d.overBudget === true]
  );
  return added.rowCount === 1;
}
async function decisionForRun(c, item, runId) {
  const row = (await exec2(c, "SELECT d.*, $1::text AS batch_id FROM decisions d WHERE d.batch_num = $2 AND d.run_id = $3", [item.batchId, numOf(item), runId])).rows[0];
  return row ? decisionFromRow(row) : null;
}
async function approvedCost(c, batchId) {
  return keptTotal((await exec2(c, `SELECT coalesce((SELECT approved FROM batch_spend WHERE batch_num = ${batchNumOf("$1")}), 0) AS c`, [batchId])).rows[0].c);
}
async function budgetSpent(c, batchId) {
  return keptTotal((await exec2(c, groupSpendSql("id = $1"), [batchId])).rows[0]?.c);
}
async function decisionsForItem(c, batchId, itemId) {
  return (await all(c, `SELECT d.*, $1::text AS batch_id FROM decisions d WHERE d.batch_num = ${batchNumOf("$1")} AND d.item_id = $2 ORDER BY d.id`, [batchId, itemId])).map(decisionFromRow);
}

// src/store/postgres/migrations/lock.ts
var MIGRATION_LOCK = 7431902118;

// src/store/postgres/migrations/001-schema.ts
var SCHEMA_001 = `
      CREATE TABLE batches (
        id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL DEFAULT 'runs',
        source_path TEXT NOT NULL, source_sha256 TEXT NOT NULL, base_url TEXT,
        settings TEXT NOT NULL DEFAULT '{}', policy TEXT, total_items INTEGER NOT NULL DEFAULT 0,
        invalid_rows TEXT NOT NULL DEFAULT '[]', created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
        cancelled_at TEXT, cap_limit INTEGER);
      CREATE TABLE items (
        batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE, id TEXT NOT NULL,
        seq INTEGER NOT NULL, line INTEGER NOT NULL, question TEXT NOT NULL, thread_key TEXT,
        meta TEXT NOT NULL DEFAULT '{}', state TEXT NOT NULL DEFAULT 'queued', step INTEGER NOT NULL DEFAULT 0,
        pending_key TEXT, pending_answer TEXT, run_id TEXT, thread_id TEXT, run_status TEXT, text TEXT,
        error TEXT, hold_reason TEXT, started_at TEXT, finished_at TEXT, updated_at TEXT NOT NULL,
        owner TEXT, lease_until BIGINT, attempt INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (batch_id, id));
      CREATE UNIQUE INDEX items_seq ON items(batch_id, seq);
      CREATE INDEX items_state ON items(batch_id, state, seq) WHERE state <> 'queued';
      CREATE INDEX items_queued ON items(batch_id, seq) WHERE state = 'queued';
      CREATE INDEX items_thread ON items(batch_id, thread_key, seq) WHERE thread_key IS NOT NULL;
      CREATE INDEX items_active ON items(batch_id, state, owner, lease_until) WHERE state IN ('submitting', 'running', 'waiting');
      CREATE INDEX items_owner ON items(owner) WHERE owner IS NOT NULL;
      CREATE TABLE threads (
        batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE, thread_key TEXT NOT NULL,
        thread_id TEXT NOT NULL, PRIMARY KEY (batch_id, thread_key));
      CREATE TABLE runs (
        ord BIGSERIAL, id TEXT PRIMARY KEY, batch_id TEXT NOT NULL, item_id TEXT NOT NULL, step INTEGER NOT NULL,
        parent_run_id TEXT, idempotency_key TEXT NOT NULL, status TEXT NOT NULL, thread_id TEXT,
        required_action TEXT, output TEXT, created_at TEXT NOT NULL, finished_at TEXT,
        FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE);
      CREATE INDEX runs_item ON runs(batch_id, item_id, ord);
      CREATE TABLE decisions (
        id BIGSERIAL PRIMARY KEY, batch_id TEXT NOT NULL, item_id TEXT NOT NULL, run_id TEXT NOT NULL,
        tool TEXT NOT NULL, input TEXT NOT NULL, answer TEXT NOT NULL, by TEXT NOT NULL CHECK (by IN ('policy', 'person')),
        reason TEXT, cost DOUBLE PRECISION NOT NULL DEFAULT 0, decided_at TEXT NOT NULL,
        FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE);
      CREATE INDEX decisions_item ON decisions(batch_id, item_id);
      CREATE TABLE files (
        ord BIGSERIAL, batch_id TEXT NOT NULL, id TEXT NOT NULL, item_id TEXT NOT NULL, run_id TEXT NOT NULL,
        tool TEXT, role TEXT, name TEXT, url TEXT NOT NULL, media_type TEXT, first_seen_at TEXT NOT NULL,
        expires_at TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'pending', path TEXT, bytes BIGINT, sha256 TEXT,
        error TEXT, host TEXT, PRIMARY KEY (batch_id, id),
        FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE);
      CREATE INDEX files_status ON files(batch_id, status);
      CREATE INDEX files_item ON files(batch_id, item_id, ord);
      CREATE TABLE model_batches (
        batch_id TEXT PRIMARY KEY REFERENCES batches(id) ON DELETE CASCADE, model_id TEXT NOT NULL,
        mode TEXT, description TEXT NOT NULL);
      CREATE TABLE model_runs (
        batch_id TEXT NOT NULL, item_id TEXT NOT NULL, model_id TEXT NOT NULL, inputs TEXT NOT NULL, mode TEXT,
        idempotency_key TEXT, submits INTEGER NOT NULL DEFAULT 0, model_run_id TEXT, http_status INTEGER,
        status TEXT, poll_url TEXT, outputs TEXT, error TEXT, credits DOUBLE PRECISION, polls INTEGER NOT NULL DEFAULT 0,
        submitted_at TEXT, admitted_at TEXT, finished_at TEXT, PRIMARY KEY (batch_id, item_id),
        FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE);
      CREATE TABLE workers (
        id TEXT PRIMARY KEY, batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE, host TEXT NOT NULL,
        pid INTEGER NOT NULL, started_at TEXT NOT NULL, heartbeat_at BIGINT NOT NULL, stopped_at TEXT);
      CREATE INDEX workers_batch ON workers(batch_id, heartbeat_at);
    `;

// src/store/postgres/migrations/012-item-counts.ts
var ITEM_COUNTS_012 = `
      LOCK TABLE items IN SHARE ROW EXCLUSIVE MODE;
      CREATE TABLE item_counts (
        batch_id TEXT NOT NULL, state TEXT NOT NULL, slot INTEGER NOT NULL, n BIGINT NOT NULL,
        PRIMARY KEY (batch_id, state, slot));
      INSERT INTO item_counts (batch_id, state, slot, n) SELECT batch_id, state, 0, count(*) FROM items GROUP BY batch_id, state;
      CREATE FUNCTION item_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO item_counts (batch_id, state, slot, n)
          SELECT batch_id, state, pg_backend_pid(), count(*) FROM added GROUP BY batch_id, state
          ON CONFLICT (batch_id, state, slot) DO UPDATE SET n = item_counts.n + excluded.n;
        RETURN NULL;
      END $$;
      CREATE FUNCTION item_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO item_counts (batch_id, state, slot, n)
          SELECT batch_id, state, pg_backend_pid(), -count(*) FROM removed GROUP BY batch_id, state
          ON CONFLICT (batch_id, state, slot) DO UPDATE SET n = item_counts.n + excluded.n;
        RETURN NULL;
      END $$;
      CREATE FUNCTION item_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO item_counts (batch_id, state, slot, n)
          SELECT batch_id, state, pg_backend_pid(), sum(d) FROM (
            SELECT batch_id, state, -1 AS d FROM before_rows UNION ALL SELECT batch_id, state, 1 FROM after_rows) t
          GROUP BY batch_id, state HAVING sum(d) <> 0
          ON CONFLICT (batch_id, state, slot) DO UPDATE SET n = item_counts.n + excluded.n;
        RETURN NULL;
      END $$;
      CREATE TRIGGER item_counts_insert AFTER INSERT ON items REFERENCING NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION item_counts_added();
      CREATE TRIGGER item_counts_delete AFTER DELETE ON items REFERENCING OLD TABLE AS removed
        FOR EACH STATEMENT EXECUTE FUNCTION item_counts_removed();
      CREATE TRIGGER item_counts_update AFTER UPDATE ON items REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
        FOR EACH STATEMENT EXECUTE FUNCTION item_counts_moved();
    `;

// src/store/postgres/migrations/017-outbox.ts
var OUTBOX_017 = `
  CREATE TABLE outbox (
    id BIGSERIAL PRIMARY KEY,
    batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    item_id TEXT, run_id TEXT, reason TEXT,
    data TEXT NOT NULL DEFAULT '{}',
    created_at BIGINT NOT NULL,
    due_at BIGINT NOT NULL DEFAULT 0,
    owner TEXT, lease_until BIGINT, fence BIGINT NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    delivered TEXT NOT NULL DEFAULT '[]',
    last_error TEXT, last_error_at BIGINT, sent_at BIGINT);
  
  CREATE UNIQUE INDEX outbox_key ON outbox(batch_id, key);
  CREATE INDEX outbox_due ON outbox(due_at, id) WHERE status = 'pending';
  CREATE INDEX outbox_kind ON outbox(batch_id, type, status, created_at);
  
  CREATE OR REPLACE FUNCTION outbox_item_moved() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE n integer;
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM batches WHERE id = NEW.batch_id AND settings::jsonb ? 'notify') THEN RETURN NULL; END IF;
    IF NEW.state = 'held' THEN
      INSERT INTO outbox (batch_id, key, type, status, item_id, run_id, reason, created_at)
      VALUES (NEW.batch_id, 'held:' || NEW.id || ':' || coalesce(NEW.run_id, ''), 'item.held', 'fact', NEW.id, NEW.run_id, NEW.hold_reason, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
      ON CONFLICT (batch_id, key) DO NOTHING;
    ELSIF NEW.state IN ('completed', 'failed', 'error', 'cancelled') AND OLD.state NOT IN ('completed', 'failed', 'error', 'cancelled') THEN
      PERFORM 1 FROM batches WHERE id = NEW.batch_id FOR NO KEY UPDATE;
      IF NOT EXISTS (SELECT 1 FROM items WHERE batch_id = NEW.batch_id AND state = 'queued')
         AND NOT EXISTS (SELECT 1 FROM items WHERE batch_id = NEW.batch_id AND state <> 'queued' AND state IN ('queued', 'submitting', 'running', 'waiting', 'held', 'flight')) THEN
        SELECT count(*) INTO n FROM outbox WHERE batch_id = NEW.batch_id AND type = 'batch.finished';
        INSERT INTO outbox (batch_id, key, type, status, created_at)
        VALUES (NEW.batch_id, 'finished:' || n, 'batch.finished', 'pending', (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
        ON CONFLICT (batch_id, key) DO NOTHING;
      END IF;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER outbox_item_moved AFTER UPDATE OF state ON items FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state AND (NEW.state = 'held' OR NEW.state IN ('completed', 'failed', 'error', 'cancelled')))
    EXECUTE FUNCTION outbox_item_moved();
  CREATE FUNCTION outbox_budget() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE budget numeric; total numeric; pct integer;
  BEGIN
    SELECT (policy::jsonb #>> '{confirm_scope,batch_budget}')::numeric INTO budget FROM batches
      WHERE id = NEW.batch_id AND settings::jsonb ? 'notify' FOR NO KEY UPDATE;
    IF budget IS NULL OR budget <= 0 THEN RETURN NULL; END IF;
    SELECT coalesce(sum(cost), 0) INTO total FROM decisions WHERE batch_id = NEW.batch_id;
    FOREACH pct IN ARRAY ARRAY[80, 100] LOOP
      IF total >= budget * pct / 100.0 THEN
        INSERT INTO outbox (batch_id, key, type, status, data, created_at)
        VALUES (NEW.batch_id, 'budget:' || pct, 'budget.reached', 'pending',
                json_build_object('share', pct, 'budget', budget, 'approved', total)::text, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
        ON CONFLICT (batch_id, key) DO NOTHING;
      END IF;
    END LOOP;
    RETURN NULL;
  END $$;
  CREATE TRIGGER outbox_budget AFTER INSERT ON decisions FOR EACH ROW WHEN (NEW.cost > 0) EXECUTE FUNCTION outbox_budget();`;

// src/store/postgres/migrations/019-lean-items.ts
var LEAN_ITEMS_019 = `
      LOCK TABLE items IN SHARE ROW EXCLUSIVE MODE;
      ALTER TABLE batches ADD COLUMN num BIGINT GENERATED BY DEFAULT AS IDENTITY;
      -- batch id -> num, read once per batch by the adapter (cached: never renumbered).
      CREATE UNIQUE INDEX batches_by_num ON batches(num);
      ALTER TABLE items ADD COLUMN key BIGINT GENERATED BY DEFAULT AS IDENTITY;
      -- The join of an item to its flights row (every read of an item, flights' foreign key).
      CREATE UNIQUE INDEX items_by_key ON items(key);
      CREATE TABLE flights (
        item_key BIGINT PRIMARY KEY REFERENCES items(key) ON DELETE CASCADE,
        batch_num BIGINT NOT NULL, state TEXT NOT NULL, owner TEXT, fence BIGINT NOT NULL, lease_until BIGINT,
        pending_key TEXT, pending_answer TEXT, run_id TEXT, thread_id TEXT, run_status TEXT, text TEXT,
        step INTEGER NOT NULL, hold_reason TEXT, updated_at TEXT NOT NULL) WITH (fillfactor = 70);
      -- claims.ts: the runs in flight (the cap), the orphans a claim takes over; counts.ts: the
      -- states in flight. The batch alone (at most its concurrency rows each): no column a
      -- transition changes is indexed, so a step in flight is a HOT update (room left on each
      -- page, fillfactor 70) that writes no index entry at all.
      CREATE INDEX flights_for_claim ON flights(batch_num);
      -- claims.ts: a worker's heartbeat, retirement and live-worker count (its items by owner;
      -- the owner changes on a claim, a takeover and a release only).
      CREATE INDEX flights_for_owner ON flights(owner) WHERE owner IS NOT NULL;
      INSERT INTO flights (item_key, batch_num, state, owner, fence, lease_until, pending_key, pending_answer, run_id,
                           thread_id, run_status, text, step, hold_reason, updated_at)
        SELECT i.key, b.num, i.state, i.owner, i.fence, i.lease_until, i.pending_key, i.pending_answer, i.run_id,
               i.thread_id, i.run_status, i.text, i.step, i.hold_reason, i.updated_at
        FROM items i JOIN batches b ON b.id = i.batch_id WHERE i.state IN ('submitting', 'running', 'waiting');
      -- Their rows take the mark of an item in flight (src/store/common/flights.ts): the state is the flight's.
      UPDATE items SET state = 'flight' WHERE state IN ('submitting', 'running', 'waiting');
      DROP INDEX items_active;
      DROP INDEX items_owner;
      -- The batch's integer key on every item row (set by every insert), so the readers' indexes
      -- carry 8 bytes per entry, not the 36-character batch id. batch_id stays on the row: the
      -- key (batch_id, id) that runs, decisions and files reference, and one item's lookups.
      ALTER TABLE items ADD COLUMN batch_num BIGINT;
      DROP INDEX items_seq, items_queued, items_thread, items_state, items_updated, items_finished;
      -- The fill changes no state: the counts' trigger would only read every row twice for nothing.
      ALTER TABLE items DISABLE TRIGGER item_counts_update;
      UPDATE items i SET batch_num = b.num FROM batches b WHERE b.id = i.batch_id;
      ALTER TABLE items ENABLE TRIGGER item_counts_update;
      ALTER TABLE items ALTER COLUMN batch_num SET NOT NULL;
      -- batch-append.ts: the next seq; reads.ts / item-pages.ts / models.ts / summaries.ts: a batch's items in file order.
      CREATE UNIQUE INDEX items_seq ON items(batch_num, seq);
      -- claims.ts: the next queued items in file order (claim), cancel's queued items.
      CREATE INDEX items_for_claim ON items(batch_num, seq) WHERE state = 'queued';
      -- claims.ts: a thread's next item (claimNextInThread) and whether an earlier one is unfinished (hasUnfinishedBefore).
      CREATE INDEX items_for_thread_claim ON items(batch_num, thread_key, seq) WHERE thread_key IS NOT NULL;
      -- reads.ts / item-pages.ts / claims.ts (requeue): the items of some states, in file order.
      CREATE INDEX items_for_state_pages ON items(batch_num, state, seq) WHERE state <> 'queued';
      -- item-pages.ts: the web view's sort by latest change (the item row's writes only); outbox.ts: the last change.
      CREATE INDEX items_for_web_sort ON items(batch_num, updated_at, seq) WHERE state <> 'queued';
      -- item-pages.ts: the web view's rate (first and last finish); reads.ts: the latest finishes.
      CREATE INDEX items_for_rate ON items(batch_num, finished_at) WHERE finished_at IS NOT NULL;
      
  CREATE OR REPLACE FUNCTION outbox_item_moved() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE n integer;
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM batches WHERE id = NEW.batch_id AND settings::jsonb ? 'notify') THEN RETURN NULL; END IF;
    IF NEW.state = 'held' THEN
      INSERT INTO outbox (batch_id, key, type, status, item_id, run_id, reason, created_at)
      VALUES (NEW.batch_id, 'held:' || NEW.id || ':' || coalesce(NEW.run_id, ''), 'item.held', 'fact', NEW.id, NEW.run_id, NEW.hold_reason, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
      ON CONFLICT (batch_id, key) DO NOTHING;
    ELSIF NEW.state IN ('completed', 'failed', 'error', 'cancelled') AND OLD.state NOT IN ('completed', 'failed', 'error', 'cancelled') THEN
      PERFORM 1 FROM batches WHERE id = NEW.batch_id FOR NO KEY UPDATE;
      IF NOT EXISTS (SELECT 1 FROM items WHERE batch_num = NEW.batch_num AND state = 'queued')
         AND NOT EXISTS (SELECT 1 FROM items WHERE batch_num = NEW.batch_num AND state <> 'queued' AND state IN ('queued', 'submitting', 'running', 'waiting', 'held', 'flight')) THEN
        SELECT count(*) INTO n FROM outbox WHERE batch_id = NEW.batch_id AND type = 'batch.finished';
        INSERT INTO outbox (batch_id, key, type, status, created_at)
        VALUES (NEW.batch_id, 'finished:' || n, 'batch.finished', 'pending', (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
        ON CONFLICT (batch_id, key) DO NOTHING;
      END IF;
    END IF;
    RETURN NULL;
  END $$;
    `;

// src/store/postgres/migrations/020-batch-num-keys.ts
var BATCH_NUM_KEYS_020 = `
  LOCK TABLE batches, flights, items, threads, runs, decisions, files, file_copies, model_batches, model_runs, workers, item_counts, outbox IN ACCESS EXCLUSIVE MODE;
  
  ALTER TABLE threads ADD COLUMN batch_num BIGINT;
       UPDATE threads x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE runs ADD COLUMN batch_num BIGINT;
       UPDATE runs x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE decisions ADD COLUMN batch_num BIGINT;
       UPDATE decisions x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE files ADD COLUMN batch_num BIGINT;
       UPDATE files x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE file_copies ADD COLUMN batch_num BIGINT;
       UPDATE file_copies x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE model_batches ADD COLUMN batch_num BIGINT;
       UPDATE model_batches x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE model_runs ADD COLUMN batch_num BIGINT;
       UPDATE model_runs x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE workers ADD COLUMN batch_num BIGINT;
       UPDATE workers x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE item_counts ADD COLUMN batch_num BIGINT;
       UPDATE item_counts x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  ALTER TABLE outbox ADD COLUMN batch_num BIGINT;
       UPDATE outbox x SET batch_num = b.num FROM batches b WHERE b.id = x.batch_id;
  -- Counts of a batch deleted by hand (item_counts has no foreign key, see 012): nothing reads them.
  DELETE FROM item_counts WHERE batch_num IS NULL;
  ALTER TABLE threads ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE runs ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE decisions ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE files ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE file_copies ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE model_batches ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE model_runs ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE workers ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE item_counts ALTER COLUMN batch_num SET NOT NULL;
  ALTER TABLE outbox ALTER COLUMN batch_num SET NOT NULL;

  -- The view of 016 reads decisions.batch_id: made again below, by batch_num.
  DROP VIEW decision_log;
  -- Each batch_id dropped with the keys, foreign keys and indexes on it, children first (a
  -- child's foreign key goes with its own column, so no parent's key is still referenced).
  ALTER TABLE outbox DROP COLUMN batch_id;
  ALTER TABLE item_counts DROP COLUMN batch_id;
  ALTER TABLE workers DROP COLUMN batch_id;
  ALTER TABLE model_runs DROP COLUMN batch_id;
  ALTER TABLE model_batches DROP COLUMN batch_id;
  ALTER TABLE file_copies DROP COLUMN batch_id;
  ALTER TABLE files DROP COLUMN batch_id;
  ALTER TABLE decisions DROP COLUMN batch_id;
  ALTER TABLE runs DROP COLUMN batch_id;
  ALTER TABLE threads DROP COLUMN batch_id;
  ALTER TABLE items DROP COLUMN batch_id;

  -- The keys. An item by its id (flights.ts getItem, claims.ts release / requeue, batch-append.ts
  -- the duplicates), and the key its children reference.
  ALTER TABLE items ADD CONSTRAINT items_by_id PRIMARY KEY (batch_num, id);
  ALTER TABLE items ADD FOREIGN KEY (batch_num) REFERENCES batches(num) ON DELETE CASCADE;
  -- claims.ts threadOf (a thread's id), transitions.ts markAdmitted (the upsert).
  ALTER TABLE threads ADD CONSTRAINT threads_by_key PRIMARY KEY (batch_num, thread_key);
  ALTER TABLE threads ADD FOREIGN KEY (batch_num) REFERENCES batches(num) ON DELETE CASCADE;
  ALTER TABLE runs ADD FOREIGN KEY (batch_num, item_id) REFERENCES items(batch_num, id) ON DELETE CASCADE;
  -- reads.ts runChain / aggregates (an item's runs in order); summaries.ts, item-pages.ts (a batch's runs).
  CREATE INDEX runs_for_item ON runs(batch_num, item_id, ord);
  ALTER TABLE decisions ADD FOREIGN KEY (batch_num, item_id) REFERENCES items(batch_num, id) ON DELETE CASCADE;
  -- reads.ts decisionsForItem / aggregates (an item's decisions); summaries.ts (a batch's).
  CREATE INDEX decisions_for_item ON decisions(batch_num, item_id);
  -- transitions.ts decisionForRun and answer's ON CONFLICT: one decision per paused run.
  CREATE UNIQUE INDEX decisions_for_run ON decisions(batch_num, run_id);
  -- files.ts getFile, postgres-store.ts markFileDownloaded / markFileStatus, transitions.ts recordFile's ON CONFLICT.
  ALTER TABLE files ADD CONSTRAINT files_by_id PRIMARY KEY (batch_num, id);
  ALTER TABLE files ADD FOREIGN KEY (batch_num, item_id) REFERENCES items(batch_num, id) ON DELETE CASCADE;
  -- files.ts filesForBatch by status, fileCounts, expiryReport (a batch's files by status).
  CREATE INDEX files_for_status ON files(batch_num, status);
  -- files.ts filesForItem / reads.ts aggregates (an item's files in order).
  CREATE INDEX files_of_item ON files(batch_num, item_id, ord);
  -- postgres-store.ts recordFileCopy's ON CONFLICT; files.ts fileCopies (a batch's copies).
  ALTER TABLE file_copies ADD CONSTRAINT file_copies_by_file PRIMARY KEY (batch_num, file_id, host);
  ALTER TABLE file_copies ADD FOREIGN KEY (batch_num, file_id) REFERENCES files(batch_num, id) ON DELETE CASCADE;
  -- models.ts modelBatch, postgres-store.ts setModelMode.
  ALTER TABLE model_batches ADD CONSTRAINT model_batches_by_batch PRIMARY KEY (batch_num);
  ALTER TABLE model_batches ADD FOREIGN KEY (batch_num) REFERENCES batches(num) ON DELETE CASCADE;
  -- models.ts modelRun / modelRuns, transitions.ts the model run's updates.
  ALTER TABLE model_runs ADD CONSTRAINT model_runs_by_item PRIMARY KEY (batch_num, item_id);
  ALTER TABLE model_runs ADD FOREIGN KEY (batch_num, item_id) REFERENCES items(batch_num, id) ON DELETE CASCADE;
  ALTER TABLE workers ADD FOREIGN KEY (batch_num) REFERENCES batches(num) ON DELETE CASCADE;
  -- claims.ts live (a batch's live workers by heartbeat).
  CREATE INDEX workers_for_live ON workers(batch_num, heartbeat_at);
  -- counts.ts itemCounts (a batch's kept counts) and the counts' triggers' upserts. No foreign
  -- key, as in 012: the batch's delete writes the counts of its items as they go.
  ALTER TABLE item_counts ADD CONSTRAINT item_counts_by_state PRIMARY KEY (batch_num, state, slot);
  ALTER TABLE outbox ADD FOREIGN KEY (batch_num) REFERENCES batches(num) ON DELETE CASCADE;
  -- outbox.ts addEvent and the outbox triggers' ON CONFLICT: one event a key.
  CREATE UNIQUE INDEX outbox_for_key ON outbox(batch_num, key);
  -- outbox.ts collateHeld (facts, digests, reminders), state (pending, last error); the
  -- trigger's count of batch.finished events.
  CREATE INDEX outbox_for_kind ON outbox(batch_num, type, status, created_at);
  -- reads.ts recentFinishes (ORDER BY finished_at DESC, seq DESC): the latest ends read in the
  -- index's order, not a sort of every item that ended at one time (800,000 in the serve bench);
  -- item-pages.ts batchLive's span (min and max finished_at).
  DROP INDEX items_for_rate;
  CREATE INDEX items_for_rate ON items(batch_num, finished_at, seq) WHERE finished_at IS NOT NULL;

  CREATE VIEW decision_log AS
    SELECT b.name AS batch, d.item_id, d.tool, d.answer, d.by, d.person,
           CASE WHEN d.by = 'person' THEN d.reason ELSE (d.answer::jsonb ->> 'note') END AS note,
           d.cost, CASE WHEN d.by = 'policy' THEN d.reason END AS reason, d.decided_at
    FROM decisions d JOIN batches b ON b.num = d.batch_num;

  
  CREATE OR REPLACE FUNCTION item_counts_added() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
        INSERT INTO item_counts (batch_num, state, slot, n)
          SELECT batch_num, state, pg_backend_pid(), count(*) FROM added GROUP BY batch_num, state
          ON CONFLICT (batch_num, state, slot) DO UPDATE SET n = item_counts.n + excluded.n;
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION item_counts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
        INSERT INTO item_counts (batch_num, state, slot, n)
          SELECT batch_num, state, pg_backend_pid(), -count(*) FROM removed GROUP BY batch_num, state
          ON CONFLICT (batch_num, state, slot) DO UPDATE SET n = item_counts.n + excluded.n;
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION item_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO item_counts (batch_num, state, slot, n)
      SELECT batch_num, state, pg_backend_pid(), sum(d) FROM (
        SELECT batch_num, state, -1 AS d FROM before_rows UNION ALL SELECT batch_num, state, 1 FROM after_rows) t
      GROUP BY batch_num, state HAVING sum(d) <> 0
      ON CONFLICT (batch_num, state, slot) DO UPDATE SET n = item_counts.n + excluded.n;
    RETURN NULL;
  END $$;
  
  CREATE OR REPLACE FUNCTION outbox_item_moved() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE n integer;
  BEGIN
    IF NOT EXISTS (SELECT 1 FROM batches WHERE num = NEW.batch_num AND settings::jsonb ? 'notify') THEN RETURN NULL; END IF;
    IF NEW.state = 'held' THEN
      INSERT INTO outbox (batch_num, key, type, status, item_id, run_id, reason, created_at)
      VALUES (NEW.batch_num, 'held:' || NEW.id || ':' || coalesce(NEW.run_id, ''), 'item.held', 'fact', NEW.id, NEW.run_id, NEW.hold_reason, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
      ON CONFLICT (batch_num, key) DO NOTHING;
    ELSIF NEW.state IN ('completed', 'failed', 'error', 'cancelled') AND OLD.state NOT IN ('completed', 'failed', 'error', 'cancelled') THEN
      PERFORM 1 FROM batches WHERE num = NEW.batch_num FOR NO KEY UPDATE;
      IF NOT EXISTS (SELECT 1 FROM items WHERE batch_num = NEW.batch_num AND state = 'queued')
         AND NOT EXISTS (SELECT 1 FROM items WHERE batch_num = NEW.batch_num AND state <> 'queued' AND state IN ('queued', 'submitting', 'running', 'waiting', 'held', 'flight')) THEN
        SELECT count(*) INTO n FROM outbox WHERE batch_num = NEW.batch_num AND type = 'batch.finished';
        INSERT INTO outbox (batch_num, key, type, status, created_at)
        VALUES (NEW.batch_num, 'finished:' || n, 'batch.finished', 'pending', (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
        ON CONFLICT (batch_num, key) DO NOTHING;
      END IF;
    END IF;
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION outbox_budget() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE budget numeric; total numeric; pct integer;
  BEGIN
    SELECT (policy::jsonb #>> '{confirm_scope,batch_budget}')::numeric INTO budget FROM batches
      WHERE num = NEW.batch_num AND settings::jsonb ? 'notify' FOR NO KEY UPDATE;
    IF budget IS NULL OR budget <= 0 THEN RETURN NULL; END IF;
    SELECT coalesce((SELECT approved FROM batch_spend WHERE batch_num = NEW.batch_num), 0) INTO total;
    FOREACH pct IN ARRAY ARRAY[80, 100] LOOP
      IF total >= budget * pct / 100.0 THEN
        INSERT INTO outbox (batch_num, key, type, status, data, created_at)
        VALUES (NEW.batch_num, 'budget:' || pct, 'budget.reached', 'pending',
                json_build_object('share', pct, 'budget', budget, 'approved', total)::text, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
        ON CONFLICT (batch_num, key) DO NOTHING;
      END IF;
    END LOOP;
    RETURN NULL;
  END $$;
  
  CREATE TABLE batch_spend (
    batch_num BIGINT PRIMARY KEY REFERENCES batches(num) ON DELETE CASCADE,
    approved DOUBLE PRECISION NOT NULL DEFAULT 0);
  INSERT INTO batch_spend (batch_num, approved) SELECT batch_num, sum(cost) FROM decisions GROUP BY batch_num;
  CREATE FUNCTION batch_spend_added() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM 1 FROM batches WHERE num = NEW.batch_num FOR NO KEY UPDATE;
    INSERT INTO batch_spend (batch_num, approved) VALUES (NEW.batch_num, coalesce(NEW.cost, 0))
      ON CONFLICT (batch_num) DO UPDATE SET approved = batch_spend.approved + excluded.approved;
    RETURN NULL;
  END $$;
  CREATE TRIGGER decisions_spend AFTER INSERT ON decisions FOR EACH ROW WHEN (NEW.cost <> 0) EXECUTE FUNCTION batch_spend_added();
  CREATE FUNCTION batch_spend_removed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE batch_spend s SET approved = s.approved - r.cost
      FROM (SELECT batch_num, sum(cost) AS cost FROM removed GROUP BY batch_num) r WHERE s.batch_num = r.batch_num;
    RETURN NULL;
  END $$;
  CREATE TRIGGER decisions_unspend AFTER DELETE ON decisions REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION batch_spend_removed();
`;

// src/store/postgres/migrations/030-claim-writes-flight.ts
var CLAIM_WRITES_FLIGHT_030 = `
  ALTER TABLE flights ADD COLUMN started_at TEXT;
  UPDATE flights f SET started_at = i.started_at FROM items i WHERE i.key = f.item_key;
  UPDATE items SET state = 'queued' WHERE state = 'flight';
`;

// src/store/postgres/migrations/032-budget-group.ts
var BUDGET_GROUP_032 = `
  ALTER TABLE batches ADD COLUMN spends_with BIGINT REFERENCES batches(num) ON DELETE SET NULL;
  CREATE FUNCTION pg_temp.judge_of(settings text) RETURNS text LANGUAGE plpgsql AS $$
  BEGIN
    RETURN CASE WHEN jsonb_typeof(settings::jsonb -> 'judgeOf') = 'string' THEN settings::jsonb ->> 'judgeOf' END;
  EXCEPTION WHEN data_exception THEN
    RETURN NULL;
  END $$;
  UPDATE batches b SET spends_with = p.num FROM batches p
    WHERE b.settings LIKE '%"judgeOf"%' AND p.id = pg_temp.judge_of(b.settings) AND p.num <> b.num;
  DROP FUNCTION pg_temp.judge_of(text);
  -- budget-group.ts: the batches that spend with a group's leader.
  CREATE INDEX batches_spending_with ON batches(spends_with) WHERE spends_with IS NOT NULL;
  CREATE OR REPLACE FUNCTION outbox_budget() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE leader bigint; budget numeric; total numeric; pct integer;
  BEGIN
    SELECT coalesce(spends_with, num) INTO leader FROM batches WHERE num = NEW.batch_num;
    SELECT (policy::jsonb #>> '{confirm_scope,batch_budget}')::numeric INTO budget FROM batches
      WHERE num = leader AND settings::jsonb ? 'notify' FOR NO KEY UPDATE;
    IF budget IS NULL OR budget <= 0 THEN RETURN NULL; END IF;
    SELECT coalesce(sum(s.approved), 0) INTO total FROM batches m JOIN batch_spend s ON s.batch_num = m.num
      WHERE m.num = leader OR m.spends_with = leader;
    FOREACH pct IN ARRAY ARRAY[80, 100] LOOP
      IF total >= budget * pct / 100.0 THEN
        INSERT INTO outbox (batch_num, key, type, status, data, created_at)
        VALUES (leader, 'budget:' || pct, 'budget.reached', 'pending',
                json_build_object('share', pct, 'budget', budget, 'approved', total)::text, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
        ON CONFLICT (batch_num, key) DO NOTHING;
      END IF;
    END LOOP;
    RETURN NULL;
  END $$;
`;

// src/store/postgres/migrations.ts
var migrations = [
  {
    name: "001_schema",
    sql: SCHEMA_001
  },
  {
    // Who answered a pause: the person's name beside by = 'person' (the web view and `answer --by`).
    name: "007_decision_person",
    sql: "ALTER TABLE decisions ADD COLUMN person TEXT;"
  },
  {
    // A failure says why: the service's error code and message on the failed run and its item.
    name: "008_error_codes",
    sql: `
      ALTER TABLE items ADD COLUMN error_code TEXT;
      ALTER TABLE runs ADD COLUMN error_code TEXT;
      ALTER TABLE runs ADD COLUMN error TEXT;
    `
  },
  {
    // Copies of downloaded files on other hosts (`files pull` on a machine that lacks them).
    name: "009_file_copies",
    sql: `
      CREATE TABLE file_copies (
        batch_id TEXT NOT NULL, file_id TEXT NOT NULL, host TEXT NOT NULL, path TEXT NOT NULL,
        bytes BIGINT NOT NULL, sha256 TEXT NOT NULL, copied_at TEXT NOT NULL,
        PRIMARY KEY (batch_id, file_id, host),
        FOREIGN KEY (batch_id, file_id) REFERENCES files(batch_id, id) ON DELETE CASCADE);
    `
  },
  {
    // The web view's items table sorted by latest change (started items only).
    name: "010_web_items_updated",
    sql: `CREATE INDEX items_updated ON items(batch_id, updated_at, seq) WHERE state <> 'queued';`
  },
  {
    // The web view's rate: the first and last finish and their count read from an index.
    name: "011_web_items_finished",
    sql: `CREATE INDEX items_finished ON items(batch_id, finished_at) WHERE finished_at IS NOT NULL;`
  },
  {
    // Counts by state kept beside the items (issue 22): counting a 1,000,000-item batch's items
    // for its overview took 392 ms. Triggers keep them exact on every insert, delete and change
    // of state, whichever path makes it. Many workers change one batch's items at once, so each
    // server backend adds its changes to rows of its own (slot = its pid; a reader sums the
    // slots): two transactions running together never write the same count row, so a count
    // never makes one wait for another and can take part in no deadlock. No foreign key to
    // batches: its check would lock the batch row (KEY SHARE) from inside a transition. Every
    // trigger counts once per statement (transition tables), never once per row: a row written
    // again and again in one transaction leaves a version chain that each next write walks
    // (a per-row trigger took minutes to cancel 100,000 queued items in one statement).
    // Writers are held off while the rows are filled from the items already here (the lock).
    name: "012_item_counts",
    sql: ITEM_COUNTS_012
  },
  {
    // Issue 28: fenced ownership and one decision per paused run (as the SQLite adapter's 014).
    name: "014_fencing",
    sql: `
      ALTER TABLE items ADD COLUMN fence BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE decisions ADD COLUMN respond_key TEXT;
      DELETE FROM decisions d WHERE EXISTS (
        SELECT 1 FROM decisions e WHERE e.batch_id = d.batch_id AND e.run_id = d.run_id AND e.id < d.id);
      CREATE UNIQUE INDEX decisions_run ON decisions(batch_id, run_id);
    `
  },
  {
    // The start identity of a worker's process (as in the SQLite adapter: see its migration 015).
    name: "015_worker_pid_start",
    sql: "ALTER TABLE workers ADD COLUMN pid_start TEXT;"
  },
  {
    // Who decided, in a view a lead reads (as the SQLite adapter's decision_log: see its 016).
    name: "016_decision_log_person",
    sql: `
      CREATE VIEW decision_log AS
        SELECT b.name AS batch, d.item_id, d.tool, d.answer, d.by, d.person,
               CASE WHEN d.by = 'person' THEN d.reason ELSE (d.answer::jsonb ->> 'note') END AS note,
               d.cost, CASE WHEN d.by = 'policy' THEN d.reason END AS reason, d.decided_at
        FROM decisions d JOIN batches b ON b.id = d.batch_id;
    `
  },
  {
    // Issue 31: events for a batch's receivers (as the SQLite adapter's 017: migrations/017-outbox.ts).
    name: "017_outbox",
    sql: OUTBOX_017
  },
  {
    // Issue 32: an item's life in flight in a narrow table of its own (migrations/019-lean-items.ts).
    name: "019_lean_items",
    sql: LEAN_ITEMS_019
  },
  {
    // Issue 32: the batch's integer key in every table but batches (its id stays the public
    // one), each index named for its reader, and the approved cost kept running (migrations/020-batch-num-keys.ts).
    name: "020_batch_num_keys",
    sql: BATCH_NUM_KEYS_020
  },
  {
    // Issue 37: a person's approval that took the batch past its budget, as they confirmed (as the SQLite adapter's 021).
    name: "021_decision_over_budget",
    sql: "ALTER TABLE decisions ADD COLUMN over_budget BOOLEAN NOT NULL DEFAULT false;"
  },
  {
    // Issue 37.4: a notify command lives only in the process whose command line gave it; the
    // store keeps the fact that a sender with one serves a batch, and a stored command is dropped.
    name: "023_notify_command_local",
    sql: `
      CREATE TABLE notify_commands (
        batch_num BIGINT NOT NULL REFERENCES batches(num) ON DELETE CASCADE,
        owner TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL, until_ms BIGINT NOT NULL,
        PRIMARY KEY (batch_num, owner));
      UPDATE batches SET settings = ((settings::jsonb) #- '{notify,command}')::text WHERE (settings::jsonb) -> 'notify' ? 'command';
    `
  },
  {
    // Issue 37.6: the identity (device and inode, as decimal text) of a downloaded file as
    // written, so the web view serves only that file; null for files downloaded before.
    name: "024_file_identity",
    sql: "ALTER TABLE files ADD COLUMN disk_dev TEXT; ALTER TABLE files ADD COLUMN disk_ino TEXT;"
  },
  {
    // Issue 37.5: resq serve's sessions and one-time login codes, by their SHA-256 digests only
    // (never a raw id or code), so a sign-out or an expiry holds across restarts and servers. Times in ms.
    name: "025_web_sessions",
    sql: `
      CREATE TABLE web_sessions (
        id_digest TEXT PRIMARY KEY, created_at BIGINT NOT NULL, last_seen_at BIGINT NOT NULL, ended_at BIGINT);
      -- web-sessions.ts: the sessions long unused, dropped when one opens.
      CREATE INDEX web_sessions_for_purge ON web_sessions(last_seen_at);
      CREATE TABLE web_login_codes (
        code_digest TEXT PRIMARY KEY, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, spent_at BIGINT);
      -- web-sessions.ts: the codes long expired, dropped when one is added.
      CREATE INDEX web_login_codes_for_purge ON web_login_codes(expires_at);
    `
  },
  {
    // How long a run took: the service's own times when it sends them, else resq's, and NULL
    // for a run that ended while no resq watched (found ended on a resume): in no statistic.
    // Runs recorded before keep resq's own measure.
    name: "026_run_service_times",
    sql: `
      ALTER TABLE runs ADD COLUMN seconds DOUBLE PRECISION;
      ALTER TABLE runs ADD COLUMN unwatched INTEGER NOT NULL DEFAULT 0;
      UPDATE runs SET seconds = greatest(0, round(extract(epoch from (finished_at::timestamptz - created_at::timestamptz))::numeric, 3))::float8
        WHERE finished_at IS NOT NULL;
    `
  },
  {
    // Issue 38.3: a file is claimed before it is fetched (owner, fencing token, lease end in ms),
    // so workers on any machines fetch each file once. The holder's host, pid and process start
    // identity let a claimer on that host take a dead holder's claim over at once (as items).
    name: "027_file_claims",
    sql: `
      ALTER TABLE files ADD COLUMN claim_owner TEXT;
      ALTER TABLE files ADD COLUMN claim_fence BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE files ADD COLUMN claim_until BIGINT;
      ALTER TABLE files ADD COLUMN claim_host TEXT;
      ALTER TABLE files ADD COLUMN claim_pid INTEGER;
      ALTER TABLE files ADD COLUMN claim_pid_start TEXT;
    `
  },
  {
    // Issue 38.5: every forecast resq forecast made, so the next says how far off the last one of a batch was.
    name: "028_forecasts",
    sql: `
      CREATE TABLE forecasts (
        seq BIGSERIAL PRIMARY KEY, made_at TEXT NOT NULL, file_path TEXT NOT NULL, file_sha256 TEXT NOT NULL,
        for_batch_id TEXT, learned_from TEXT NOT NULL, questions INTEGER NOT NULL,
        cost_estimate DOUBLE PRECISION, cost_low DOUBLE PRECISION, cost_high DOUBLE PRECISION,
        held_estimate DOUBLE PRECISION, held_low DOUBLE PRECISION, held_high DOUBLE PRECISION);
      -- forecasts.ts: the last forecast of a batch, by the batch or by its file's content.
      CREATE INDEX forecasts_for_batch ON forecasts(for_batch_id, made_at);
      CREATE INDEX forecasts_by_file ON forecasts(file_sha256, made_at);
    `
  },
  {
    // Issue 40.1-2: an item's expected answer (JSON text, apart from meta), and each scorer's
    // verdict per item and scorer version (pass 1, 0 or NULL: unscored). The item is keyed by its
    // seq (unique in its batch, never changed), so a batch's verdicts are written and read in key order.
    name: "029_expected_and_verdicts",
    sql: `
      ALTER TABLE items ADD COLUMN expected TEXT;
      CREATE TABLE verdicts (
        batch_num BIGINT NOT NULL REFERENCES batches(num) ON DELETE CASCADE,
        seq INTEGER NOT NULL, item_id TEXT NOT NULL, scorer TEXT NOT NULL, version TEXT NOT NULL,
        pass INTEGER, score DOUBLE PRECISION, reason TEXT NOT NULL, scored_at TEXT NOT NULL, by TEXT NOT NULL,
        PRIMARY KEY (batch_num, seq, scorer, version));
      -- scores.ts: each scorer's counts (totals).
      CREATE INDEX verdicts_for_totals ON verdicts(batch_num, scorer, version, pass);
    `
  },
  {
    // Issue 39.5: a claim writes the item's flight alone (see migrations/030-claim-writes-flight.ts).
    name: "030_claim_writes_flight",
    sql: CLAIM_WRITES_FLIGHT_030
  },
  {
    // Issue 40.4: a batch may spend with another's budget, an agent judge's with the batch it judges (see migrations/032-budget-group.ts).
    name: "032_budget_group",
    sql: BUDGET_GROUP_032
  }
];
async function underLock(client, fn) {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    const out = await fn();
    await client.query("COMMIT");
    return out;
  } catch (e) {
    await client.query("ROLLBACK");
    throw e;
  }
}
async function migrate(client, list = migrations, onUpgrade) {
  const done = await underLock(client, async () => {
    await client.query("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
    return new Set((await client.query("SELECT name FROM _migrations")).rows.map((r) => r.name));
  });
  const pending = list.filter((m) => !done.has(m.name));
  if (done.size > 0 && pending.length > 0) onUpgrade?.(pending.map((m) => m.name));
  const applied = [];
  for (const m of pending) {
    const ran = await underLock(client, async () => {
      if ((await client.query("SELECT 1 FROM _migrations WHERE name = $1", [m.name])).rowCount) return false;
      await client.query(m.sql);
      await client.query("INSERT INTO _migrations (name, applied_at) VALUES ($1, $2)", [m.name, isoNow()]);
      return true;
    });
    if (ran) applied.push(m.name);
  }
  return applied;
}

// src/store/postgres/reads.ts
async function findBatch(c, nameOrId) {
  const r = await one(c, "SELECT * FROM batches WHERE name = $1 OR id = $1 LIMIT 1", [nameOrId]);
  return r ? batchFromRow(r) : null;
}
async function listBatches(c, kind) {
  const rows = kind ? await all(c, "SELECT * FROM batches WHERE kind = $1 ORDER BY created_at DESC, id DESC", [kind]) : await all(c, "SELECT * FROM batches ORDER BY created_at DESC, id DESC");
  return rows.map(batchFromRow);
}
async function latestBatch(c, kind) {
  return (await listBatches(c, kind))[0] ?? null;
}
async function listItems(c, batchId, f = {}) {
  const where = [`i.batch_num = ${batchNumOf("$1")}`, "i.seq > $2"];
  const args = [batchId, f.afterSeq ?? -1];
  const arg = (v) => {
    args.push(v);
    return `$${args.length}`;
  };
  if (f.states) where.push(statesWhere(arg, f.states));
  if (f.runStatusOtherThan !== void 0) where.push(`${col("run_status")} IS NOT NULL AND ${col("run_status")} <> ${arg(f.runStatusOtherThan)}`);
  const limit = f.limit ? ` LIMIT ${Math.floor(f.limit)}` : "";
  return (await all(c, `SELECT ${ITEM_COLS} FROM ${ITEMS_FROM} WHERE ${where.join(" AND ")} ORDER BY i.seq${limit}`, args)).map((r) => itemFromJoined(r, batchId));
}
async function threadWaits(c, batchId, limit, o = {}) {
  const one4 = o.itemId === void 0 ? [] : [o.itemId];
  const sql = (item) => threadWaitsSql(batchNumOf("$1"), { item: one4.length ? item : void 0, heldOnly: o.heldOnly });
  const [counts, rows] = await Promise.all([
    all(c, `SELECT behind_state AS state, COUNT(*) AS n FROM (${sql("$2")}) w GROUP BY behind_state`, [batchId, ...one4]),
    limit > 0 ? all(c, `SELECT * FROM (${sql("$3")}) w ORDER BY seq LIMIT $2`, [batchId, limit, ...one4]) : Promise.resolve([])
  ]);
  return threadWaitsOf(counts, rows);
}
async function recentFinishes(c, batchId, limit) {
  const latest = `SELECT id, finished_at FROM items WHERE batch_num = ${batchNumOf("$1")} AND finished_at IS NOT NULL AND state IN ${sqlStates(ENDED_STATES)}
                    AND NOT EXISTS (SELECT 1 FROM runs u WHERE u.batch_num = items.batch_num AND u.item_id = items.id AND u.unwatched = 1)
                  ORDER BY finished_at DESC, seq DESC LIMIT $2`;
  const items = await all(c, latest, [batchId, limit]);
  const runs = items.length === 0 ? [] : await all(
    c,
    `SELECT created_at AS "createdAt", finished_at AS "finishedAt" FROM runs
     WHERE batch_num = ${batchNumOf("$1")} AND finished_at IS NOT NULL AND item_id = ANY($2::text[])`,
    [batchId, items.map((r) => r.id)]
  );
  return { finishedAt: items.map((r) => r.finished_at), runs };
}
async function getRun(c, id) {
  const r = await one(c, "SELECT r.*, b.id AS batch_id FROM runs r JOIN batches b ON b.num = r.batch_num WHERE r.id = $1", [id]);
  return r ? runFromRow(r) : null;
}
async function runChain(c, batchId, itemId) {
  return (await all(c, `SELECT r.*, $1::text AS batch_id FROM runs r WHERE r.batch_num = ${batchNumOf("$1")} AND r.item_id = $2 ORDER BY r.ord`, [batchId, itemId])).map(runFromRow);
}
async function aggregates(c, batchId, afterSeq, limit, states) {
  if (states && states.length === 0) return [];
  const args = [batchId, afterSeq, limit];
  const arg = (v) => {
    args.push(v);
    return `$${args.length}`;
  };
  const only = states ? ` AND ${statesWhere(arg, states)}` : "";
  const rows = await all(
    c,
    `SELECT ${ITEM_COLS},
       (SELECT json_agg(json_build_object('id', r.id, 'createdAt', r.created_at, 'finishedAt', r.finished_at, 'seconds', r.seconds) ORDER BY r.ord)
          FROM runs r WHERE r.batch_num = i.batch_num AND r.item_id = i.id) AS agg_runs,
       (SELECT json_agg(json_build_object('tool', d.tool, 'input', d.input::json, 'answer', d.answer::json, 'by', d.by, 'person', d.person,
                                          'reason', d.reason, 'cost', d.cost) ORDER BY d.id)
          FROM decisions d WHERE d.batch_num = i.batch_num AND d.item_id = i.id) AS agg_decisions,
       (SELECT json_agg(json_build_object('id', f.id, 'role', f.role, 'name', f.name, 'path', f.path, 'bytes', f.bytes,
                                          'sha256', f.sha256, 'status', f.status, 'host', f.host) ORDER BY f.ord)
          FROM files f WHERE f.batch_num = i.batch_num AND f.item_id = i.id) AS agg_files
     FROM ${ITEMS_FROM} WHERE i.batch_num = ${batchNumOf("$1")} AND i.seq > $2${only} ORDER BY i.seq LIMIT $3`,
    args
  );
  return rows.map((r) => {
    const runs = r.agg_runs ?? [];
    return {
      item: itemFromJoined(r, batchId),
      runIds: runs.map((x) => x.id),
      runTimes: runs.map((x) => ({ createdAt: x.createdAt, finishedAt: x.finishedAt, seconds: x.seconds })),
      decisions: r.agg_decisions ?? [],
      files: r.agg_files ?? []
    };
  });
}
async function metaKeys(c, batchId) {
  const rows = await all(
    c,
    `SELECT e.key FROM items i, json_each(i.meta::json) WITH ORDINALITY AS e(key, value, ord)
     WHERE i.batch_num = ${batchNumOf("$1")} GROUP BY e.key ORDER BY min(ARRAY[i.seq::bigint, e.ord])`,
    [batchId]
  );
  return rows.map((r) => r.key);
}

// src/store/postgres/file-claims.ts
var fenced = (n) => `AND claim_owner = $${n} AND claim_fence = $${n + 1}`;
async function claimFile(c, batchId, id, h, req, now) {
  const r = await one(
    c,
    `WITH t AS (SELECT ${dbNow("$5")} AS now)
     UPDATE files SET claim_owner = $3, claim_fence = claim_fence + 1, claim_until = (SELECT now FROM t) + $4::bigint,
       claim_host = $6, claim_pid = $7, claim_pid_start = $8
     WHERE batch_num = ${batchNumOf("$1")} AND id = $2 AND status <> 'downloaded'
       AND (claim_owner IS NULL OR claim_until < (SELECT now FROM t) OR (claim_owner = $9 AND claim_fence = $10))
     RETURNING claim_fence AS fence`,
    [batchId, id, h.owner, req.leaseMs, now, h.host, h.pid, h.pidStart, req.from?.owner ?? null, req.from?.fence ?? null]
  );
  return r ? { owner: h.owner, fence: Number(r.fence) } : null;
}
async function fileClaimHolder(c, batchId, id) {
  const r = await one(
    c,
    `SELECT claim_owner, claim_fence, claim_host, claim_pid, claim_pid_start FROM files WHERE batch_num = ${batchNumOf("$1")} AND id = $2 AND claim_owner IS NOT NULL`,
    [batchId, id]
  );
  return r ? { owner: r.claim_owner, fence: Number(r.claim_fence), host: r.claim_host ?? "", pid: r.claim_pid ?? 0, pidStart: r.claim_pid_start } : null;
}
async function renewFileClaim(c, batchId, id, cl, leaseMs, now) {
  const r = await c.query(`UPDATE files SET claim_until = ${dbNow("$5")} + $6::bigint WHERE batch_num = ${batchNumOf("$1")} AND id = $2 ${fenced(3)}`, [batchId, id, cl.owner, cl.fence, now, leaseMs]);
  return (r.rowCount ?? 0) > 0;
}
async function releaseFileClaim(c, batchId, id, cl) {
  const r = await c.query(`UPDATE files SET claim_owner = NULL, claim_until = NULL WHERE batch_num = ${batchNumOf("$1")} AND id = $2 ${fenced(3)}`, [batchId, id, cl.owner, cl.fence]);
  return (r.rowCount ?? 0) > 0;
}

// src/store/postgres/files.ts
var NOT_ON_DISK = "('pending', 'failed', 'missing')";
var FILE_COLS = "f.*, $1::text AS batch_id";
async function recordFile(c, num, itemId, runId, ref, seenAt, runCreatedAt) {
  await prepared.exec(
    c,
    `INSERT INTO files (batch_num, id, item_id, run_id, tool, role, name, url, first_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (batch_num, id) DO NOTHING`,
    [num, ref.id, itemId, runId, ref.tool ?? null, ref.role ?? null, ref.name ?? null, ref.url, seenAt.toISOString(), fileExpiry(seenAt, runCreatedAt).toISOString()]
  );
}
async function getFile(c, batchId, id) {
  const r = await one(c, `SELECT ${FILE_COLS} FROM files f WHERE f.batch_num = ${batchNumOf("$1")} AND f.id = $2`, [batchId, id]);
  return r ? fileFromRow(r) : null;
}
async function filesForBatch(c, batchId, statuses) {
  const rows = statuses ? await all(c, `SELECT ${FILE_COLS} FROM files f WHERE f.batch_num = ${batchNumOf("$1")} AND f.status = ANY($2) ORDER BY f.ord`, [batchId, statuses]) : await all(c, `SELECT ${FILE_COLS} FROM files f WHERE f.batch_num = ${batchNumOf("$1")} ORDER BY f.ord`, [batchId]);
  return rows.map(fileFromRow);
}
async function filesForItem(c, batchId, itemId) {
  return (await all(c, `SELECT ${FILE_COLS} FROM files f WHERE f.batch_num = ${batchNumOf("$1")} AND f.item_id = $2 ORDER BY f.ord`, [batchId, itemId])).map(fileFromRow);
}
async function fileCounts(c, batchId) {
  const out = { pending: 0, downloaded: 0, failed: 0, expired: 0, missing: 0 };
  for (const r of await all(c, `SELECT status, count(*) AS n FROM files WHERE batch_num = ${batchNumOf("$1")} GROUP BY status`, [batchId])) out[r.status] = r.n;
  return out;
}
async function filePaths(c, batchId) {
  return all(c, `SELECT id, path FROM files WHERE batch_num = ${batchNumOf("$1")} AND path IS NOT NULL`, [batchId]);
}
async function fileCopies(c, batchId) {
  const rows = await all(
    c,
    `SELECT cp.file_id AS "fileId", f.item_id AS "itemId", cp.host, cp.path, cp.bytes, cp.sha256
     FROM file_copies cp JOIN files f ON f.batch_num = cp.batch_num AND f.id = cp.file_id
     WHERE cp.batch_num = ${batchNumOf("$1")} ORDER BY f.ord, cp.host`,
    [batchId]
  );
  return rows.map((r) => ({ ...r, bytes: Number(r.bytes) }));
}
async function expiryReport(c, batchId, warnBefore) {
  const bytes = await scalar(c, `SELECT coalesce(sum(bytes), 0) FROM files WHERE batch_num = ${batchNumOf("$1")} AND status = 'downloaded'`, [batchId]);
  const soonest = await scalar(c, `SELECT min(expires_at) FROM files WHERE batch_num = ${batchNumOf("$1")} AND status IN ${NOT_ON_DISK}`, [batchId]);
  const expiring = (await all(c, `SELECT ${FILE_COLS} FROM files f WHERE f.batch_num = ${batchNumOf("$1")} AND f.status IN ${NOT_ON_DISK} AND f.expires_at <= $2 ORDER BY f.expires_at, f.ord`, [batchId, warnBefore])).map(fileFromRow);
  return { bytes, soonest: soonest ?? null, expiring };
}
async function markFileDownloaded(c, batchId, fileId, v, claim3) {
  const r = await c.query(
    `UPDATE files SET status = 'downloaded', path = $1, bytes = $2, sha256 = $3, media_type = $4, host = $5, error = NULL, disk_dev = $8, disk_ino = $9, claim_owner = NULL, claim_until = NULL
     WHERE batch_num = ${batchNumOf("$6")} AND id = $7 ${claim3 ? fenced(10) : ""}`,
    [v.path, v.bytes, v.sha256, v.mediaType, v.host, batchId, fileId, v.dev ?? null, v.ino ?? null, ...claim3 ? [claim3.owner, claim3.fence] : []]
  );
  return (r.rowCount ?? 0) > 0;
}
async function markFileStatus(c, batchId, fileId, status, error, claim3) {
  const r = await c.query(
    `UPDATE files SET status = $1, error = $2 WHERE batch_num = ${batchNumOf("$3")} AND id = $4 ${claim3 ? fenced(5) : ""}`,
    [status, error, batchId, fileId, ...claim3 ? [claim3.owner, claim3.fence] : []]
  );
  return (r.rowCount ?? 0) > 0;
}
async function recordFileCopy(c, batchId, fileId, cp, at, keep) {
  const insert = `INSERT INTO file_copies (batch_num, file_id, host, path, bytes, sha256, copied_at) SELECT ${batchNumOf("$1")}, $2, $3, $4, $5, $6, $7`;
  const r = await c.query(
    keep ? `${insert} WHERE NOT EXISTS (SELECT 1 FROM files WHERE batch_num = ${batchNumOf("$1")} AND id = $2 AND status = 'downloaded' AND host = $3) ON CONFLICT DO NOTHING` : `${insert} ON CONFLICT (batch_num, file_id, host) DO UPDATE SET path = excluded.path, bytes = excluded.bytes, sha256 = excluded.sha256, copied_at = excluded.copied_at`,
    [batchId, fileId, cp.host, cp.path, cp.bytes, cp.sha256, at]
  );
  return (r.rowCount ?? 0) > 0;
}

// src/store/postgres/flights.ts
var { one: one3 } = prepared;
async function getItem(c, batchId, id, lock = false) {
  const r = await one3(c, `SELECT ${ITEM_COLS} FROM ${ITEMS_FROM} WHERE i.batch_num = ${batchNumOf("$1")} AND i.id = $2${lock ? " FOR NO KEY UPDATE OF i" : ""}`, [batchId, id]);
  return r ? itemFromJoined(r, batchId) : null;
}
async function getItemAgain(c, item, lock = false) {
  const w = whereIs(item);
  if (!w) return getItem(c, item.batchId, item.id, lock);
  const r = await one3(c, `SELECT ${ITEM_COLS} FROM ${ITEMS_FROM} WHERE i.key = $1${lock ? " FOR NO KEY UPDATE OF i" : ""}`, [w.key]);
  return r ? itemFromJoined(r, item.batchId) : null;
}
var stored = (v) => v !== null && typeof v === "object" ? JSON.stringify(v) : v;
async function updateItem(c, batchId, id, patch, at, from) {
  let where = from ? whereIs(from) : null;
  if (!where) {
    const cur = await getItem(c, batchId, id);
    if (!cur) throw new Error(`item ${batchId}/${id} not found`);
    where = whereIs(cur);
  }
  const nextState = patch.state ?? null;
  const staysInFlight = where.flying && (nextState === null || ACTIVE_STATES.includes(nextState));
  if (staysInFlight) return patchFlight(c, batchId, id, where, patch, at, from);
  const entering = nextState !== null && ACTIVE_STATES.includes(nextState);
  const i = await landFlight(c, batchId, id, where, patch, at, entering);
  if (!entering) return itemFromParts(batchId, i, null);
  return startFlight(c, batchId, where, i, nextState);
}
async function patchFlight(c, batchId, id, where, patch, at, from) {
  const fl = Object.keys(patch).filter(isFlightColumn);
  const rest = Object.keys(patch).filter((k) => !isFlightColumn(k) && stored(patch[k]) !== where.row[k]);
  const fv = fl.map((k) => stored(patch[k]));
  const f = await one3(
    c,
    `UPDATE flights SET ${[...fl.map((k, n) => `${k} = $${n + 1}`), `updated_at = $${fl.length + 1}`].join(", ")}
     WHERE item_key = $${fl.length + 2} AND fence = coalesce($${fl.length + 3}::bigint, fence) RETURNING *`,
    [...fv, at, where.key, from?.fence ?? null]
  );
  if (!f) throw leaseLost(id, await getItem(c, batchId, id), from ?? { owner: null, fence: -1 });
  const i = rest.length ? await one3(c, `UPDATE items SET ${rest.map((k, n) => `${k} = $${n + 1}`).join(", ")} WHERE key = $${rest.length + 1} RETURNING *`, [
    ...rest.map((k) => stored(patch[k])),
    where.key
  ]) : where.row;
  return itemFromParts(batchId, i, f);
}
async function landFlight(c, batchId, id, where, patch, at, entering) {
  const values = {};
  const params = [where.key];
  const p = (v) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (where.flying) for (const k of LANDED_COLUMNS) values[k] = `gone.${k}`;
  for (const [k, v] of Object.entries(patch)) values[k] = p(entering && k === "state" ? IN_FLIGHT_MARK : stored(v));
  values.updated_at = p(at);
  const sets = Object.entries(values).map(([k, v]) => `${k} = ${v}`).join(", ");
  const i = await one3(
    c,
    where.flying ? `WITH gone AS (DELETE FROM flights WHERE item_key = $1 RETURNING *)
         UPDATE items AS i SET ${sets} FROM gone WHERE i.key = gone.item_key RETURNING i.*` : `UPDATE items AS i SET ${sets} WHERE i.key = $1 RETURNING i.*`,
    params
  );
  if (!i) throw new Error(`item ${batchId}/${id} not found`);
  return i;
}
async function startFlight(c, batchId, where, i, state2) {
  const f = await one3(
    c,
    `INSERT INTO flights (item_key, batch_num, ${FLIGHT_COLUMNS.join(", ")})
     SELECT key, batch_num, ${flightSelect({ state: "$2" })} FROM items WHERE key = $1 RETURNING *`,
    [where.key, state2]
  );
  return itemFromParts(batchId, i, f);
}

// src/store/postgres/models.ts
var { exec: exec3 } = prepared;
async function modelBatch(c, batchId) {
  const r = await one(
    c,
    `SELECT m.*, $1::text AS batch_id FROM model_batches m WHERE m.batch_num = ${batchNumOf("$1")}`,
    [batchId]
  );
  return r ? { batchId: r.batch_id, modelId: r.model_id, mode: r.mode, description: JSON.parse(r.description) } : null;
}
async function modelRun(c, batchId, itemId) {
  const r = await one(c, `SELECT m.*, $1::text AS batch_id FROM model_runs m WHERE m.batch_num = ${batchNumOf("$1")} AND m.item_id = $2`, [batchId, itemId]);
  return r ? modelRunFromRow(r) : null;
}
async function modelRuns(c, batchId, afterSeq, limit) {
  const rows = await all(
    c,
    `SELECT ${ITEM_COLS}, row_to_json(m) AS m FROM ${ITEMS_FROM} JOIN model_runs m ON m.batch_num = i.batch_num AND m.item_id = i.id
     WHERE i.batch_num = ${batchNumOf("$1")} AND i.seq > $2 ORDER BY i.seq LIMIT $3`,
    [batchId, afterSeq, limit]
  );
  return rows.map((r) => ({ item: itemFromJoined(r, batchId), run: modelRunFromRow({ ...r.m, batch_id: batchId }) }));
}
async function modelCredits(c, batchId) {
  const r = await one(
    c,
    `SELECT coalesce(sum(credits), 0) AS spent,
            sum(CASE WHEN credits IS NULL AND status IS NOT NULL AND status <> 'running' THEN 1 ELSE 0 END) AS unreported
     FROM model_runs WHERE batch_num = ${batchNumOf("$1")}`,
    [batchId]
  );
  return { spent: Number(r.spent), unreported: Number(r.unreported ?? 0) };
}
async function modelPolls(c, batchId) {
  return Number((await c.query(`SELECT coalesce(sum(polls), 0) AS n FROM model_runs WHERE batch_num = ${batchNumOf("$1")}`, [batchId])).rows[0].n);
}
async function setModelMode(c, batchId, mode) {
  await c.query(`UPDATE model_batches SET mode = $1 WHERE batch_num = ${batchNumOf("$2")}`, [mode, batchId]);
}
async function addModelPolls(c, batchId, itemId, polls) {
  if (polls > 0) await c.query(`UPDATE model_runs SET polls = polls + $1 WHERE batch_num = ${batchNumOf("$2")} AND item_id = $3`, [polls, batchId, itemId]);
}
async function markModelSubmitting(c, batchId, itemId, key, mode, resend, clock = systemClock) {
  if (resend) {
    await exec3(c, `UPDATE model_runs SET submits = submits + 1, submitted_at = $1 WHERE batch_num = ${batchNumOf("$2")} AND item_id = $3`, [isoNow(clock), batchId, itemId]);
    return;
  }
  const item = await getItem(c, batchId, itemId, true);
  await exec3(c, `UPDATE model_runs SET idempotency_key = $1, mode = $2, submits = submits + 1, submitted_at = $3 WHERE batch_num = ${batchNumOf("$4")} AND item_id = $5`, [key, mode, isoNow(clock), batchId, itemId]);
  await updateItem(c, batchId, itemId, { state: "submitting", pending_key: key, started_at: item?.startedAt ?? isoNow(clock) }, isoNow(clock), item ?? void 0);
}
async function setAdmitted(c, batchId, itemId, httpStatus, run, clock = systemClock) {
  await exec3(
    c,
    `UPDATE model_runs SET model_run_id = $1, http_status = $2, status = $3, poll_url = $4, credits = $5, admitted_at = $6 WHERE batch_num = ${batchNumOf("$7")} AND item_id = $8`,
    [run.id, httpStatus, run.status, run.pollUrl, run.credits, isoNow(clock), batchId, itemId]
  );
}
async function markModelAdmitted(c, batchId, itemId, httpStatus, run, clock = systemClock) {
  await setAdmitted(c, batchId, itemId, httpStatus, run, clock);
  await updateItem(c, batchId, itemId, { state: "running", run_id: run.id, run_status: run.status, pending_key: null }, isoNow(clock));
}
async function markModelFinished(c, batchId, itemId, run, o, clock = systemClock) {
  if (o.httpStatus !== null) await setAdmitted(c, batchId, itemId, o.httpStatus, run, clock);
  await exec3(
    c,
    `UPDATE model_runs SET status = $1, outputs = $2, error = $3, credits = $4, polls = polls + $5, finished_at = $6 WHERE batch_num = ${batchNumOf("$7")} AND item_id = $8`,
    [run.status, run.outputs == null ? null : JSON.stringify(run.outputs), run.error, run.credits, o.polls, isoNow(clock), batchId, itemId]
  );
  const seen = new Date(clock.now());
  const created = run.createdAt ? new Date(run.createdAt) : null;
  if (run.files.length > 0) {
    const num = Number((await exec3(c, `SELECT ${batchNumOf("$1")} AS n`, [batchId])).rows[0].n);
    for (const f of run.files) await recordFile(c, num, itemId, run.id, f, seen, created);
  }
  await updateItem(c, batchId, itemId, {
    state: o.failed ? "failed" : "completed",
    run_id: run.id,
    run_status: run.status,
    pending_key: null,
    error: o.failed ? run.error ?? `model run ${run.id} ended with status ${run.status}` : null,
    finished_at: isoNow(clock),
    owner: null,
    lease_until: null
  }, isoNow(clock));
}
async function markModelError(c, batchId, itemId, message, polls, clock = systemClock) {
  await exec3(c, `UPDATE model_runs SET error = $1, polls = polls + $2, finished_at = $3 WHERE batch_num = ${batchNumOf("$4")} AND item_id = $5`, [message, polls, isoNow(clock), batchId, itemId]);
  await updateItem(c, batchId, itemId, { state: "error", error: message, pending_key: null, finished_at: isoNow(clock), owner: null, lease_until: null }, isoNow(clock));
}
async function markModelUnsent(c, batchId, itemId, clock = systemClock) {
  await updateItem(c, batchId, itemId, { state: "queued", pending_key: null, owner: null, lease_until: null }, isoNow(clock));
}

// src/store/postgres/summaries.ts
var SECONDS = (a, b) => `extract(epoch from (${a}::timestamptz - ${b}::timestamptz))`;
async function itemStats(c, batchId) {
  const rows = await all(
    c,
    `SELECT i.id AS "itemId", coalesce(r.n, 0) AS runs, coalesce(r.secs, 0)::float8 AS "runSeconds",
            coalesce(d.n, 0) AS decisions, coalesce(d.cost, 0) AS "approvedCost", coalesce(f.n, 0) AS files
     FROM items i
     LEFT JOIN (SELECT item_id, count(*) AS n, CASE WHEN bool_or(finished_at IS NOT NULL AND seconds IS NULL) THEN 0 ELSE sum(coalesce(seconds, 0)) END AS secs
                FROM runs WHERE batch_num = ${batchNumOf("$1")} GROUP BY item_id) r ON r.item_id = i.id
     LEFT JOIN (SELECT item_id, count(*) AS n, sum(${trustedCostSql("cost")}) AS cost FROM decisions WHERE batch_num = ${batchNumOf("$1")} GROUP BY item_id) d ON d.item_id = i.id
     LEFT JOIN (SELECT item_id, count(*) AS n FROM files WHERE batch_num = ${batchNumOf("$1")} GROUP BY item_id) f ON f.item_id = i.id
     WHERE i.batch_num = ${batchNumOf("$1")}`,
    [batchId]
  );
  return new Map(rows.map((r) => [r.itemId, r]));
}
async function batchTotals(c, batchId) {
  const t = await one(
    c,
    // The approved cost kept running (batch_spend, 020).
    `SELECT (SELECT count(*) FROM runs WHERE batch_num = n.num) AS runs,
            (SELECT count(*) FROM decisions WHERE batch_num = n.num) AS decisions,
            coalesce((SELECT approved FROM batch_spend WHERE batch_num = n.num), 0) AS "approvedCost",
            (SELECT coalesce(sum(bytes), 0) FROM files WHERE batch_num = n.num AND status = 'downloaded') AS "fileBytes"
     FROM (SELECT ${batchNumOf("$1")} AS num) n`,
    [batchId]
  );
  return { ...t, approvedCost: keptTotal(t.approvedCost) };
}
async function itemSeconds(c, batchId) {
  const rows = await all(c, `SELECT ${SECONDS("finished_at", "started_at")}::float8 AS s FROM items i WHERE batch_num = ${batchNumOf("$1")} AND started_at IS NOT NULL AND finished_at IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM runs u WHERE u.batch_num = i.batch_num AND u.item_id = i.id AND u.unwatched = 1)`, [batchId]);
  return rows.map((r) => r.s);
}
async function runTimes2(c, batchId) {
  return all(
    c,
    `SELECT item_id AS "itemId", id AS "runId", step, status, (required_action::jsonb)->>'tool' AS tool,
            created_at AS "createdAt", finished_at AS "finishedAt", seconds, unwatched = 1 AS unwatched
     FROM runs WHERE batch_num = ${batchNumOf("$1")} ORDER BY created_at, step`,
    [batchId]
  );
}
async function batchDecisions(c, batchId) {
  const rows = await all(
    c,
    `SELECT item_id AS "itemId", tool, input, answer, by, person, reason, cost, decided_at AS "decidedAt" FROM decisions WHERE batch_num = ${batchNumOf("$1")} ORDER BY id`,
    [batchId]
  );
  return rows.map((r) => ({ ...r, input: JSON.parse(r.input), answer: JSON.parse(r.answer) }));
}
async function queryItems(c, batchId, q = {}) {
  const where = [`i.batch_num = ${batchNumOf("$1")}`];
  const args = [batchId];
  const arg = (v) => {
    args.push(v);
    return `$${args.length}`;
  };
  if (q.states) {
    if (q.states.length === 0) return [];
    where.push(statesWhere(arg, q.states));
  }
  for (const [key, want] of Object.entries(q.meta ?? {})) {
    const values = Array.isArray(want) ? want : [want];
    const parts = values.map(
      (v) => v === null ? `NOT EXISTS (SELECT 1 FROM jsonb_each(i.meta::jsonb) e WHERE e.key = ${arg(key)} AND e.value <> 'null'::jsonb)` : `EXISTS (SELECT 1 FROM jsonb_each(i.meta::jsonb) e WHERE e.key = ${arg(key)} AND e.value = ${arg(JSON.stringify(v))}::jsonb)`
    );
    where.push(parts.length ? `(${parts.join(" OR ")})` : "false");
  }
  if (q.text) {
    const t = arg(q.text.toLowerCase());
    where.push(`(${["id", "question", "text", "error", "hold_reason"].map((k) => `position(${t} in lower(coalesce(${col(k)}, ''))) > 0`).join(" OR ")})`);
  }
  const limit = q.limit !== void 0 ? ` LIMIT ${Math.max(0, Math.floor(q.limit))}` : "";
  return (await all(c, `SELECT ${ITEM_COLS} FROM ${ITEMS_FROM} WHERE ${where.join(" AND ")} ORDER BY i.seq${limit}`, args)).map((r) => itemFromJoined(r, batchId));
}
async function batchPauses(c, batchId, q = {}) {
  const rows = await all(
    c,
    `SELECT r.item_id AS "itemId", r.id AS "runId", r.step, r.required_action AS "requiredAction", r.finished_at AS "pausedAt",
            d.answer, d.by, d.person, d.reason, d.cost, d.decided_at AS "decidedAt", d.id AS "decisionSeq"
     FROM ${q.decidedBy ? `decisions d JOIN runs r ON r.id = d.run_id WHERE d.batch_num = ${batchNumOf("$1")} AND d.by = $2 AND r.required_action IS NOT NULL` : `runs r LEFT JOIN decisions d ON d.batch_num = r.batch_num AND d.run_id = r.id WHERE r.batch_num = ${batchNumOf("$1")} AND r.required_action IS NOT NULL`}
     ORDER BY r.finished_at, r.item_id, r.step`,
    q.decidedBy ? [batchId, q.decidedBy] : [batchId]
  );
  return rows.map(pauseFromRow);
}

// src/store/postgres/transitions.ts
var { exec: exec4 } = prepared;
async function current(c, item) {
  const now = await getItemAgain(c, item, true);
  if (!now || !stillHeld(now, item)) throw leaseLost(item.id, now, item);
  return now;
}
async function recordRun(c, item, run, clock = systemClock) {
  const failure = runErrorColumns(run);
  const times = runTimes(run);
  await exec4(
    c,
    `UPDATE runs SET status = $1, required_action = $2, output = $3, error_code = $4, error = $5, finished_at = $6::text, unwatched = $8::int,
       seconds = CASE WHEN $9::float8 IS NOT NULL THEN $9::float8 WHEN $8::int = 1 THEN NULL
                      ELSE greatest(0, round(extract(epoch from ($6::text::timestamptz - created_at::timestamptz))::numeric, 3))::float8 END
     WHERE id = $7`,
    [
      run.status,
      run.requiredAction == null ? null : JSON.stringify(run.requiredAction),
      run.output == null ? null : JSON.stringify(run.output),
      failure.error_code,
      failure.error,
      isoNow(clock),
      run.id,
      times.unwatched ? 1 : 0,
      times.serviceSeconds
    ]
  );
  const seen = new Date(clock.now());
  const created = run.createdAt ? new Date(run.createdAt) : null;
  for (const f of run.files) await recordFile(c, numOf(item), item.id, run.id, f, seen, created);
}
async function lockedSpend(c, item) {
  await exec4(c, `SELECT 1 FROM batches WHERE num = ${groupLeaderSql("num = $1")} FOR NO KEY UPDATE`, [numOf(item)]);
  return keptTotal((await exec4(c, groupSpendSql("num = $1"), [numOf(item)])).rows[0]?.c);
}
async function markAdmitted(c, item, run, clock = systemClock) {
  const now = await current(c, item);
  await exec4(
    c,
    `INSERT INTO runs (id, batch_num, item_id, step, parent_run_id, idempotency_key, status, thread_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
    [run.id, numOf(now), now.id, run.step, run.parentRunId, run.idempotencyKey, run.status, run.threadId, isoNow(clock)]
  );
  if (now.threadKey && run.threadId)
    await exec4(
      c,
      `INSERT INTO threads (batch_num, thread_key, thread_id) VALUES ($1, $2, $3)
       ON CONFLICT (batch_num, thread_key) DO UPDATE SET thread_id = excluded.thread_id`,
      [numOf(now), now.threadKey, run.threadId]
    );
  return updateItem(c, now.batchId, now.id, admittedPatch(now, run, UNHELD), isoNow(clock), now);
}
async function markFinished(c, item, run, state2, clock = systemClock) {
  const now = await current(c, item);
  await recordRun(c, now, run, clock);
  return updateItem(c, now.batchId, now.id, finishedPatch(now, run, state2, isoNow(clock), UNLEASED), isoNow(clock), now);
}
async function answer(c, item, d, nextKey, seen, clock = systemClock) {
  if (!await insertDecision(c, item, d, nextKey, clock)) return null;
  return updateItem(c, item.batchId, item.id, answeredPatch(item, d, nextKey, seen, UNHELD), isoNow(clock), item);
}
async function markPaused(c, item, run, decide, clock = systemClock) {
  const now = await current(c, item);
  const prior = await decisionForRun(c, now, run.id);
  if (prior) return { outcome: priorOutcome(prior, now.pendingKey ?? ""), item: now };
  await recordRun(c, now, run, clock);
  const outcome = decide(await lockedSpend(c, now));
  const seen = pauseSeen(run);
  const after = outcome.kind === "answer" ? await answer(c, now, outcome.decision, outcome.nextKey, seen, clock) : await updateItem(c, now.batchId, now.id, heldPatch(seen, outcome.reason, UNLEASED), isoNow(clock), now);
  return { outcome, item: after };
}
async function answerHeld(c, batchId, itemId, d, nextKey, clock = systemClock, budget) {
  const now = await getItem(c, batchId, itemId, true);
  if (!now || now.state !== "held") throw new ItemNotHeldError(itemId, now?.state ?? null);
  if (now.runId !== d.runId) throw new ItemNotHeldError(itemId, "held on a later pause");
  const overBudget = d.cost > 0 ? checkBudget(itemId, await lockedSpend(c, now), d.cost, budget) : false;
  if (!await answer(c, now, { ...d, overBudget }, nextKey, void 0, clock)) throw new ItemNotHeldError(itemId, "decided");
  await c.query("SELECT pg_notify($1, $2)", [ANSWERED_CHANNEL, batchId]);
  return { overBudget };
}
async function redecideHeld(c, batchId, itemId, decide, clock = systemClock) {
  const now = await getItem(c, batchId, itemId, true);
  if (!now || now.state !== "held") return { kind: "hold", reason: `item is ${now?.state ?? "gone"}` };
  const outcome = decide(await lockedSpend(c, now));
  if (outcome.kind === "answer" && !await answer(c, now, outcome.decision, outcome.nextKey, void 0, clock)) return { kind: "hold", reason: "decided already" };
  return outcome;
}
async function markError(c, batchId, itemId, message, code = null, held, clock = systemClock) {
  const now = await getItem(c, batchId, itemId, true);
  if (!now) return null;
  if (held && !stillHeld(now, held)) throw leaseLost(itemId, now, held);
  return updateItem(c, batchId, itemId, errorPatch(message, code, isoNow(clock), UNLEASED), isoNow(clock), now);
}
async function markCancelled(c, batchId, itemId, clock = systemClock) {
  const now = await getItem(c, batchId, itemId, true);
  if (!now || isTerminal(now.state)) return false;
  await updateItem(c, batchId, itemId, cancelledPatch(isoNow(clock), UNLEASED), isoNow(clock), now);
  return true;
}

// src/store/postgres/counts.ts
async function itemCounts(c, batchId) {
  const rows = await all(
    c,
    `SELECT 'kept' AS src, state, sum(n) AS n FROM item_counts WHERE batch_num = ${batchNumOf("$1")} GROUP BY state
     UNION ALL
     SELECT 'flying', state, count(*) FROM flights WHERE batch_num = ${batchNumOf("$1")} GROUP BY state`,
    [batchId]
  );
  return countsOf(rows.filter((r) => r.src === "kept"), rows.filter((r) => r.src === "flying"));
}
async function runsInFlight(c, batchId) {
  return Number(
    await scalar(
      c,
      `SELECT coalesce((SELECT sum(n) FROM item_counts WHERE batch_num = ${batchNumOf("$1")} AND state IN ${sqlStates(ACTIVE_STATES)}), 0)
         + (SELECT count(*) FROM flights WHERE batch_num = ${batchNumOf("$1")} AND ${runGoing()})`,
      [batchId]
    )
  );
}

// src/store/postgres/item-pages.ts
var on = (part) => (k) => !isFlightColumn(k) ? `i.${k}` : part === "all" ? col(k) : part === "rest" ? `i.${k}` : `f.${k}`;
function summaryCols(part) {
  const k = on(part);
  return `i.id, i.seq, ${k("state")} AS state, substr(i.question, 1, 201) AS question, substr(${k("text")}, 1, 201) AS answer, ${k("run_status")} AS run_status,
  substr(i.error, 1, 201) AS error, ${k("hold_reason")} AS hold_reason, i.meta, ${k("step")} AS step, ${k("updated_at")} AS updated_at, i.finished_at`;
}
async function itemPage(c, batchId, asked) {
  const q = readQuery(asked);
  const sort = q.sort ?? "seq";
  if (q.states && q.states.length === 0) return { items: [], next: null, prev: null };
  const dir = q.desc ? "DESC" : "ASC";
  const cmp = q.desc ? "<" : ">";
  const args = [batchId];
  const p = (v) => {
    args.push(v);
    return `$${args.length}`;
  };
  const cur = q.after ? decodeCursor(q.after) : null;
  const where = (part) => {
    const k = on(part);
    const w = [`i.batch_num = ${batchNumOf("$1")}`];
    if (q.states) w.push(part === "all" ? statesWhere(p, q.states) : `${k("state")} = ANY(${p(q.states)})`);
    if (sort === "updated" && part === "rest") w.push(`i.state <> 'queued'`);
    if (cur) {
      if (sort === "seq") w.push(`i.seq ${cmp} ${p(Number(cur.v))}`);
      else if (sort === "id") w.push(`i.id ${cmp} ${p(String(cur.v))}`);
      else w.push(`(${k("updated_at")}, i.seq) ${cmp} (${p(String(cur.v))}, ${p(cur.seq)})`);
    }
    if (q.meta) w.push(`(i.meta::jsonb ->> ${p(q.meta.key)}) = ${p(q.meta.value)}`);
    if (q.text) {
      const t = p(q.text.toLowerCase());
      w.push(`(strpos(lower(i.id), ${t}) > 0 OR strpos(lower(i.question), ${t}) > 0 OR strpos(lower(coalesce(${k("text")}, '')), ${t}) > 0)`);
    }
    if (q.verdict) w.push(verdictWhere(q.verdict, p));
    return w;
  };
  const limit = q.limit + 1;
  if (sort !== "updated") {
    const order = sort === "seq" ? `i.seq ${dir}` : `i.id ${dir}, i.seq ${dir}`;
    const rows2 = await all(c, `SELECT ${summaryCols("all")} FROM ${ITEMS_FROM} WHERE ${where("all").join(" AND ")} ORDER BY ${order} LIMIT ${limit}`, args);
    return pageOf(rows2, asked);
  }
  const rest = `SELECT ${summaryCols("rest")} FROM items i WHERE ${where("rest").join(" AND ")}
    AND NOT EXISTS (SELECT 1 FROM flights f WHERE f.item_key = i.key) ORDER BY i.updated_at ${dir}, i.seq ${dir} LIMIT ${limit}`;
  const flying = `SELECT ${summaryCols("flying")} FROM flights f JOIN items i ON i.key = f.item_key
    WHERE f.batch_num = ${batchNumOf("$1")} AND ${where("flying").join(" AND ")} ORDER BY f.updated_at ${dir}, i.seq ${dir} LIMIT ${limit}`;
  const rows = await all(c, `SELECT * FROM ((${rest}) UNION ALL (${flying})) t ORDER BY updated_at ${dir}, seq ${dir} LIMIT ${limit}`, args);
  return pageOf(rows, asked);
}
async function batchLive(c, batchId, heldLimit) {
  const [inFlight2, capRow, held, span] = await Promise.all([
    // The kept counts of the active states, less the answered items no worker has sent yet:
    // one statement (one snapshot) that reads the few waiting items, not every item in flight
    // (counting them row by row costs as many rows as runs are in flight).
    runsInFlight(c, batchId),
    one(c, "SELECT cap_limit FROM batches WHERE id = $1", [batchId]),
    all(
      c,
      `SELECT i.id, substr(i.question, 1, 201) AS question, (r.required_action::jsonb ->> 'tool') AS tool, i.hold_reason, i.updated_at
       FROM items i LEFT JOIN runs r ON r.id = i.run_id WHERE i.batch_num = ${batchNumOf("$1")} AND i.state = 'held' ORDER BY i.seq LIMIT $2`,
      [batchId, heldLimit]
    ),
    one(
      c,
      // index items_for_rate
      `SELECT (SELECT min(finished_at) FROM items WHERE batch_num = n.num AND finished_at IS NOT NULL) AS first,
              (SELECT max(finished_at) FROM items WHERE batch_num = n.num AND finished_at IS NOT NULL) AS last
       FROM (SELECT ${batchNumOf("$1")} AS num) n`,
      [batchId]
    )
  ]);
  return {
    inFlight: Number(inFlight2),
    capLimit: capRow?.cap_limit ?? null,
    held: held.map((r) => ({ id: r.id, question: cutText(r.question), tool: r.tool, holdReason: r.hold_reason, updatedAt: r.updated_at })),
    span: { first: span?.first ?? null, last: span?.last ?? null }
  };
}
async function runMinutes(c, batchId) {
  const rows = await all(
    c,
    `SELECT minute, sum(a) AS admitted, sum(f) AS finished FROM (
       SELECT substr(created_at, 1, 16) AS minute, 1 AS a, 0 AS f FROM runs WHERE batch_num = ${batchNumOf("$1")}
       UNION ALL
       SELECT substr(finished_at, 1, 16), 0, 1 FROM runs WHERE batch_num = ${batchNumOf("$1")} AND finished_at IS NOT NULL) t
     GROUP BY minute ORDER BY minute`,
    [batchId]
  );
  return rows.map((r) => ({ minute: r.minute, admitted: Number(r.admitted), finished: Number(r.finished) }));
}

// src/store/postgres/outbox.ts
async function timeOf(c, now) {
  return Number(await scalar(c, `SELECT ${dbNow("$1")}`, [now]));
}
async function addEvent(c, batchId, e, now) {
  const r = await c.query(
    // index outbox_for_key
    `INSERT INTO outbox (batch_num, key, type, status, data, created_at) VALUES (${batchNumOf("$1")}, $2, $3, 'pending', $4, ${dbNow("$5")})
     ON CONFLICT (batch_num, key) DO NOTHING`,
    [batchId, e.key, e.type, JSON.stringify(e.data), now]
  );
  return r.rowCount === 1;
}
async function addHeldEvent(c, batchId, key, facts, reminder, t) {
  await c.query(`INSERT INTO outbox (batch_num, key, type, status, data, created_at) VALUES (${batchNumOf("$1")}, $2, 'items.held', 'pending', $3, $4) ON CONFLICT (batch_num, key) DO NOTHING`, [
    batchId,
    key,
    heldEventData(facts, reminder),
    t
  ]);
  await c.query(`UPDATE outbox SET status = 'folded', due_at = $1 WHERE id = ANY($2::bigint[])`, [t, facts]);
}
async function collateHeld(c, batchId, o, now) {
  await c.query(`SELECT pg_advisory_xact_lock(hashtext('resq.outbox:' || $1))`, [batchId]);
  const t = await timeOf(c, now);
  return runHeldPlanAsync(heldPlan(o, t), async (s) => {
    switch (s.kind) {
      case "lastDigest": {
        const last = await scalar(c, `SELECT max(created_at) FROM outbox WHERE batch_num = ${batchNumOf("$1")} AND type = 'items.held' AND key LIKE 'digest:%'`, [batchId]);
        return last === null ? null : Number(last);
      }
      case "facts":
        return (await all(c, `SELECT id FROM outbox WHERE batch_num = ${batchNumOf("$1")} AND type = 'item.held' AND status = 'fact' ORDER BY id`, [batchId])).map((r) => Number(r.id));
      case "add":
        await addHeldEvent(c, batchId, s.key, s.facts, s.reminder, t);
        return void 0;
      case "dropAnswered":
        await c.query(
          `UPDATE outbox o SET status = 'done' WHERE o.batch_num = ${batchNumOf("$1")} AND o.type = 'item.held' AND o.status = 'folded'
             AND NOT EXISTS (SELECT 1 FROM items i WHERE i.batch_num = o.batch_num AND i.id = o.item_id AND i.state = 'held' AND i.run_id IS NOT DISTINCT FROM o.run_id)`,
          [batchId]
        );
        return void 0;
      case "due":
        return (await all(c, `SELECT id FROM outbox WHERE batch_num = ${batchNumOf("$1")} AND type = 'item.held' AND status = 'folded' AND due_at <= $2 ORDER BY id`, [batchId, s.before])).map((r) => Number(r.id));
    }
  });
}
async function heldOf(c, data) {
  const ids = factIds(data);
  if (ids.length === 0) return [];
  const rows = await all(
    c,
    `SELECT f.item_id, f.run_id, f.reason, f.created_at, r.required_action FROM outbox f LEFT JOIN runs r ON r.id = f.run_id WHERE f.id = ANY($1::bigint[]) ORDER BY f.id`,
    [ids]
  );
  return rows.map(heldFromRow);
}
async function claim2(c, owner, o, now) {
  if (o.batchIds?.length === 0) return [];
  const t = await timeOf(c, now);
  const rows = await all(
    c,
    // The rows keep the batch's number (020): its id joined back for the claim.
    `UPDATE outbox o SET owner = $1, lease_until = $2::bigint + $3, fence = o.fence + 1, attempts = o.attempts + 1
     FROM batches b
     WHERE b.num = o.batch_num
       AND o.id IN (SELECT id FROM outbox WHERE status = 'pending' AND due_at <= $2 AND (lease_until IS NULL OR lease_until < $2)
                    AND ($5::text[] IS NULL OR batch_num IN (SELECT num FROM batches WHERE id = ANY($5))) ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED)
     RETURNING o.*, b.id AS batch_id`,
    [owner, t, o.leaseMs, o.limit, o.batchIds ?? null]
  );
  const out = [];
  for (const r of rows.sort((a, b) => Number(a.id) - Number(b.id)))
    out.push(claimFromRow(r, r.type === "items.held" ? await heldOf(c, JSON.parse(r.data)) : []));
  return out;
}
async function settle(c, cl, out, now) {
  const r = !("retryInMs" in out) ? await c.query(`UPDATE outbox SET status = 'sent', sent_at = ${dbNow("$1")}, owner = NULL, lease_until = NULL WHERE id = $2 AND owner = $3 AND fence = $4 AND status = 'pending'`, [
    now,
    cl.row,
    cl.owner,
    cl.fence
  ]) : await c.query(
    `UPDATE outbox SET due_at = ${dbNow("$1")} + $2, last_error = $3, last_error_at = ${dbNow("$1")}, delivered = $4, attempts = attempts - $8, owner = NULL, lease_until = NULL
         WHERE id = $5 AND owner = $6 AND fence = $7 AND status = 'pending'`,
    [now, out.retryInMs, out.error, JSON.stringify(out.delivered), cl.row, cl.owner, cl.fence, out.deferred ? 1 : 0]
  );
  return r.rowCount === 1;
}
async function state(c, batchId) {
  const [n, err, changed] = await Promise.all([
    scalar(c, `SELECT count(*) FROM outbox WHERE batch_num = ${batchNumOf("$1")} AND status = 'pending'`, [batchId]),
    one(
      c,
      `SELECT last_error, last_error_at FROM outbox WHERE batch_num = ${batchNumOf("$1")} AND status = 'pending' AND last_error IS NOT NULL ORDER BY last_error_at DESC LIMIT 1`,
      [batchId]
    ),
    // The latest change: an item's row (claimed, held, ended) or a step of its flight (flights, 019_lean_items).
    scalar(
      c,
      `SELECT max(at) FROM (SELECT max(updated_at) AS at FROM items WHERE batch_num = ${batchNumOf("$1")} AND state <> 'queued'
         UNION ALL SELECT max(updated_at) FROM flights WHERE batch_num = ${batchNumOf("$1")}) t`,
      [batchId]
    )
  ]);
  return { undelivered: Number(n), lastError: err?.last_error ?? null, lastErrorAt: err ? Number(err.last_error_at) : null, lastChangeAt: changed };
}

// src/store/postgres/web-sessions.ts
async function openSession(c, idDigest, nowMs) {
  await c.query(
    `WITH gone AS (DELETE FROM web_sessions WHERE last_seen_at < $3)
     INSERT INTO web_sessions (id_digest, created_at, last_seen_at) VALUES ($1, $2, $2)`,
    [idDigest, nowMs, nowMs - WEB_SESSION_KEEP_MS]
  );
}
async function useSession(c, idDigest, idleMs, nowMs) {
  const row = await one(c, "SELECT last_seen_at, ended_at FROM web_sessions WHERE id_digest = $1", [idDigest]);
  const use = sessionUse(row && { lastSeenAt: Number(row.last_seen_at), endedAt: row.ended_at === null ? null : Number(row.ended_at) }, idleMs, nowMs);
  return settleSessionUse(use, {
    end: () => endSession(c, idDigest, nowMs),
    touch: async () => (await c.query("UPDATE web_sessions SET last_seen_at = GREATEST(last_seen_at, $1) WHERE id_digest = $2 AND ended_at IS NULL", [nowMs, idDigest])).rowCount === 1
  });
}
async function endSession(c, idDigest, nowMs) {
  await c.query("UPDATE web_sessions SET ended_at = $1 WHERE id_digest = $2 AND ended_at IS NULL", [nowMs, idDigest]);
}
async function addCode(c, codeDigest, expiresAtMs, nowMs) {
  await c.query(
    `WITH gone AS (DELETE FROM web_login_codes WHERE expires_at < $4)
     INSERT INTO web_login_codes (code_digest, created_at, expires_at) VALUES ($1, $2, $3)`,
    [codeDigest, nowMs, expiresAtMs, nowMs - WEB_SESSION_KEEP_MS]
  );
}
async function spendCode(c, codeDigest, nowMs) {
  const r = await c.query("UPDATE web_login_codes SET spent_at = $1 WHERE code_digest = $2 AND spent_at IS NULL AND expires_at >= $1", [nowMs, codeDigest]);
  return r.rowCount === 1;
}

// src/store/postgres/forecasts.ts
async function keepForecast(c, f) {
  await c.query(`INSERT INTO forecasts (${FORECAST_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, forecastValues(f));
}
async function lastForecastOf(c, b) {
  const row = await one(
    c,
    `SELECT * FROM forecasts WHERE for_batch_id = $1 OR (for_batch_id IS NULL AND file_sha256 = $2 AND made_at <= $3)
     ORDER BY made_at DESC, seq DESC LIMIT 1`,
    [b.id, b.sourceSha256, b.createdAt]
  );
  return row ? forecastOfRow(row) : null;
}

// src/store/postgres/scores.ts
async function recordVerdicts(c, batchId, itemId, verdicts) {
  await recordVerdictsMany(c, batchId, [{ itemId, verdicts }]);
}
var CHUNK2 = 5e3;
async function recordVerdictsMany(c, batchId, items) {
  const ids = items.map((i) => i.itemId);
  const found = await all(c, `SELECT batch_num, id, seq FROM items WHERE batch_num = ${batchNumOf("$1")} AND id = ANY($2::text[])`, [batchId, ids]);
  const at = new Map(found.map((r) => [r.id, r]));
  const flat = [];
  for (const { itemId, seq, verdicts } of items) {
    const it = at.get(itemId);
    if (!it || seq !== void 0 && Number(it.seq) !== seq) throw new Error(`recordVerdicts: batch ${batchId} has no item ${itemId}`);
    for (const v of verdicts) flat.push({ num: Number(it.batch_num), seq: Number(it.seq), itemId, v });
  }
  for (let i = 0; i < flat.length; i += CHUNK2) {
    const values = [];
    const rows = flat.slice(i, i + CHUNK2).map((r) => {
      const base = values.length;
      values.push(r.num, ...verdictValues(r.itemId, r.seq, r.v));
      return `(${Array.from({ length: 10 }, (_, k) => `$${base + k + 1}`).join(", ")})`;
    });
    await c.query(`INSERT INTO verdicts (batch_num, ${VERDICT_COLUMNS}) VALUES ${rows.join(", ")} ${VERDICT_UPSERT}`, values);
  }
}
async function verdictsOf(c, batchId, itemId) {
  const rows = await all(
    c,
    `SELECT ${VERDICT_COLUMNS} FROM verdicts v WHERE (v.batch_num, v.seq) = (SELECT batch_num, seq FROM items WHERE batch_num = ${batchNumOf("$1")} AND id = $2) ORDER BY scorer, version`,
    [batchId, itemId]
  );
  return rows.map(verdictOfRow);
}
async function scoreTotals(c, batchId, scorers) {
  const num = await scalar(c, "SELECT num FROM batches WHERE id = $1", [batchId]);
  if (num === void 0 || num === null) return scorers.map((s) => totalsOf(s, 0, 0, 0));
  const completed = Number(await scalar(c, completedCountSql("$1"), [num]));
  const out = [];
  for (const s of scorers) {
    const r = await one(c, verdictCountsSql("$1", "$2", "$3"), [num, s.name, s.version]);
    out.push(totalsOf(s, completed, Number(r?.passed ?? 0), Number(r?.failed ?? 0)));
  }
  return out;
}
async function itemsToScore(c, batchId, scorer, q) {
  const lacking = q.rescore ? "" : "AND NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.batch_num = i.batch_num AND v.seq = i.seq AND v.scorer = $3 AND v.version = $4)";
  const rows = await all(
    c,
    `SELECT ${ITEM_COLS} FROM ${ITEMS_FROM} WHERE i.batch_num = ${batchNumOf("$1")} AND i.state = 'completed' AND i.seq > $2 ${lacking}
     ORDER BY i.seq LIMIT ${Math.max(0, Math.floor(q.limit))}`,
    q.rescore ? [batchId, q.afterSeq] : [batchId, q.afterSeq, scorer.name, scorer.version]
  );
  return rows.map((r) => itemFromJoined(r, batchId));
}
async function verdictsPage(c, batchId, q) {
  if (q.limit <= 0) return [];
  const rows = await all(
    c,
    `WITH b AS (SELECT num FROM batches WHERE id = $1),
          page AS (SELECT DISTINCT seq FROM verdicts WHERE batch_num = (SELECT num FROM b) AND seq > $2 ORDER BY seq LIMIT $3)
     SELECT ${VERDICT_COLUMNS} FROM verdicts WHERE batch_num = (SELECT num FROM b) AND seq IN (SELECT seq FROM page) ORDER BY seq, scorer, version`,
    [batchId, q.afterSeq, Math.floor(q.limit)]
  );
  return groupVerdicts(rows);
}
async function scorersJudged(c, batchId) {
  return all(c, `SELECT DISTINCT scorer AS name, version FROM verdicts WHERE batch_num = ${batchNumOf("$1")} ORDER BY scorer, version`, [batchId]);
}

// src/store/postgres/notify-commands.ts
async function holdNotifyCommand(c, batchId, s, leaseMs, now) {
  if (leaseMs <= 0) {
    await c.query(`DELETE FROM notify_commands WHERE batch_num = ${batchNumOf("$1")} AND owner = $2`, [batchId, s.owner]);
    return;
  }
  await c.query(
    `INSERT INTO notify_commands (batch_num, owner, host, pid, until_ms) VALUES (${batchNumOf("$1")}, $2, $3, $4, ${dbNow("$5")} + $6)
     ON CONFLICT (batch_num, owner) DO UPDATE SET until_ms = excluded.until_ms`,
    [batchId, s.owner, s.host, s.pid, now, leaseMs]
  );
}
async function notifyCommands(c, batchId, now) {
  return all(
    c,
    `SELECT owner, host, pid FROM notify_commands WHERE batch_num = ${batchNumOf("$1")} AND until_ms >= ${dbNow("$2")} ORDER BY host, pid, owner`,
    [batchId, now]
  );
}

// src/store/postgres/postgres-store.ts
var PostgresStore = class _PostgresStore {
  location;
  #pool;
  /** The pool's statements, each waited out when the database fails in passing. */
  #q;
  #wait;
  #target;
  #onWait;
  #listener = null;
  /** Behind a transaction pooler with no direct URL: answers are found by polling, said once. */
  #saidPolling = false;
  /** Time for leases, heartbeats and the overview's live workers when the caller gives none. */
  #clock;
  constructor(url, target, pool, opts) {
    this.#clock = opts.clock ?? systemClock;
    this.#pool = pool;
    this.#target = target;
    this.#onWait = opts.onWait;
    this.location = maskLocation(url);
    this.#wait = new DbWait(this.location, opts);
    this.#q = waitingQueries(pool, this.#wait);
  }
  /**
   * Connects (the password never reaches a message) and applies pending migrations under an
   * advisory lock, on a connection of their own: no statement timeout cuts a long migration short.
   * The URL's `pooler=transaction` and `direct=HOST[:PORT]` say a transaction pooler is in
   * between (pooler.ts): no named statements or session state through it, LISTEN direct.
   */
  static async open(url, opts = {}) {
    const target = parsePgTarget(url);
    const pool = makePool(target.url, { max: opts.poolSize ?? 10, pooler: target.pooler, ...opts.leaseMs !== void 0 ? { leaseMs: opts.leaseMs } : {} });
    const c = new esm_default.Client({ connectionString: target.url });
    c.on("error", () => {
    });
    try {
      await c.connect();
      const { onWait } = opts;
      await migrate(c, void 0, onWait && ((names2) => onWait(`upgrading the database ${maskLocation(url)} to this resq's schema (${names2.join(", ")}): a large one takes a while`)));
    } catch (e) {
      await pool.end().catch(() => {
      });
      throw connectError(url, e);
    } finally {
      await c.end().catch(() => {
      });
    }
    return new _PostgresStore(url, target, pool, opts);
  }
  /**
   * The time a lease or heartbeat is written with: the caller's, a test clock's, or null —
   * the database's own clock as the statement runs (claims.ts `dbNow`), as in production.
   */
  #at(nowMs) {
    return nowMs ?? (this.#clock === systemClock ? null : this.#clock.now());
  }
  #tx(fn) {
    return withTx(this.#pool, fn, this.#wait);
  }
  async close() {
    await this.#listener?.close();
    this.#listener = null;
    await this.#pool.end();
  }
  // ---- batches
  beginBatchLoad(batch) {
    return beginBatchLoad(this.#pool, batch, this.#clock);
  }
  beginBatchAppend(batchId) {
    return beginBatchAppend(this.#pool, batchId, this.#clock);
  }
  appendItems(batchId, cols) {
    return this.#tx((c) => appendItems(c, batchId, cols, this.#clock));
  }
  loadModelBatch(batch, model, rows) {
    return this.#tx((c) => loadModelBatch(c, batch, model, rows, this.#clock));
  }
  findBatch(nameOrId) {
    return findBatch(this.#q, nameOrId);
  }
  listBatches(kind) {
    return listBatches(this.#q, kind);
  }
  latestBatch(kind) {
    return latestBatch(this.#q, kind);
  }
  updateBatchSettings(id, settings, policy, baseUrl) {
    return updateBatchSettings(this.#q, id, settings, policy, baseUrl, this.#clock);
  }
  cancelBatch(batchId, nowMs) {
    return this.#tx((c) => cancel(c, batchId, this.#at(nowMs)));
  }
  async overview(batchId, nowMs, staleMs = 6e4) {
    const batch = await findBatch(this.#q, batchId);
    if (!batch) throw new Error(`batch ${batchId} not found`);
    const [counts, approvedCost2, files, workers] = await Promise.all([
      itemCounts(this.#q, batchId),
      approvedCost(this.#q, batchId),
      fileCounts(this.#q, batchId),
      live(this.#q, batchId, staleMs, this.#at(nowMs))
    ]);
    return { batch, counts, approvedCost: approvedCost2, files, workers };
  }
  // ---- workers and claims
  registerWorker(batchId, w, nowMs) {
    return this.#tx((c) => register(c, batchId, w, this.#at(nowMs)));
  }
  heartbeat(lease, nowMs) {
    return this.#tx((c) => heartbeat(c, lease, this.#at(nowMs)));
  }
  setCapLimit(batchId, capLimit) {
    return setCapLimit(this.#q, batchId, capLimit);
  }
  retireWorker(workerId, nowMs) {
    return this.#tx((c) => retire(c, workerId, this.#at(nowMs)));
  }
  liveWorkers(batchId, staleMs, nowMs) {
    return live(this.#q, batchId, staleMs, this.#at(nowMs));
  }
  claimItems(batchId, req, nowMs) {
    return this.#tx((c) => claim(c, batchId, req, this.#at(nowMs)));
  }
  claimNextInThread(batchId, threadKey, afterSeq, req, nowMs) {
    return this.#tx((c) => claimNextInThread(c, batchId, threadKey, afterSeq, req, this.#at(nowMs)));
  }
  releaseItem(batchId, itemId, workerId, fence) {
    return this.#tx((c) => release(c, batchId, itemId, workerId, fence));
  }
  /**
   * Listens for answers on the URL itself, or behind a transaction pooler on its `direct=`
   * server (a pooler hands LISTEN's connection to other clients); with neither, nothing is
   * listened for, said once: the runner's regular poll finds answers.
   */
  onAnswered(batchId, cb) {
    const { pooler, directUrl, url } = this.#target;
    if (pooler && !directUrl) {
      if (!this.#saidPolling) this.#onWait?.(`the database ${this.location} is behind a transaction pooler and no direct=HOST:PORT was given: answers from other machines are found by polling, not at once`);
      this.#saidPolling = true;
      return () => {
      };
    }
    this.#listener ??= new AnswersListener(directUrl ?? url);
    return this.#listener.subscribe(batchId, cb);
  }
  /** Resolves once answers are being listened for (tests wait on it before answering). */
  async listening() {
    await this.#listener?.ready();
  }
  // ---- agent runs
  markAdmitted(item, run) {
    return this.#tx((c) => markAdmitted(c, item, run, this.#clock));
  }
  markFinished(item, run, state2) {
    return this.#tx((c) => markFinished(c, item, run, state2, this.#clock));
  }
  markCancelled(batchId, itemId) {
    return this.#tx((c) => markCancelled(c, batchId, itemId, this.#clock));
  }
  markPaused(item, run, decide) {
    return this.#tx((c) => markPaused(c, item, run, decide, this.#clock));
  }
  answerHeld(batchId, itemId, decision, nextKey, budget) {
    return this.#tx((c) => answerHeld(c, batchId, itemId, decision, nextKey, this.#clock, budget));
  }
  redecideHeld(batchId, itemId, decide) {
    return this.#tx((c) => redecideHeld(c, batchId, itemId, decide, this.#clock));
  }
  markError(batchId, itemId, message, code, held) {
    return this.#tx((c) => markError(c, batchId, itemId, message, code ?? null, held, this.#clock));
  }
  requeue(batchId, itemIds, states) {
    return this.#tx((c) => requeue(c, batchId, itemIds, states, isoNow(this.#clock)));
  }
  // ---- reads
  getItem(batchId, itemId) {
    return getItem(this.#q, batchId, itemId);
  }
  listItems(batchId, f) {
    return listItems(this.#q, batchId, f);
  }
  itemCounts(batchId) {
    return itemCounts(this.#q, batchId);
  }
  threadWaits(batchId, limit, o = {}) {
    return threadWaits(this.#q, batchId, limit, o);
  }
  recentFinishes(batchId, limit) {
    return recentFinishes(this.#q, batchId, limit);
  }
  getRun(runId) {
    return getRun(this.#q, runId);
  }
  runChain(batchId, itemId) {
    return runChain(this.#q, batchId, itemId);
  }
  decisionsForItem(batchId, itemId) {
    return decisionsForItem(this.#q, batchId, itemId);
  }
  batchPauses(batchId, q) {
    return batchPauses(this.#q, batchId, q);
  }
  approvedCost(batchId) {
    return approvedCost(this.#q, batchId);
  }
  budgetSpent(batchId) {
    return budgetSpent(this.#q, batchId);
  }
  aggregates(batchId, afterSeq, limit, states) {
    return aggregates(this.#q, batchId, afterSeq, limit, states);
  }
  metaKeys(batchId) {
    return metaKeys(this.#q, batchId);
  }
  // ---- files
  markFileDownloaded(batchId, fileId, v, claim3) {
    return markFileDownloaded(this.#q, batchId, fileId, v, claim3);
  }
  markFileStatus(batchId, fileId, status, error, claim3) {
    return markFileStatus(this.#q, batchId, fileId, status, error, claim3);
  }
  getFile(batchId, fileId) {
    return getFile(this.#q, batchId, fileId);
  }
  filesForBatch(batchId, statuses) {
    return filesForBatch(this.#q, batchId, statuses);
  }
  filesForItem(batchId, itemId) {
    return filesForItem(this.#q, batchId, itemId);
  }
  fileCounts(batchId) {
    return fileCounts(this.#q, batchId);
  }
  filePaths(batchId) {
    return filePaths(this.#q, batchId);
  }
  recordFileCopy(batchId, fileId, c, keep) {
    return recordFileCopy(this.#q, batchId, fileId, c, isoNow(this.#clock), keep);
  }
  fileCopies(batchId) {
    return fileCopies(this.#q, batchId);
  }
  expiryReport(batchId, warnBefore) {
    return expiryReport(this.#q, batchId, warnBefore);
  }
  claimFile(batchId, fileId, holder, req) {
    return claimFile(this.#q, batchId, fileId, holder, req, this.#at(req.nowMs));
  }
  fileClaimHolder(batchId, fileId) {
    return fileClaimHolder(this.#q, batchId, fileId);
  }
  renewFileClaim(batchId, fileId, claim3, leaseMs, nowMs) {
    return renewFileClaim(this.#q, batchId, fileId, claim3, leaseMs, this.#at(nowMs));
  }
  releaseFileClaim(batchId, fileId, claim3) {
    return releaseFileClaim(this.#q, batchId, fileId, claim3);
  }
  // ---- models
  modelBatch(batchId) {
    return modelBatch(this.#q, batchId);
  }
  modelRun(batchId, itemId) {
    return modelRun(this.#q, batchId, itemId);
  }
  modelRuns(batchId, afterSeq, limit) {
    return modelRuns(this.#q, batchId, afterSeq, limit);
  }
  markModelSubmitting(batchId, itemId, key, mode, resend) {
    return this.#tx((c) => markModelSubmitting(c, batchId, itemId, key, mode, resend, this.#clock));
  }
  markModelAdmitted(batchId, itemId, httpStatus, run) {
    return this.#tx((c) => markModelAdmitted(c, batchId, itemId, httpStatus, run, this.#clock));
  }
  markModelFinished(batchId, itemId, run, o) {
    return this.#tx((c) => markModelFinished(c, batchId, itemId, run, o, this.#clock));
  }
  markModelError(batchId, itemId, message, polls = 0) {
    return this.#tx((c) => markModelError(c, batchId, itemId, message, polls, this.#clock));
  }
  markModelUnsent(batchId, itemId) {
    return this.#tx((c) => markModelUnsent(c, batchId, itemId, this.#clock));
  }
  addModelPolls(batchId, itemId, polls) {
    return addModelPolls(this.#q, batchId, itemId, polls);
  }
  modelCredits(batchId) {
    return modelCredits(this.#q, batchId);
  }
  modelPolls(batchId) {
    return modelPolls(this.#q, batchId);
  }
  setModelMode(batchId, mode) {
    return setModelMode(this.#q, batchId, mode);
  }
  // ---- notebook projections
  queryItems(batchId, q) {
    return queryItems(this.#q, batchId, q);
  }
  itemStats(batchId) {
    return itemStats(this.#q, batchId);
  }
  batchTotals(batchId) {
    return batchTotals(this.#q, batchId);
  }
  itemSeconds(batchId) {
    return itemSeconds(this.#q, batchId);
  }
  runTimes(batchId) {
    return runTimes2(this.#q, batchId);
  }
  batchDecisions(batchId) {
    return batchDecisions(this.#q, batchId);
  }
  // ---- web view projections
  itemPage(batchId, q) {
    return itemPage(this.#q, batchId, q);
  }
  batchLive(batchId, heldLimit) {
    return batchLive(this.#q, batchId, heldLimit);
  }
  runMinutes(batchId) {
    return runMinutes(this.#q, batchId);
  }
  // ---- outbox (notifications)
  addOutboxEvent(batchId, event, nowMs) {
    return addEvent(this.#q, batchId, event, this.#at(nowMs));
  }
  collateHeld(batchId, o, nowMs) {
    return this.#tx((c) => collateHeld(c, batchId, o, this.#at(nowMs)));
  }
  claimOutbox(owner, o, nowMs) {
    return this.#tx((c) => claim2(c, owner, o, this.#at(nowMs)));
  }
  settleOutbox(claim3, outcome, nowMs) {
    return settle(this.#q, claim3, outcome, this.#at(nowMs));
  }
  outboxState(batchId) {
    return state(this.#q, batchId);
  }
  holdNotifyCommand(batchId, sender, leaseMs, nowMs) {
    return holdNotifyCommand(this.#q, batchId, sender, leaseMs, this.#at(nowMs));
  }
  notifyCommands(batchId, nowMs) {
    return notifyCommands(this.#q, batchId, this.#at(nowMs));
  }
  // ---- web sessions
  openWebSession(idDigest, nowMs) {
    return openSession(this.#q, idDigest, nowMs);
  }
  useWebSession(idDigest, idleMs, nowMs) {
    return useSession(this.#q, idDigest, idleMs, nowMs);
  }
  endWebSession(idDigest, nowMs) {
    return endSession(this.#q, idDigest, nowMs);
  }
  addLoginCode(codeDigest, expiresAtMs, nowMs) {
    return addCode(this.#q, codeDigest, expiresAtMs, nowMs);
  }
  spendLoginCode(codeDigest, nowMs) {
    return spendCode(this.#q, codeDigest, nowMs);
  }
  // ---- forecasts
  keepForecast(f) {
    return keepForecast(this.#q, f);
  }
  lastForecastOf(batch) {
    return lastForecastOf(this.#q, batch);
  }
  // ---- scores (scores.ts)
  recordVerdicts(batchId, itemId, verdicts) {
    return recordVerdicts(this.#q, batchId, itemId, verdicts);
  }
  recordVerdictsMany(batchId, items) {
    return this.#tx((c) => recordVerdictsMany(c, batchId, items));
  }
  verdictsOf(batchId, itemId) {
    return verdictsOf(this.#q, batchId, itemId);
  }
  scoreTotals(batchId, scorers) {
    return scoreTotals(this.#q, batchId, scorers);
  }
  itemsToScore(batchId, scorer, q) {
    return itemsToScore(this.#q, batchId, scorer, q);
  }
  verdictsPage(batchId, q) {
    return verdictsPage(this.#q, batchId, q);
  }
  scorersJudged(batchId) {
    return scorersJudged(this.#q, batchId);
  }
};
export {
  PostgresStore
};
//# sourceMappingURL=postgres-store-WK7CVB6M.mjs.map
