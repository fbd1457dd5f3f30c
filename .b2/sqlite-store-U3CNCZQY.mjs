import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  ClaimBudget,
  FLIGHT_COLUMNS,
  FORECAST_COLUMNS,
  IN_FLIGHT_MARK,
  LANDED_COLUMNS,
  SORT_COLUMN,
  UNFINISHED_ROWS,
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
  countsOf,
  decisionFromRow,
  duplicateInAppend,
  effectiveCap,
  errorPatch,
  factIds,
  fileFromRow,
  finishedPatch,
  forecastOfRow,
  forecastValues,
  groupSpendSql,
  groupVerdicts,
  heldEventData,
  heldFromRow,
  heldPatch,
  heldPlan,
  inSeqOrder,
  itemColumns,
  itemFromRow,
  leaseLost,
  modelRunFromRow,
  overFlight,
  ownedPlan,
  pageOf,
  passValue,
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
  runHeldPlan,
  runNotGoing,
  sessionUse,
  settingsText,
  settleSessionUse,
  spendsWithNum,
  spendsWithSql,
  stateOf,
  stillHeld,
  storedStates,
  submitPlan,
  takeOverStates,
  threadWaitsOf,
  threadWaitsSql,
  totalsOf,
  trustedCostSql,
  verdictOfRow,
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
import "./chunk-ADUNF5BB.mjs";
import "./chunk-Q6TQJGNT.mjs";
import {
  ACTIVE_STATES,
  ENDED_STATES,
  TERMINAL_STATES,
  UNFINISHED_STATES,
  isTerminal,
  sqlStates
} from "./chunk-MH23QIYG.mjs";
import {
  BatchExistsError,
  ItemNotHeldError
} from "./chunk-4EMWZ36I.mjs";
import {
  keptTotal,
  recordedCost
} from "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/store/sqlite/statement-cache.ts
var StatementCache = class {
  #db;
  #stmts = /* @__PURE__ */ new Map();
  constructor(db) {
    this.#db = db;
  }
  /** The prepared statement for `sql`. */
  get(sql) {
    let s = this.#stmts.get(sql);
    if (!s) {
      s = this.#db.prepare(sql);
      this.#stmts.set(sql, s);
    }
    return s;
  }
};
var ITEM_FROM = `items i LEFT JOIN flights f ON f.item_key = i.key`;
var ITEM_SELECT = `SELECT ? AS batch_id, ${itemColumns()} FROM ${ITEM_FROM}`;
var ITEM_KEY = `(SELECT key FROM items WHERE batch_num = ${batchNumOf()} AND id = ?)`;
var marks = (n) => new Array(n).fill("?").join(",");
function inStates(states, batchId) {
  const stored2 = storedStates(states);
  const where = `i.state IN (${marks(stored2.length)}) AND ${stateOf()} IN (${marks(states.length)})`;
  const args = [...stored2, ...states];
  if (!stored2.includes(IN_FLIGHT_MARK)) return { where: `${where} AND i.state <> 'queued'`, args, plan: "state index" };
  if (states.includes("queued")) return { where, args, plan: "walk" };
  const flying = states.filter((s) => ACTIVE_STATES.includes(s));
  return {
    where: `${where} AND i.key IN (SELECT key FROM items INDEXED BY items_for_state_pages WHERE batch_num = ${batchNumOf()} AND state <> 'queued' AND state IN (${marks(states.length)})
      UNION ALL SELECT item_key FROM flights WHERE batch_num = ${batchNumOf()} AND state IN (${marks(flying.length)}))`,
    args: [...args, batchId, ...states, batchId, ...flying],
    plan: "keys"
  };
}

// src/store/sqlite/reads.ts
function findBatch(cx, nameOrId) {
  const row = cx.db.prepare("SELECT * FROM batches WHERE name = ? OR id = ? LIMIT 1").get(nameOrId, nameOrId);
  return row ? batchFromRow(row) : null;
}
function listBatches(cx, kind) {
  const rows = kind ? cx.db.prepare("SELECT * FROM batches WHERE kind = ? ORDER BY created_at DESC, rowid DESC").all(kind) : cx.db.prepare("SELECT * FROM batches ORDER BY created_at DESC, rowid DESC").all();
  return rows.map(batchFromRow);
}
function latestBatch(cx, kind) {
  return listBatches(cx, kind)[0] ?? null;
}
function listItems(cx, batchId, f = {}) {
  return [...iterateItems(cx, batchId, f)];
}
function* iterateItems(cx, batchId, f = {}) {
  const where = [`i.batch_num = ${batchNumOf()}`, "i.seq > ?"];
  const args = [batchId, batchId, f.afterSeq ?? -1];
  let from = ITEM_FROM;
  if (f.states) {
    const s = inStates(f.states, batchId);
    where.push(s.where);
    args.push(...s.args);
    if (s.plan === "state index") from = "items i INDEXED BY items_for_state_pages LEFT JOIN flights f ON f.item_key = i.key";
    if (s.plan === "keys") where[0] = `+i.batch_num = ${batchNumOf()}`;
  }
  if (f.runStatusOtherThan !== void 0) {
    const status = "CASE WHEN f.item_key IS NULL THEN i.run_status ELSE f.run_status END";
    where.push(`${status} IS NOT NULL AND ${status} <> ?`);
    args.push(f.runStatusOtherThan);
  }
  const limit = f.limit ? ` LIMIT ${Math.floor(f.limit)}` : "";
  const stmt2 = cx.stmt.get(`SELECT ? AS batch_id, ${itemColumns()} FROM ${from} WHERE ${where.join(" AND ")} ORDER BY i.seq${limit}`);
  for (const r of stmt2.iterate(...args)) yield itemFromRow(r);
}
function recentFinishes(cx, batchId, limit) {
  const latest = `SELECT id, finished_at FROM items INDEXED BY items_for_rate WHERE batch_num = ${batchNumOf("@b")} AND finished_at IS NOT NULL AND state IN ${sqlStates(ENDED_STATES)}
                    AND NOT EXISTS (SELECT 1 FROM runs u WHERE u.batch_num = items.batch_num AND u.item_id = items.id AND u.unwatched = 1)
                  ORDER BY finished_at DESC, seq DESC LIMIT @n`;
  const items = cx.stmt.get(latest).all({ b: batchId, n: limit });
  const runs = cx.stmt.get(
    `SELECT created_at AS createdAt, finished_at AS finishedAt FROM runs
     WHERE batch_num = ${batchNumOf("@b")} AND finished_at IS NOT NULL AND item_id IN (SELECT id FROM (${latest}))`
  ).all({ b: batchId, n: limit });
  return { finishedAt: items.map((r) => r.finished_at), runs };
}
function threadWaits(cx, batchId, limit, o = {}) {
  const waits = threadWaitsSql(batchNumOf("@b"), { item: o.itemId === void 0 ? void 0 : "@i", heldOnly: o.heldOnly });
  const args = { b: batchId, ...o.itemId === void 0 ? {} : { i: o.itemId } };
  const counts = cx.stmt.get(`SELECT behind_state AS state, COUNT(*) AS n FROM (${waits}) GROUP BY behind_state`).all(args);
  const rows = limit > 0 ? cx.stmt.get(`SELECT * FROM (${waits}) ORDER BY seq LIMIT @n`).all({ ...args, n: limit }) : [];
  return threadWaitsOf(counts, rows);
}
function getRun(cx, id) {
  const r = cx.stmt.get("SELECT r.*, b.id AS batch_id FROM runs r JOIN batches b ON b.num = r.batch_num WHERE r.id = ?").get(id);
  return r ? runFromRow(r) : null;
}
function runChain(cx, batchId, itemId) {
  return cx.stmt.get(`SELECT ? AS batch_id, * FROM runs WHERE batch_num = ${batchNumOf()} AND item_id = ? ORDER BY rowid`).all(batchId, batchId, itemId).map(runFromRow);
}
function aggregatesSql(states, batchId) {
  let from = "items i";
  let where = "";
  let num = `i.batch_num = ${batchNumOf()}`;
  const args = [];
  if (states) {
    const s = inStates(states, batchId);
    where = ` AND ${s.where}`;
    args.push(...s.args);
    if (s.plan === "state index") from = "items AS i INDEXED BY items_for_state_pages";
    if (s.plan === "keys") num = `+${num}`;
  }
  return { args, sql: `
  SELECT ? AS batch_id, ${itemColumns()},
    (SELECT json_group_array(json_object('id', id, 'createdAt', created_at, 'finishedAt', finished_at, 'seconds', seconds))
       FROM (SELECT id, created_at, finished_at, seconds FROM runs r WHERE r.batch_num = i.batch_num AND r.item_id = i.id ORDER BY rowid)) AS agg_runs,
    (SELECT json_group_array(json_object('tool', tool, 'input', json(input), 'answer', json(answer), 'by', by, 'person', person, 'reason', reason, 'cost', cost))
       FROM (SELECT * FROM decisions d WHERE d.batch_num = i.batch_num AND d.item_id = i.id ORDER BY id)) AS agg_decisions,
    (SELECT json_group_array(json_object('id', id, 'role', role, 'name', name, 'path', path, 'bytes', bytes,
                                         'sha256', sha256, 'status', status, 'host', host))
       FROM (SELECT * FROM files f WHERE f.batch_num = i.batch_num AND f.item_id = i.id ORDER BY rowid)) AS agg_files
  FROM ${from} LEFT JOIN flights f ON f.item_key = i.key WHERE ${num} AND i.seq > ?${where} ORDER BY i.seq LIMIT ?` };
}
var META_KEYS = `
  SELECT j.key AS key, min(i.seq) AS first, j.id AS pos
  FROM items i, json_each(i.meta) j WHERE i.batch_num = ${batchNumOf()}
  GROUP BY j.key ORDER BY first, pos`;
function aggregates(cx, batchId, afterSeq, limit, states) {
  if (states && states.length === 0) return [];
  const q = aggregatesSql(states, batchId);
  const rows = cx.db.prepare(q.sql).all(batchId, batchId, afterSeq, ...q.args, limit);
  return rows.map((r) => {
    const runs = JSON.parse(r.agg_runs);
    return {
      item: itemFromRow(r),
      runIds: runs.map((x) => x.id),
      runTimes: runs.map((x) => ({ createdAt: x.createdAt, finishedAt: x.finishedAt, seconds: x.seconds })),
      decisions: JSON.parse(r.agg_decisions),
      files: JSON.parse(r.agg_files)
    };
  });
}
function metaKeys(cx, batchId) {
  return cx.db.prepare(META_KEYS).all(batchId).map((r) => r.key);
}

// src/store/sqlite/batch-load.ts
function insertBatch(cx, b) {
  const now = isoNow(cx.clock);
  const spendsWith = b.spendsWith === void 0 ? null : spendsWithNum(b.spendsWith, cx.db.prepare(`SELECT ${spendsWithSql("?")}`).pluck().get(b.spendsWith));
  cx.db.prepare(
    `INSERT INTO batches (id, name, kind, source_path, source_sha256, base_url, settings, policy, created_at, updated_at, spends_with, num)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(num), 0) + 1 FROM batches))`
  ).run(
    b.id,
    b.name,
    b.kind,
    b.sourcePath,
    b.sourceSha256,
    b.baseUrl,
    settingsText(b.settings),
    b.policy == null ? null : JSON.stringify(b.policy),
    now,
    now,
    spendsWith
  );
}
function setLoaded(cx, id, totalItems, invalid, sourceSha256) {
  cx.db.prepare("UPDATE batches SET total_items = ?, invalid_rows = ?, source_sha256 = coalesce(?, source_sha256), updated_at = ? WHERE id = ?").run(totalItems, JSON.stringify(invalid), sourceSha256 ?? null, isoNow(cx.clock), id);
}
function updateBatchSettings(cx, id, settings, policy, baseUrl) {
  cx.db.prepare("UPDATE batches SET settings = ?, policy = ?, base_url = ?, updated_at = ? WHERE id = ?").run(settingsText(settings), policy == null ? null : JSON.stringify(policy), baseUrl, isoNow(cx.clock), id);
}
function beginBatchLoad(cx, batch, opts = {}) {
  const db = cx.db;
  const restore = opts.bulk ? bulkJournal(db) : () => {
  };
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (e) {
    restore();
    throw e;
  }
  let n = 0;
  const now = isoNow(cx.clock);
  try {
    if (findBatch(cx, batch.name)) throw new BatchExistsError(`batch "${batch.name}" exists`);
    insertBatch(cx, batch);
  } catch (e) {
    db.exec("ROLLBACK");
    restore();
    throw e;
  }
  let buffer = [];
  const flush = () => {
    const refused = buffer.length ? insertItems(cx, batch.id, buffer, now) : [];
    n += buffer.length - refused.length;
    buffer = [];
    return refused;
  };
  return {
    add: async (item) => {
      buffer.push(item);
      return buffer.length >= 256 ? flush() : [];
    },
    addColumns: async (cols, seq0) => {
      const refused = flush();
      const more = insertItemColumns(cx, batch.id, cols, seq0, now);
      n += cols.ids.length - more.length;
      return refused.concat(more);
    },
    flush: async () => flush(),
    commit: async (invalid, sourceSha256) => {
      if (flush().length) throw new Error("batch load: duplicate ids left unreported (call flush before commit)");
      setLoaded(cx, batch.id, n, invalid, sourceSha256);
      db.exec("COMMIT");
      restore();
      return n;
    },
    rollback: async () => {
      if (db.inTransaction) db.exec("ROLLBACK");
      restore();
    }
  };
}
function bulkJournal(db) {
  if (db.memory || db.inTransaction) return () => {
  };
  const timeout = db.pragma("busy_timeout", { simple: true });
  let mode = "wal";
  try {
    db.pragma("busy_timeout = 0");
    mode = String(db.pragma("journal_mode = DELETE", { simple: true }));
  } catch (e) {
    if (e.code !== "SQLITE_BUSY") throw e;
  } finally {
    db.pragma(`busy_timeout = ${Number(timeout)}`);
  }
  if (mode !== "delete") return () => {
  };
  let done = false;
  return () => {
    if (done || !db.open) return;
    done = true;
    db.pragma("journal_mode = WAL");
  };
}
function loadModelBatch(cx, batch, model, rows) {
  const now = isoNow(cx.clock);
  insertBatch(cx, batch);
  cx.stmt.get(`INSERT INTO model_batches (batch_num, model_id, mode, description) VALUES (${batchNumOf()}, ?, ?, ?)`).run(
    batch.id,
    model.modelId,
    model.mode,
    JSON.stringify(model.description)
  );
  rows.forEach((row, seq) => {
    insertMany(cx, batch.id, [{ id: row.id, seq, line: row.line, question: JSON.stringify(row.inputs), threadKey: null, meta: row.meta }], now);
    cx.stmt.get(`INSERT INTO model_runs (batch_num, item_id, model_id, inputs) VALUES (${batchNumOf()}, ?, ?, ?)`).run(
      batch.id,
      row.id,
      model.modelId,
      JSON.stringify(row.inputs)
    );
  });
  setLoaded(cx, batch.id, rows.length, []);
}
var INSERT_CHUNK = 256;
function metaText(it) {
  return typeof it.meta === "string" ? it.meta : JSON.stringify(it.meta);
}
var ROW_PLACEHOLDERS = ",(?, ?, ?, ?, ?, ?, ?, ?, ?)";
function itemNum(cx, batchId) {
  const n = cx.stmt.get("SELECT num FROM batches WHERE id = ?").pluck().get(batchId);
  if (n === void 0) throw new Error(`batch ${batchId} not found`);
  return n;
}
function insertMany(cx, batchId, items, now) {
  const num = itemNum(cx, batchId);
  for (let i = 0; i < items.length; i += INSERT_CHUNK) {
    const chunk = items.slice(i, i + INSERT_CHUNK);
    const values = [];
    for (const it of chunk)
      values.push(num, it.id, it.seq, it.line, it.question, it.threadKey, metaText(it), it.expectedJson ?? null, now);
    insertRows(cx, chunk.length).run(...values);
  }
}
var fullChunks = /* @__PURE__ */ new WeakMap();
function insertRows(cx, n) {
  const sql = (k) => `INSERT INTO items (batch_num, id, seq, line, question, thread_key, meta, expected, updated_at) VALUES ${ROW_PLACEHOLDERS.repeat(k).slice(1)}`;
  if (n !== INSERT_CHUNK) return cx.stmt.get(sql(n));
  let full = fullChunks.get(cx.stmt);
  if (!full) fullChunks.set(cx.stmt, full = cx.stmt.get(sql(n)));
  return full;
}
function insertItemColumns(cx, batchId, cols, seq0, now) {
  const refused = [];
  const num = itemNum(cx, batchId);
  for (let i = 0; i < cols.ids.length; i += INSERT_CHUNK) {
    const end = Math.min(i + INSERT_CHUNK, cols.ids.length);
    const values = [];
    for (let k = i; k < end; k++)
      values.push(num, cols.ids[k], seq0 + k, cols.lines[k], cols.questions[k], cols.threads[k], cols.metas[k], cols.expecteds?.[k] ?? null, now);
    try {
      insertRows(cx, end - i).run(...values);
      continue;
    } catch (e) {
      if (!isDuplicate(e)) throw e;
    }
    const chunk = [];
    for (let k = i; k < end; k++)
      chunk.push({ id: cols.ids[k], seq: seq0 + k, line: cols.lines[k], question: cols.questions[k], threadKey: cols.threads[k], meta: cols.metas[k], expectedJson: cols.expecteds?.[k] ?? null });
    refused.push(...insertOneByOne(cx, batchId, chunk, now));
  }
  return refused;
}
function insertItems(cx, batchId, items, now) {
  try {
    insertMany(cx, batchId, items, now);
    return [];
  } catch (e) {
    if (!isDuplicate(e)) throw e;
  }
  return insertOneByOne(cx, batchId, items, now);
}
function insertOneByOne(cx, batchId, items, now) {
  const refused = [];
  const one = cx.stmt.get(
    `INSERT INTO items (batch_num, id, seq, line, question, thread_key, meta, expected, updated_at) VALUES ${ROW_PLACEHOLDERS.slice(1)}
     ON CONFLICT (batch_num, id) DO NOTHING`
  );
  const num = itemNum(cx, batchId);
  for (const it of items) {
    if (one.run(num, it.id, it.seq, it.line, it.question, it.threadKey, metaText(it), it.expectedJson ?? null, now).changes === 1) continue;
    const first = cx.stmt.get("SELECT line FROM items WHERE batch_num = ? AND id = ?").pluck().get(num, it.id);
    refused.push({ item: it, firstLine: first });
  }
  return refused;
}
function isDuplicate(e) {
  const code = e.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

// src/store/sqlite/batch-append.ts
function beginBatchAppend(cx, batchId) {
  const db = cx.db;
  db.exec("BEGIN IMMEDIATE");
  let next;
  try {
    next = db.prepare(`SELECT coalesce(max(seq), -1) + 1 FROM items INDEXED BY items_for_claim WHERE batch_num = ${batchNumOf()}`).pluck().get(batchId);
  } catch (e) {
    db.exec("ROLLBACK");
    throw e;
  }
  const find = db.prepare(`SELECT line, question, thread_key AS threadKey, meta FROM items WHERE batch_num = ${batchNumOf()} AND id = ?`);
  const now = isoNow(cx.clock);
  let kept = 0;
  let appended = 0;
  return {
    addColumns: async (cols) => {
      const plan = planAppend(cols, (id) => find.get(batchId, id), next);
      next = plan.next;
      kept += plan.kept;
      if (plan.fresh.length > 0) {
        if (insertItems(cx, batchId, plan.fresh, now).length > 0) throw duplicateInAppend();
        appended += plan.fresh.length;
      }
      return plan.changed;
    },
    tally: () => ({ kept, appended }),
    commit: async (invalid, sourceSha256) => {
      db.prepare("UPDATE batches SET total_items = total_items + ?, invalid_rows = ?, source_sha256 = ?, updated_at = ? WHERE id = ?").run(
        appended,
        JSON.stringify(invalid),
        sourceSha256,
        isoNow(cx.clock),
        batchId
      );
      db.exec("COMMIT");
      return { kept, appended };
    },
    rollback: async () => {
      if (db.inTransaction) db.exec("ROLLBACK");
    }
  };
}
function appendItems(cx, batchId, cols) {
  if (cx.stmt.get("SELECT 1 FROM batches WHERE id = ?").pluck().get(batchId) === void 0) throw new Error(`batch ${batchId} not found`);
  const next = cx.stmt.get(`SELECT coalesce(max(seq), -1) + 1 FROM items INDEXED BY items_for_claim WHERE batch_num = ${batchNumOf()}`).pluck().get(batchId);
  const find = cx.stmt.get(`SELECT line, question, thread_key AS threadKey, meta FROM items WHERE batch_num = ${batchNumOf()} AND id = ?`);
  const plan = planAppend(cols, (id) => find.get(batchId, id), next);
  if (plan.fresh.length === 0) return { appended: 0 };
  const now = isoNow(cx.clock);
  if (insertItems(cx, batchId, plan.fresh, now).length > 0) throw duplicateInAppend();
  cx.stmt.get("UPDATE batches SET total_items = total_items + ?, updated_at = ? WHERE id = ?").run(plan.fresh.length, now, batchId);
  return { appended: plan.fresh.length };
}

// src/store/sqlite/busy.ts
function isBusy(e) {
  const code = e?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}
function isFull(e) {
  return e?.code === "SQLITE_FULL";
}
function busyDelayMs(attempt, random = Math.random) {
  return Math.floor(random() * Math.min(500, 5 * 2 ** attempt));
}
function busyReason(e) {
  if (isBusy(e)) return String(e.code);
  return e?.code === "SQLITE_CANTOPEN" ? "SQLITE_CANTOPEN" : null;
}
async function retryBusy(fn, sleep) {
  if (sleep instanceof DbWait) return sleep.run(async () => fn(), busyReason);
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (e) {
      if (!isBusy(e)) throw e;
      await sleep(busyDelayMs(attempt));
    }
  }
}
function retryBusySync(fn) {
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (e) {
      if (!isBusy(e)) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, busyDelayMs(attempt) + 1);
    }
  }
}

// src/store/sqlite/database.ts
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

// src/store/sqlite/migrations/001-batches-items-runs.ts
var BATCHES_ITEMS_RUNS_001 = `
        CREATE TABLE batches (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          kind TEXT NOT NULL DEFAULT 'runs',
          source_path TEXT NOT NULL,
          source_sha256 TEXT NOT NULL,
          base_url TEXT,
          settings TEXT NOT NULL DEFAULT '{}',
          policy TEXT,
          total_items INTEGER NOT NULL DEFAULT 0,
          invalid_rows TEXT NOT NULL DEFAULT '[]',
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE TABLE items (
          batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
          id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          line INTEGER NOT NULL,
          question TEXT NOT NULL,
          thread_key TEXT,
          meta TEXT NOT NULL DEFAULT '{}',
          state TEXT NOT NULL DEFAULT 'queued',
          step INTEGER NOT NULL DEFAULT 0,
          pending_key TEXT,
          pending_answer TEXT,
          run_id TEXT,
          thread_id TEXT,
          run_status TEXT,
          text TEXT,
          error TEXT,
          hold_reason TEXT,
          started_at TEXT,
          finished_at TEXT,
          updated_at TEXT NOT NULL,
          PRIMARY KEY (batch_id, id)
        );
        CREATE UNIQUE INDEX items_seq ON items(batch_id, seq);
        CREATE INDEX items_state ON items(batch_id, state, seq);
        CREATE INDEX items_thread ON items(batch_id, thread_key, seq) WHERE thread_key IS NOT NULL;
        CREATE TABLE threads (
          batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
          thread_key TEXT NOT NULL,
          thread_id TEXT NOT NULL,
          PRIMARY KEY (batch_id, thread_key)
        );
        CREATE TABLE runs (
          id TEXT PRIMARY KEY,
          batch_id TEXT NOT NULL,
          item_id TEXT NOT NULL,
          step INTEGER NOT NULL,
          parent_run_id TEXT REFERENCES runs(id),
          idempotency_key TEXT NOT NULL,
          status TEXT NOT NULL,
          thread_id TEXT,
          required_action TEXT,
          output TEXT,
          created_at TEXT NOT NULL,
          finished_at TEXT,
          FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE
        );
        CREATE INDEX runs_item ON runs(batch_id, item_id, step);
        CREATE TABLE decisions (
          id INTEGER PRIMARY KEY,
          batch_id TEXT NOT NULL,
          item_id TEXT NOT NULL,
          run_id TEXT NOT NULL,
          tool TEXT NOT NULL,
          input TEXT NOT NULL,
          answer TEXT NOT NULL,
          by TEXT NOT NULL CHECK (by IN ('policy', 'person')),
          reason TEXT,
          cost REAL NOT NULL DEFAULT 0,
          decided_at TEXT NOT NULL,
          FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE
        );
        CREATE INDEX decisions_item ON decisions(batch_id, item_id);
        CREATE TABLE files (
          batch_id TEXT NOT NULL,
          id TEXT NOT NULL,
          item_id TEXT NOT NULL,
          run_id TEXT NOT NULL,
          tool TEXT,
          role TEXT,
          name TEXT,
          url TEXT NOT NULL,
          media_type TEXT,
          first_seen_at TEXT NOT NULL,
          expires_at TEXT NOT NULL,
          status TEXT NOT NULL DEFAULT 'pending',
          path TEXT,
          bytes INTEGER,
          sha256 TEXT,
          error TEXT,
          PRIMARY KEY (batch_id, id),
          FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE
        );
        CREATE INDEX files_status ON files(batch_id, status);
      `;

// src/store/sqlite/migrations/004-model-runs.ts
var MODEL_RUNS_004 = `
        CREATE TABLE model_batches (
          batch_id TEXT PRIMARY KEY REFERENCES batches(id) ON DELETE CASCADE,
          model_id TEXT NOT NULL,
          mode TEXT,
          description TEXT NOT NULL
        );
        CREATE TABLE model_runs (
          batch_id TEXT NOT NULL,
          item_id TEXT NOT NULL,
          model_id TEXT NOT NULL,
          inputs TEXT NOT NULL,
          mode TEXT,
          idempotency_key TEXT,
          submits INTEGER NOT NULL DEFAULT 0,
          model_run_id TEXT,
          http_status INTEGER,
          status TEXT,
          poll_url TEXT,
          outputs TEXT,
          error TEXT,
          credits REAL,
          polls INTEGER NOT NULL DEFAULT 0,
          submitted_at TEXT,
          admitted_at TEXT,
          finished_at TEXT,
          PRIMARY KEY (batch_id, item_id),
          FOREIGN KEY (batch_id, item_id) REFERENCES items(batch_id, id) ON DELETE CASCADE
        );
        CREATE INDEX model_runs_run ON model_runs(model_run_id) WHERE model_run_id IS NOT NULL;
        CREATE VIEW model_run_list AS
          SELECT b.name AS batch, m.item_id, i.state, m.model_id, m.model_run_id, m.status, m.credits,
                 m.error, m.polls, m.submitted_at, m.admitted_at, m.finished_at
          FROM model_runs m JOIN batches b ON b.id = m.batch_id
          JOIN items i ON i.batch_id = m.batch_id AND i.id = m.item_id;
      `;

// src/store/sqlite/migrations/012-item-counts.ts
var ITEM_COUNTS_012 = `
        CREATE TABLE item_counts (
          batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
          state TEXT NOT NULL,
          n INTEGER NOT NULL,
          PRIMARY KEY (batch_id, state)
        ) WITHOUT ROWID;
        INSERT INTO item_counts (batch_id, state, n) SELECT batch_id, state, count(*) FROM items GROUP BY batch_id, state;
        CREATE TRIGGER item_counts_insert AFTER INSERT ON items BEGIN
          INSERT INTO item_counts (batch_id, state, n) VALUES (new.batch_id, new.state, 1)
            ON CONFLICT (batch_id, state) DO UPDATE SET n = n + 1;
        END;
        -- The item was counted, so its row exists (unless its batch is being deleted: then nothing to do).
        CREATE TRIGGER item_counts_delete AFTER DELETE ON items BEGIN
          UPDATE item_counts SET n = n - 1 WHERE batch_id = old.batch_id AND state = old.state;
        END;
        CREATE TRIGGER item_counts_state AFTER UPDATE OF state, batch_id ON items
          WHEN old.state IS NOT new.state OR old.batch_id IS NOT new.batch_id BEGIN
          UPDATE item_counts SET n = n - 1 WHERE batch_id = old.batch_id AND state = old.state;
          INSERT INTO item_counts (batch_id, state, n) VALUES (new.batch_id, new.state, 1)
            ON CONFLICT (batch_id, state) DO UPDATE SET n = n + 1;
        END;
      `;

// src/store/sqlite/migrations/017-outbox.ts
var OUTBOX_017 = `
  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    item_id TEXT, run_id TEXT, reason TEXT,
    data TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    due_at INTEGER NOT NULL DEFAULT 0,
    owner TEXT, lease_until INTEGER, fence INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    delivered TEXT NOT NULL DEFAULT '[]',
    last_error TEXT, last_error_at INTEGER, sent_at INTEGER);
  
  CREATE UNIQUE INDEX outbox_key ON outbox(batch_id, key);
  CREATE INDEX outbox_due ON outbox(due_at, id) WHERE status = 'pending';
  CREATE INDEX outbox_kind ON outbox(batch_id, type, status, created_at);
  CREATE TRIGGER outbox_held AFTER UPDATE OF state ON items WHEN new.state = 'held' AND old.state IS NOT 'held' BEGIN
    INSERT OR IGNORE INTO outbox (batch_id, key, type, status, item_id, run_id, reason, created_at)
    SELECT new.batch_id, 'held:' || new.id || ':' || coalesce(new.run_id, ''), 'item.held', 'fact', new.id, new.run_id, new.hold_reason, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b WHERE b.id = new.batch_id AND json_extract(b.settings, '$.notify') IS NOT NULL;
  END;
  -- An item ending moves item_counts (migration 012): a terminal state's count grows last.
  CREATE TRIGGER outbox_finished_grown AFTER UPDATE OF n ON item_counts WHEN new.state IN ('completed', 'failed', 'error', 'cancelled') AND new.n > old.n BEGIN
    
    INSERT OR IGNORE INTO outbox (batch_id, key, type, status, created_at)
    SELECT new.batch_id, 'finished:' || (SELECT count(*) FROM outbox o WHERE o.batch_id = new.batch_id AND o.type = 'batch.finished'),
           'batch.finished', 'pending', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b WHERE b.id = new.batch_id AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM item_counts c WHERE c.batch_id = new.batch_id AND c.state IN ('queued', 'submitting', 'running', 'waiting', 'held', 'flight') AND c.n > 0);
  END;
  CREATE TRIGGER outbox_finished_first AFTER INSERT ON item_counts WHEN new.state IN ('completed', 'failed', 'error', 'cancelled') BEGIN
    
    INSERT OR IGNORE INTO outbox (batch_id, key, type, status, created_at)
    SELECT new.batch_id, 'finished:' || (SELECT count(*) FROM outbox o WHERE o.batch_id = new.batch_id AND o.type = 'batch.finished'),
           'batch.finished', 'pending', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b WHERE b.id = new.batch_id AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM item_counts c WHERE c.batch_id = new.batch_id AND c.state IN ('queued', 'submitting', 'running', 'waiting', 'held', 'flight') AND c.n > 0);
  END;
  CREATE TRIGGER outbox_budget AFTER INSERT ON decisions WHEN new.cost > 0 BEGIN
    INSERT OR IGNORE INTO outbox (batch_id, key, type, status, data, created_at)
    SELECT new.batch_id, 'budget:' || s.pct, 'budget.reached', 'pending',
           json_object('share', s.pct, 'budget', json_extract(b.policy, '$.confirm_scope.batch_budget'), 'approved', t.total), CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b
      JOIN (SELECT coalesce(sum(cost), 0) AS total FROM decisions WHERE batch_id = new.batch_id) t
      JOIN (SELECT 80 AS pct UNION ALL SELECT 100 AS pct) s
    WHERE b.id = new.batch_id AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND json_extract(b.policy, '$.confirm_scope.batch_budget') > 0
      AND t.total >= json_extract(b.policy, '$.confirm_scope.batch_budget') * s.pct / 100.0;
  END;`;

// src/store/sqlite/migrations/019-lean-items.ts
function leanItems(db) {
  db.exec(`
    ALTER TABLE batches ADD COLUMN num INTEGER;
    UPDATE batches SET num = rowid;
    -- Read by: the adapter's id \u2192 num map (batches.ts), once per batch and process.
    CREATE UNIQUE INDEX batches_num ON batches(num);
  `);
  rebuildItems(db);
  db.exec(`
    CREATE TABLE flights (
      item_key INTEGER PRIMARY KEY REFERENCES items(key) ON DELETE CASCADE,
      batch_num INTEGER NOT NULL,
      state TEXT NOT NULL,
      step INTEGER NOT NULL,
      pending_key TEXT,
      pending_answer TEXT,
      run_id TEXT,
      thread_id TEXT,
      run_status TEXT,
      text TEXT,
      owner TEXT,
      lease_until INTEGER,
      fence INTEGER NOT NULL,
      updated_at TEXT NOT NULL
    );
    -- Read by: a worker's heartbeat and retirement (its items: batch_num, owner), the live
    -- workers' counts, the count in flight (answered items no worker held: owner and lease
    -- null) and the orphan scan (lease_until < now) in claims.ts. A step of a run writes
    -- none of these columns: only a claim, a heartbeat, a release and the end do.
    CREATE INDEX flights_for_leases ON flights(batch_num, owner, lease_until);
    -- Read by: the budget's approved cost (decisions.ts approvedCost), summed at every pause:
    -- a walk of these small entries, not of the decisions' rows (their JSON input and answer).
    CREATE INDEX decisions_for_budget ON decisions(batch_id, cost);
    INSERT INTO flights (item_key, batch_num, state, step, pending_key, pending_answer, run_id, thread_id, run_status, text, owner, lease_until, fence, updated_at)
      SELECT i.key, b.num, i.state, i.step, i.pending_key, i.pending_answer, i.run_id, i.thread_id, i.run_status, i.text, i.owner, i.lease_until, i.fence, i.updated_at
      FROM items i JOIN batches b ON b.id = i.batch_id
      WHERE i.state IN ('submitting', 'running', 'waiting');
    UPDATE items SET state = 'flight', owner = NULL, lease_until = NULL WHERE key IN (SELECT item_key FROM flights);
  `);
  views(db);
}
var READER_INDEXES = [
  // Read by: claims.ts, the next queued items in file order (and one seq per item); batch-append.ts, the next seq.
  "CREATE UNIQUE INDEX items_for_claim ON items(batch_num, seq)",
  // Read by: reads.ts, item-pages.ts and aggregates.ts, the items of some states in file order;
  // claims.ts, the items of some states to resume, and a thread's unfinished items.
  "CREATE INDEX items_for_state_pages ON items(batch_num, state, seq) WHERE state <> 'queued'",
  // Read by: claims.ts through reads.ts, a thread's next item and its unfinished earlier ones.
  "CREATE INDEX items_for_thread_claim ON items(batch_num, thread_key, seq) WHERE thread_key IS NOT NULL",
  // Read by: item-pages.ts, a page sorted by latest change; outbox.ts, the batch's latest change.
  "CREATE INDEX items_for_web_sort ON items(batch_num, updated_at, seq) WHERE state <> 'queued'",
  // Read by: item-pages.ts, the first and last finish; reads.ts, the latest finishes (rate and ETA).
  "CREATE INDEX items_for_rate ON items(batch_num, finished_at) WHERE finished_at IS NOT NULL"
];
var REPLACED = /* @__PURE__ */ new Set(["items_seq", "items_state", "items_thread", "items_updated", "items_finished", "items_active"]);
function rebuildItems(db) {
  const schema = (type) => db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = ? AND tbl_name = 'items' AND sql IS NOT NULL`).all(type);
  const table = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'items'").pluck().get();
  const indexes = schema("index").filter((i) => !REPLACED.has(i.name));
  const triggers = schema("trigger");
  const allViews = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'view'").all();
  for (const v of allViews) db.exec(`DROP VIEW "${v.name}"`);
  const cols = db.prepare("SELECT name FROM pragma_table_info('items')").pluck().all().map((c) => `"${c}"`).join(", ");
  const created = table.replace(/^CREATE TABLE\s+"?items"?\s*\(/i, "CREATE TABLE items_new (key INTEGER PRIMARY KEY, batch_num INTEGER NOT NULL, ").replace(/PRIMARY KEY\s*\(\s*batch_id\s*,\s*id\s*\)/i, "UNIQUE (batch_id, id)");
  if (!created.startsWith("CREATE TABLE items_new") || !created.includes("UNIQUE (batch_id, id)")) throw new Error("019_lean_items: the items table is not the one expected");
  db.exec(created);
  db.exec(`INSERT INTO items_new (key, batch_num, ${cols})
    SELECT rowid, (SELECT num FROM batches b WHERE b.id = items.batch_id), ${cols} FROM items ORDER BY rowid`);
  db.exec("DROP TABLE items");
  db.exec("ALTER TABLE items_new RENAME TO items");
  for (const i of indexes) db.exec(i.sql);
  for (const sql of READER_INDEXES) db.exec(sql);
  for (const t of triggers) db.exec(t.sql);
  for (const v of allViews) db.exec(v.sql);
}
var ITEM_COLUMNS_019 = "i.id, i.seq, i.line, i.question, i.thread_key, i.meta, i.error, i.error_code, i.hold_reason, i.started_at, i.finished_at, i.attempt, CASE WHEN f.item_key IS NULL THEN i.state ELSE f.state END AS state, CASE WHEN f.item_key IS NULL THEN i.step ELSE f.step END AS step, CASE WHEN f.item_key IS NULL THEN i.pending_key ELSE f.pending_key END AS pending_key, CASE WHEN f.item_key IS NULL THEN i.pending_answer ELSE f.pending_answer END AS pending_answer, CASE WHEN f.item_key IS NULL THEN i.run_id ELSE f.run_id END AS run_id, CASE WHEN f.item_key IS NULL THEN i.thread_id ELSE f.thread_id END AS thread_id, CASE WHEN f.item_key IS NULL THEN i.run_status ELSE f.run_status END AS run_status, CASE WHEN f.item_key IS NULL THEN i.text ELSE f.text END AS text, CASE WHEN f.item_key IS NULL THEN i.owner ELSE f.owner END AS owner, CASE WHEN f.item_key IS NULL THEN i.lease_until ELSE f.lease_until END AS lease_until, CASE WHEN f.item_key IS NULL THEN i.fence ELSE f.fence END AS fence, CASE WHEN f.item_key IS NULL THEN i.updated_at ELSE f.updated_at END AS updated_at";
var ITEM_019 = `(SELECT i.batch_id, ${ITEM_COLUMNS_019} FROM items i LEFT JOIN flights f ON f.item_key = i.key)`;
function views(db) {
  const item = ITEM_019;
  db.exec(`
    DROP VIEW item_summary;
    CREATE VIEW item_summary AS
      SELECT b.name AS batch, i.id, i.state, i.run_status, i.question, i.thread_id,
             i.run_id AS latest_run_id, i.step AS responds,
             substr(i.text, 1, 200) AS answer_start, i.error, i.hold_reason,
             i.started_at, i.finished_at
      FROM ${item} i JOIN batches b ON b.id = i.batch_id;
    DROP VIEW batch_counts;
    CREATE VIEW batch_counts AS
      SELECT b.name AS batch, i.state, count(*) AS items
      FROM ${item} i JOIN batches b ON b.id = i.batch_id
      GROUP BY b.name, i.state;
    DROP VIEW model_run_list;
    CREATE VIEW model_run_list AS
      SELECT b.name AS batch, m.item_id, i.state, m.model_id, m.model_run_id, m.status, m.credits,
             m.error, m.polls, m.submitted_at, m.admitted_at, m.finished_at
      FROM model_runs m JOIN batches b ON b.id = m.batch_id
      JOIN ${item} i ON i.batch_id = m.batch_id AND i.id = m.item_id;
  `);
}

// src/store/sqlite/migrations/020-outbox.ts
var OUTBOX_TABLE_020 = `
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    batch_num INTEGER NOT NULL REFERENCES batches(num) ON DELETE CASCADE,
    key TEXT NOT NULL,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    item_id TEXT, run_id TEXT, reason TEXT,
    data TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    due_at INTEGER NOT NULL DEFAULT 0,
    owner TEXT, lease_until INTEGER, fence INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    delivered TEXT NOT NULL DEFAULT '[]',
    last_error TEXT, last_error_at INTEGER, sent_at INTEGER`;
var OUTBOX_INDEXES_020 = [
  // Read by: every write of an event (INSERT OR IGNORE: one event per key), outbox.ts and the triggers below.
  "CREATE UNIQUE INDEX outbox_for_key ON outbox(batch_num, key)",
  // Read by: outbox.ts claim, the pending events due (as 017's outbox_due).
  "CREATE INDEX outbox_due ON outbox(due_at, id) WHERE status = 'pending'",
  // Read by: outbox.ts collateHeld (a batch's facts and digests) and state (its undelivered events);
  // the batch.finished trigger's count of the batch's earlier ends.
  "CREATE INDEX outbox_for_kind ON outbox(batch_num, type, status, created_at)"
];
var OUTBOX_TRIGGERS_020 = `
  CREATE TRIGGER outbox_held AFTER UPDATE OF state ON items WHEN new.state = 'held' AND old.state IS NOT 'held' BEGIN
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, item_id, run_id, reason, created_at)
    SELECT new.batch_num, 'held:' || new.id || ':' || coalesce(new.run_id, ''), 'item.held', 'fact', new.id, new.run_id, new.hold_reason, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b WHERE b.num = new.batch_num AND json_extract(b.settings, '$.notify') IS NOT NULL;
  END;
  -- An item ending moves item_counts (migration 012): a terminal state's count grows last.
  CREATE TRIGGER outbox_finished_grown AFTER UPDATE OF n ON item_counts WHEN new.state IN ('completed', 'failed', 'error', 'cancelled') AND new.n > old.n BEGIN
    
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, created_at)
    SELECT new.batch_num, 'finished:' || (SELECT count(*) FROM outbox o WHERE o.batch_num = new.batch_num AND o.type = 'batch.finished'),
           'batch.finished', 'pending', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b WHERE b.num = new.batch_num AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM item_counts c WHERE c.batch_num = new.batch_num AND c.state IN ('queued', 'submitting', 'running', 'waiting', 'held', 'flight') AND c.n > 0);
  END;
  CREATE TRIGGER outbox_finished_first AFTER INSERT ON item_counts WHEN new.state IN ('completed', 'failed', 'error', 'cancelled') BEGIN
    
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, created_at)
    SELECT new.batch_num, 'finished:' || (SELECT count(*) FROM outbox o WHERE o.batch_num = new.batch_num AND o.type = 'batch.finished'),
           'batch.finished', 'pending', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b WHERE b.num = new.batch_num AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM item_counts c WHERE c.batch_num = new.batch_num AND c.state IN ('queued', 'submitting', 'running', 'waiting', 'held', 'flight') AND c.n > 0);
  END;
  -- A decision with a cost moves batch_spend (batch-num-keys.ts): its approved cost is the total.
  CREATE TRIGGER outbox_budget_grown AFTER UPDATE OF approved ON batch_spend WHEN new.approved > old.approved BEGIN
    
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, data, created_at)
    SELECT new.batch_num, 'budget:' || s.pct, 'budget.reached', 'pending',
           json_object('share', s.pct, 'budget', json_extract(b.policy, '$.confirm_scope.batch_budget'), 'approved', new.approved), CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b
      JOIN (SELECT 80 AS pct UNION ALL SELECT 100 AS pct) s
    WHERE b.num = new.batch_num AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND json_extract(b.policy, '$.confirm_scope.batch_budget') > 0
      AND new.approved >= json_extract(b.policy, '$.confirm_scope.batch_budget') * s.pct / 100.0
      AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.batch_num = new.batch_num AND o.key = 'budget:' || s.pct);
  END;
  CREATE TRIGGER outbox_budget_first AFTER INSERT ON batch_spend WHEN new.approved > 0 BEGIN
    
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, data, created_at)
    SELECT new.batch_num, 'budget:' || s.pct, 'budget.reached', 'pending',
           json_object('share', s.pct, 'budget', json_extract(b.policy, '$.confirm_scope.batch_budget'), 'approved', new.approved), CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b
      JOIN (SELECT 80 AS pct UNION ALL SELECT 100 AS pct) s
    WHERE b.num = new.batch_num AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND json_extract(b.policy, '$.confirm_scope.batch_budget') > 0
      AND new.approved >= json_extract(b.policy, '$.confirm_scope.batch_budget') * s.pct / 100.0
      AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.batch_num = new.batch_num AND o.key = 'budget:' || s.pct);
  END;`;

// src/store/sqlite/migrations/020-batch-num-keys.ts
function batchNumKeys(db) {
  for (const t of db.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view')").all()) {
    db.exec(`DROP ${t.type.toUpperCase()} "${t.name}"`);
  }
  for (const t of TABLES) rebuild(db, t);
  db.exec(`
    CREATE TABLE batch_spend (
      batch_num INTEGER PRIMARY KEY REFERENCES batches(num) ON DELETE CASCADE,
      approved REAL NOT NULL DEFAULT 0
    );
    INSERT INTO batch_spend (batch_num, approved) SELECT batch_num, sum(coalesce(cost, 0)) FROM decisions GROUP BY batch_num;
  `);
  for (const sql of INDEXES) db.exec(sql);
  db.exec(TRIGGERS);
  db.exec(OUTBOX_TRIGGERS_020);
  db.exec(VIEWS);
}
var BATCH = "batch_num INTEGER NOT NULL REFERENCES batches(num) ON DELETE CASCADE";
var OF_ITEM = "FOREIGN KEY (batch_num, item_id) REFERENCES items(batch_num, id) ON DELETE CASCADE";
var TABLES = [
  {
    name: "items",
    keepRowid: true,
    body: `key INTEGER PRIMARY KEY, ${BATCH},
      id TEXT NOT NULL, seq INTEGER NOT NULL, line INTEGER NOT NULL, question TEXT NOT NULL, thread_key TEXT,
      meta TEXT NOT NULL DEFAULT '{}', state TEXT NOT NULL DEFAULT 'queued', step INTEGER NOT NULL DEFAULT 0,
      pending_key TEXT, pending_answer TEXT, run_id TEXT, thread_id TEXT, run_status TEXT, text TEXT, error TEXT,
      hold_reason TEXT, started_at TEXT, finished_at TEXT, updated_at TEXT NOT NULL, owner TEXT, lease_until INTEGER,
      attempt INTEGER NOT NULL DEFAULT 0, error_code TEXT, fence INTEGER NOT NULL DEFAULT 0,
      UNIQUE (batch_num, id)`
  },
  {
    name: "threads",
    keepRowid: true,
    body: `${BATCH}, thread_key TEXT NOT NULL, thread_id TEXT NOT NULL, PRIMARY KEY (batch_num, thread_key)`
  },
  {
    name: "runs",
    keepRowid: true,
    body: `id TEXT PRIMARY KEY, ${BATCH}, item_id TEXT NOT NULL, step INTEGER NOT NULL,
      parent_run_id TEXT REFERENCES runs(id), idempotency_key TEXT NOT NULL, status TEXT NOT NULL, thread_id TEXT,
      required_action TEXT, output TEXT, created_at TEXT NOT NULL, finished_at TEXT, error_code TEXT, error TEXT,
      ${OF_ITEM}`
  },
  {
    name: "decisions",
    keepRowid: false,
    body: `id INTEGER PRIMARY KEY, ${BATCH}, item_id TEXT NOT NULL, run_id TEXT NOT NULL, tool TEXT NOT NULL,
      input TEXT NOT NULL, answer TEXT NOT NULL, by TEXT NOT NULL CHECK (by IN ('policy', 'person')), reason TEXT,
      cost REAL NOT NULL DEFAULT 0, decided_at TEXT NOT NULL, person TEXT, respond_key TEXT,
      ${OF_ITEM}`
  },
  {
    name: "files",
    keepRowid: true,
    body: `${BATCH}, id TEXT NOT NULL, item_id TEXT NOT NULL, run_id TEXT NOT NULL, tool TEXT, role TEXT, name TEXT,
      url TEXT NOT NULL, media_type TEXT, first_seen_at TEXT NOT NULL, expires_at TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending', path TEXT, bytes INTEGER, sha256 TEXT, error TEXT, host TEXT,
      PRIMARY KEY (batch_num, id),
      ${OF_ITEM}`
  },
  {
    name: "file_copies",
    keepRowid: true,
    body: `${BATCH}, file_id TEXT NOT NULL, host TEXT NOT NULL, path TEXT NOT NULL, bytes INTEGER NOT NULL,
      sha256 TEXT NOT NULL, copied_at TEXT NOT NULL,
      PRIMARY KEY (batch_num, file_id, host),
      FOREIGN KEY (batch_num, file_id) REFERENCES files(batch_num, id) ON DELETE CASCADE`
  },
  {
    name: "model_batches",
    keepRowid: false,
    body: `batch_num INTEGER PRIMARY KEY REFERENCES batches(num) ON DELETE CASCADE, model_id TEXT NOT NULL, mode TEXT,
      description TEXT NOT NULL`
  },
  {
    name: "model_runs",
    keepRowid: true,
    body: `${BATCH}, item_id TEXT NOT NULL, model_id TEXT NOT NULL, inputs TEXT NOT NULL, mode TEXT, idempotency_key TEXT,
      submits INTEGER NOT NULL DEFAULT 0, model_run_id TEXT, http_status INTEGER, status TEXT, poll_url TEXT, outputs TEXT,
      error TEXT, credits REAL, polls INTEGER NOT NULL DEFAULT 0, submitted_at TEXT, admitted_at TEXT, finished_at TEXT,
      PRIMARY KEY (batch_num, item_id),
      ${OF_ITEM}`
  },
  {
    name: "workers",
    keepRowid: true,
    body: `id TEXT PRIMARY KEY, ${BATCH}, host TEXT NOT NULL, pid INTEGER NOT NULL, started_at TEXT NOT NULL,
      heartbeat_at INTEGER NOT NULL, stopped_at TEXT, pid_start TEXT`
  },
  {
    name: "item_counts",
    keepRowid: false,
    body: `${BATCH}, state TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (batch_num, state)`,
    tail: " WITHOUT ROWID"
  },
  { name: "outbox", keepRowid: false, body: OUTBOX_TABLE_020 }
];
function rebuild(db, t) {
  const fresh = `${t.name}_020`;
  db.exec(`CREATE TABLE ${fresh} (${t.body})${t.tail ?? ""}`);
  const cols = db.prepare(`SELECT name FROM pragma_table_info('${fresh}')`).pluck().all().filter((c) => c !== "batch_num");
  const rowid = t.keepRowid && !cols.includes("key") ? "rowid, " : "";
  const high = hasSequence(db) ? db.prepare("SELECT seq FROM sqlite_sequence WHERE name = ?").pluck().get(t.name) : void 0;
  db.exec(`INSERT INTO ${fresh} (${rowid}batch_num, ${cols.map((c) => `"${c}"`).join(", ")})
    SELECT ${rowid ? "o.rowid, " : ""}b.num, ${cols.map((c) => `o."${c}"`).join(", ")} FROM ${t.name} o JOIN batches b ON b.id = o.batch_id`);
  db.exec(`DROP TABLE ${t.name}`);
  db.exec(`ALTER TABLE ${fresh} RENAME TO ${t.name}`);
  if (high !== void 0) {
    db.prepare("INSERT INTO sqlite_sequence (name, seq) SELECT ?, 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)").run(t.name, t.name);
    db.prepare("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?").run(high, t.name);
  }
}
function hasSequence(db) {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get() !== void 0;
}
var INDEXES = [
  // The items readers' indexes of 019 (dropped with the old table), as they were but items_for_rate.
  ...READER_INDEXES.filter((sql) => !sql.includes(" items_for_rate ")),
  // Read by: reads.ts recentFinishes, the latest ends (ORDER BY finished_at DESC, seq DESC: the
  // index gives that order, where 019's sorted every end of the batch sharing the latest time —
  // a 1,000,000-item batch set in one statement: 325 ms a read); item-pages.ts, the first and last finish.
  "CREATE INDEX items_for_rate ON items(batch_num, finished_at, seq) WHERE finished_at IS NOT NULL",
  // Read by: runs.ts chain (an item's runs), aggregates.ts (an item's runs in an export),
  // summaries.ts (the runs of a batch by item, their count), reads.ts recentFinishes, item-pages.ts activity.
  "CREATE INDEX runs_for_item ON runs(batch_num, item_id, step)",
  // Read by: decisions.ts forRun and the insert's ON CONFLICT: one decision per paused run.
  "CREATE UNIQUE INDEX decisions_for_run ON decisions(batch_num, run_id)",
  // Read by: decisions.ts forItem, aggregates.ts (an item's decisions), summaries.ts (decisions by item, their count).
  "CREATE INDEX decisions_for_item ON decisions(batch_num, item_id)",
  // Read by: files.ts, a batch's files by status (list, counts, bytes on disk, the next expiry, the expired).
  "CREATE INDEX files_for_status ON files(batch_num, status)",
  // Read by: claims.ts live, the batch's workers with a recent heartbeat.
  "CREATE INDEX workers_for_live ON workers(batch_num, heartbeat_at)",
  ...OUTBOX_INDEXES_020
];
var TRIGGERS = `
  CREATE TRIGGER item_counts_insert AFTER INSERT ON items BEGIN
    INSERT INTO item_counts (batch_num, state, n) VALUES (new.batch_num, new.state, 1)
      ON CONFLICT (batch_num, state) DO UPDATE SET n = n + 1;
  END;
  -- The item was counted, so its row exists (unless its batch is being deleted: then nothing to do).
  CREATE TRIGGER item_counts_delete AFTER DELETE ON items BEGIN
    UPDATE item_counts SET n = n - 1 WHERE batch_num = old.batch_num AND state = old.state;
  END;
  CREATE TRIGGER item_counts_state AFTER UPDATE OF state, batch_num ON items
    WHEN old.state IS NOT new.state OR old.batch_num IS NOT new.batch_num BEGIN
    UPDATE item_counts SET n = n - 1 WHERE batch_num = old.batch_num AND state = old.state;
    INSERT INTO item_counts (batch_num, state, n) VALUES (new.batch_num, new.state, 1)
      ON CONFLICT (batch_num, state) DO UPDATE SET n = n + 1;
  END;
  -- The batch's approved cost (decisions.ts approvedCost): one row per batch, moved by every decision.
  CREATE TRIGGER batch_spend_insert AFTER INSERT ON decisions WHEN coalesce(new.cost, 0) <> 0 BEGIN
    INSERT INTO batch_spend (batch_num, approved) VALUES (new.batch_num, coalesce(new.cost, 0))
      ON CONFLICT (batch_num) DO UPDATE SET approved = approved + excluded.approved;
  END;
  CREATE TRIGGER batch_spend_delete AFTER DELETE ON decisions WHEN coalesce(old.cost, 0) <> 0 BEGIN
    UPDATE batch_spend SET approved = approved - coalesce(old.cost, 0) WHERE batch_num = old.batch_num;
  END;
  CREATE TRIGGER batch_spend_update AFTER UPDATE OF cost, batch_num ON decisions
    WHEN old.cost IS NOT new.cost OR old.batch_num IS NOT new.batch_num BEGIN
    UPDATE batch_spend SET approved = approved - coalesce(old.cost, 0) WHERE batch_num = old.batch_num;
    INSERT INTO batch_spend (batch_num, approved) VALUES (new.batch_num, coalesce(new.cost, 0))
      ON CONFLICT (batch_num) DO UPDATE SET approved = approved + excluded.approved;
  END;`;
var ITEM = `(SELECT i.batch_num, ${ITEM_COLUMNS_019} FROM items i LEFT JOIN flights f ON f.item_key = i.key)`;
var VIEWS = `
  CREATE VIEW item_summary AS
    SELECT b.name AS batch, i.id, i.state, i.run_status, i.question, i.thread_id,
           i.run_id AS latest_run_id, i.step AS responds,
           substr(i.text, 1, 200) AS answer_start, i.error, i.hold_reason,
           i.started_at, i.finished_at
    FROM ${ITEM} i JOIN batches b ON b.num = i.batch_num;
  CREATE VIEW batch_counts AS
    SELECT b.name AS batch, i.state, count(*) AS items
    FROM ${ITEM} i JOIN batches b ON b.num = i.batch_num
    GROUP BY b.name, i.state;
  CREATE VIEW decision_log AS
    SELECT b.name AS batch, d.item_id, d.tool, d.answer, d.by, d.person,
           CASE WHEN d.by = 'person' THEN d.reason ELSE json_extract(d.answer, '$.note') END AS note,
           d.cost, CASE WHEN d.by = 'policy' THEN d.reason END AS reason, d.decided_at
    FROM decisions d JOIN batches b ON b.num = d.batch_num;
  CREATE VIEW file_list AS
    SELECT b.name AS batch, f.item_id, f.id AS file_id, f.role, f.name, f.status,
           f.path, f.bytes, f.sha256, f.expires_at
    FROM files f JOIN batches b ON b.num = f.batch_num;
  CREATE VIEW model_run_list AS
    SELECT b.name AS batch, m.item_id, i.state, m.model_id, m.model_run_id, m.status, m.credits,
           m.error, m.polls, m.submitted_at, m.admitted_at, m.finished_at
    FROM model_runs m JOIN batches b ON b.num = m.batch_num
    JOIN ${ITEM} i ON i.batch_num = m.batch_num AND i.id = m.item_id;`;

// src/store/sqlite/migrations/030-claim-writes-flight.ts
var CLAIM_WRITES_FLIGHT_030 = `
  ALTER TABLE flights ADD COLUMN started_at TEXT;
  UPDATE flights SET started_at = (SELECT i.started_at FROM items i WHERE i.key = flights.item_key);
  UPDATE items SET state = 'queued' WHERE state = 'flight';
  DELETE FROM item_counts WHERE state = 'flight';
  INSERT INTO item_counts (batch_num, state, n) SELECT batch_num, 'flight', count(*) FROM flights GROUP BY batch_num;
  CREATE TRIGGER flights_counted_insert AFTER INSERT ON flights BEGIN
    INSERT INTO item_counts (batch_num, state, n) VALUES (new.batch_num, 'flight', 1)
      ON CONFLICT (batch_num, state) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER flights_counted_delete AFTER DELETE ON flights BEGIN
    UPDATE item_counts SET n = n - 1 WHERE batch_num = old.batch_num AND state = 'flight';
  END;
  DROP VIEW item_summary;
  CREATE VIEW item_summary AS
    SELECT b.name AS batch, i.id,
           CASE WHEN f.item_key IS NULL THEN i.state ELSE f.state END AS state,
           CASE WHEN f.item_key IS NULL THEN i.run_status ELSE f.run_status END AS run_status,
           i.question,
           CASE WHEN f.item_key IS NULL THEN i.thread_id ELSE f.thread_id END AS thread_id,
           CASE WHEN f.item_key IS NULL THEN i.run_id ELSE f.run_id END AS latest_run_id,
           CASE WHEN f.item_key IS NULL THEN i.step ELSE f.step END AS responds,
           substr(CASE WHEN f.item_key IS NULL THEN i.text ELSE f.text END, 1, 200) AS answer_start,
           i.error, i.hold_reason,
           CASE WHEN f.item_key IS NULL THEN i.started_at ELSE f.started_at END AS started_at,
           i.finished_at
    FROM items i LEFT JOIN flights f ON f.item_key = i.key JOIN batches b ON b.num = i.batch_num;
`;

// src/store/sqlite/migrations/031-flights-unsent.ts
var FLIGHTS_UNSENT_031 = `
  DROP INDEX flights_for_leases;
  CREATE INDEX flights_unsent ON flights(batch_num) WHERE owner IS NULL AND lease_until IS NULL AND state = 'waiting';
`;

// src/store/sqlite/migrations/032-budget-group.ts
var BUDGET_GROUP_032 = `
  ALTER TABLE batches ADD COLUMN spends_with INTEGER REFERENCES batches(num) ON DELETE SET NULL;
  UPDATE batches SET spends_with = (
    SELECT p.num FROM batches p
    WHERE p.num <> batches.num
      AND p.id = CASE WHEN json_valid(batches.settings) THEN CASE WHEN json_type(batches.settings, '$.judgeOf') = 'text' THEN json_extract(batches.settings, '$.judgeOf') END END)
  WHERE settings LIKE '%"judgeOf"%';
  -- budget-group.ts: the batches that spend with a group's leader.
  CREATE INDEX batches_spending_with ON batches(spends_with) WHERE spends_with IS NOT NULL;
  DROP TRIGGER outbox_budget_grown;
  DROP TRIGGER outbox_budget_first;
  CREATE TRIGGER outbox_budget_grown AFTER UPDATE OF approved ON batch_spend WHEN new.approved > old.approved BEGIN
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, data, created_at)
    SELECT b.num, 'budget:' || s.pct, 'budget.reached', 'pending',
           json_object('share', s.pct, 'budget', json_extract(b.policy, '$.confirm_scope.batch_budget'), 'approved', g.total), CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b
      JOIN (SELECT 80 AS pct UNION ALL SELECT 100 AS pct) s
      JOIN (SELECT coalesce(sum(x.approved), 0) AS total FROM batches m JOIN batch_spend x ON x.batch_num = m.num
            WHERE m.num = (SELECT coalesce(spends_with, num) FROM batches WHERE num = new.batch_num)
               OR m.spends_with = (SELECT coalesce(spends_with, num) FROM batches WHERE num = new.batch_num)) g
    WHERE b.num = (SELECT coalesce(spends_with, num) FROM batches WHERE num = new.batch_num)
      AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND json_extract(b.policy, '$.confirm_scope.batch_budget') > 0
      AND g.total >= json_extract(b.policy, '$.confirm_scope.batch_budget') * s.pct / 100.0
      AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.batch_num = b.num AND o.key = 'budget:' || s.pct);
  END;
  CREATE TRIGGER outbox_budget_first AFTER INSERT ON batch_spend WHEN new.approved > 0 BEGIN
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, data, created_at)
    SELECT b.num, 'budget:' || s.pct, 'budget.reached', 'pending',
           json_object('share', s.pct, 'budget', json_extract(b.policy, '$.confirm_scope.batch_budget'), 'approved', g.total), CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b
      JOIN (SELECT 80 AS pct UNION ALL SELECT 100 AS pct) s
      JOIN (SELECT coalesce(sum(x.approved), 0) AS total FROM batches m JOIN batch_spend x ON x.batch_num = m.num
            WHERE m.num = (SELECT coalesce(spends_with, num) FROM batches WHERE num = new.batch_num)
               OR m.spends_with = (SELECT coalesce(spends_with, num) FROM batches WHERE num = new.batch_num)) g
    WHERE b.num = (SELECT coalesce(spends_with, num) FROM batches WHERE num = new.batch_num)
      AND json_extract(b.settings, '$.notify') IS NOT NULL
      AND json_extract(b.policy, '$.confirm_scope.batch_budget') > 0
      AND g.total >= json_extract(b.policy, '$.confirm_scope.batch_budget') * s.pct / 100.0
      AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.batch_num = b.num AND o.key = 'budget:' || s.pct);
  END;
`;

// src/store/sqlite/migrations/033-state-trigger.ts
var STATE_TRIGGER_033 = `
  DROP TRIGGER item_counts_state;
  DROP TRIGGER outbox_held;
  DROP TRIGGER outbox_finished_grown;
  DROP TRIGGER outbox_finished_first;
  CREATE TRIGGER item_state_changed AFTER UPDATE OF state, batch_num ON items
    WHEN old.state IS NOT new.state OR old.batch_num IS NOT new.batch_num BEGIN
    UPDATE item_counts SET n = n - 1 WHERE batch_num = old.batch_num AND state = old.state;
    INSERT INTO item_counts (batch_num, state, n) VALUES (new.batch_num, new.state, 1)
      ON CONFLICT (batch_num, state) DO UPDATE SET n = n + 1;
    INSERT OR IGNORE INTO outbox (batch_num, key, type, status, item_id, run_id, reason, created_at)
    SELECT new.batch_num, 'held:' || new.id || ':' || coalesce(new.run_id, ''), 'item.held', 'fact', new.id, new.run_id, new.hold_reason, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    FROM batches b WHERE new.state = 'held' AND old.state IS NOT 'held'
      AND b.num = new.batch_num AND json_extract(b.settings, '$.notify') IS NOT NULL;
  END;
`;

// src/store/sqlite/migrations.ts
var migrations = [
  {
    name: "001_batches_items_runs",
    up: (db) => db.exec(BATCHES_ITEMS_RUNS_001)
  },
  {
    name: "002_views",
    up: (db) => db.exec(`
        CREATE VIEW item_summary AS
          SELECT b.name AS batch, i.id, i.state, i.run_status, i.question, i.thread_id,
                 i.run_id AS latest_run_id, i.step AS responds,
                 substr(i.text, 1, 200) AS answer_start, i.error, i.hold_reason,
                 i.started_at, i.finished_at
          FROM items i JOIN batches b ON b.id = i.batch_id;
        CREATE VIEW batch_counts AS
          SELECT b.name AS batch, i.state, count(*) AS items
          FROM items i JOIN batches b ON b.id = i.batch_id
          GROUP BY b.name, i.state;
        CREATE VIEW decision_log AS
          SELECT b.name AS batch, d.item_id, d.tool, d.answer, d.by, d.cost, d.reason, d.decided_at
          FROM decisions d JOIN batches b ON b.id = d.batch_id;
        CREATE VIEW file_list AS
          SELECT b.name AS batch, f.item_id, f.id AS file_id, f.role, f.name, f.status,
                 f.path, f.bytes, f.sha256, f.expires_at
          FROM files f JOIN batches b ON b.id = f.batch_id;
      `)
  },
  {
    // Direct model runs: one row per input row of a `models` batch, beside its item.
    name: "004_model_runs",
    up: (db) => db.exec(MODEL_RUNS_004)
  },
  {
    // Loading a batch adds every item as queued: leaving queued items out of the state
    // index spares one b-tree insert per row (1M rows: about 1 s). Queued items are found
    // through items_seq in file order; counts take them as the rest of the batch.
    name: "005_state_index_without_queued",
    up: (db) => db.exec(`
        DROP INDEX items_state;
        CREATE INDEX items_state ON items(batch_id, state, seq) WHERE state <> 'queued';
      `)
  },
  {
    // Several processes on one batch: workers with heartbeats, a lease on each claimed item,
    // a cancel mark and an adaptive cap on the batch, the attempt of a retried item, the
    // host holding a file.
    name: "006_workers_leases",
    up: (db) => db.exec(`
        CREATE TABLE workers (
          id TEXT PRIMARY KEY,
          batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
          host TEXT NOT NULL,
          pid INTEGER NOT NULL,
          started_at TEXT NOT NULL,
          heartbeat_at INTEGER NOT NULL,
          stopped_at TEXT
        );
        CREATE INDEX workers_batch ON workers(batch_id, heartbeat_at);
        ALTER TABLE items ADD COLUMN owner TEXT;
        ALTER TABLE items ADD COLUMN lease_until INTEGER;
        ALTER TABLE items ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX items_owner ON items(owner) WHERE owner IS NOT NULL;
        -- Items with work at the service: the cap's count and the takeover scan read only this (covering) index.
        CREATE INDEX items_active ON items(batch_id, state, owner, lease_until)
          WHERE state IN ('submitting', 'running', 'waiting');
        ALTER TABLE batches ADD COLUMN cancelled_at TEXT;
        ALTER TABLE batches ADD COLUMN cap_limit INTEGER;
        ALTER TABLE files ADD COLUMN host TEXT;
      `)
  },
  {
    // Who answered a pause: the person's name beside `by = 'person'` (the web view and `answer --by`).
    name: "007_decision_person",
    up: (db) => db.exec("ALTER TABLE decisions ADD COLUMN person TEXT;")
  },
  {
    // A failure says why: the service's error code and message on the failed run and its
    // item (the item's `error` keeps the message; `error_code` is new).
    name: "008_error_codes",
    up: (db) => db.exec(`
        ALTER TABLE items ADD COLUMN error_code TEXT;
        ALTER TABLE runs ADD COLUMN error_code TEXT;
        ALTER TABLE runs ADD COLUMN error TEXT;
      `)
  },
  {
    // Copies of downloaded files on other hosts (`files pull` on a machine that lacks them).
    name: "009_file_copies",
    up: (db) => db.exec(`
        CREATE TABLE file_copies (
          batch_id TEXT NOT NULL,
          file_id TEXT NOT NULL,
          host TEXT NOT NULL,
          path TEXT NOT NULL,
          bytes INTEGER NOT NULL,
          sha256 TEXT NOT NULL,
          copied_at TEXT NOT NULL,
          PRIMARY KEY (batch_id, file_id, host),
          FOREIGN KEY (batch_id, file_id) REFERENCES files(batch_id, id) ON DELETE CASCADE
        );
      `)
  },
  {
    // The web view's items table sorted by latest change (started items only, like items_state:
    // loading a batch adds no entry to it).
    name: "010_web_items_updated",
    up: (db) => db.exec(`CREATE INDEX items_updated ON items(batch_id, updated_at, seq) WHERE state <> 'queued';`)
  },
  {
    // The web view's rate: the first and last finish and their count read from an index, not
    // a scan of the batch (a 1,000,000-item batch's overview read every row).
    name: "011_web_items_finished",
    up: (db) => db.exec(`CREATE INDEX items_finished ON items(batch_id, finished_at) WHERE finished_at IS NOT NULL;`)
  },
  {
    // Counts by state kept beside the items (issue 22): the overview of a 1,000,000-item batch
    // read every entry of an index to count them (169 ms). Triggers keep one row per (batch,
    // state) exact on every insert, delete and change of state, whichever path makes it;
    // the rows are filled from the items already here. One writer at a time (SQLite), so one
    // row per state is no hot spot.
    name: "012_item_counts",
    up: (db) => db.exec(ITEM_COUNTS_012)
  },
  {
    // Issue 23: each run wrote and removed an entry of items_owner (claimed, then ended) for
    // the few reads by owner (a heartbeat, a retirement, a worker's count), which items_active
    // serves: only items with work at the service have an owner.
    name: "013_drop_items_owner",
    up: (db) => db.exec("DROP INDEX items_owner;")
  },
  {
    // Issue 28: fenced ownership and one decision per paused run. Each claim of an item gives
    // it a fencing token one higher (items.fence); every write of a driver is conditioned on
    // its owner and that token. A paused run is decided once (decisions_run): a second attempt
    // records nothing and takes the first. A database where a stalled worker recorded a second
    // decision for one run keeps the first of them (the lowest id: the one the budget counted
    // first), so the cost of one pause is counted once from now on. The respond's key is kept
    // with the decision that it carries.
    name: "014_fencing",
    up: (db) => db.exec(`
        ALTER TABLE items ADD COLUMN fence INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE decisions ADD COLUMN respond_key TEXT;
        DELETE FROM decisions WHERE id NOT IN (SELECT min(id) FROM decisions GROUP BY batch_id, run_id);
        CREATE UNIQUE INDEX decisions_run ON decisions(batch_id, run_id);
      `)
  },
  {
    // Issue 28.5: the start identity of a worker's process (boot id and start time on Linux),
    // so a worker of this host whose pid is gone, or reused after a reboot or by another
    // program, is known dead at once. Null: an older worker, or a host that does not tell.
    name: "015_worker_pid_start",
    up: (db) => db.exec("ALTER TABLE workers ADD COLUMN pid_start TEXT;")
  },
  {
    // Who decided, in the view a lead reads: the person's name and their note in columns of
    // their own (a person's note is stored as the decision's reason; a policy's reason is its rule).
    name: "016_decision_log_person",
    up: (db) => db.exec(`
        DROP VIEW decision_log;
        CREATE VIEW decision_log AS
          SELECT b.name AS batch, d.item_id, d.tool, d.answer, d.by, d.person,
                 CASE WHEN d.by = 'person' THEN d.reason ELSE json_extract(d.answer, '$.note') END AS note,
                 d.cost, CASE WHEN d.by = 'policy' THEN d.reason END AS reason, d.decided_at
          FROM decisions d JOIN batches b ON b.id = d.batch_id;
      `)
  },
  {
    // Issue 31: events for a batch's receivers, written by the change that causes them (migrations/017-outbox.ts).
    name: "017_outbox",
    up: (db) => db.exec(OUTBOX_017)
  },
  {
    // Issue 32: an item's life in flight in its own narrow table (flights, keyed by the item's
    // integer key), batches and items with integer keys; items in flight moved (see migrations/019-lean-items.ts).
    name: "019_lean_items",
    up: leanItems
  },
  {
    // Issue 32: every table names its batch by the integer batch_num (batch_id dropped but from
    // batches, the public id); the approved cost kept running in batch_spend (see migrations/020-batch-num-keys.ts).
    name: "020_batch_num_keys",
    up: batchNumKeys
  },
  {
    // Issue 37: a person's approval that took the batch past its budget, as they confirmed, says so.
    name: "021_decision_over_budget",
    up: (db) => db.exec("ALTER TABLE decisions ADD COLUMN over_budget INTEGER NOT NULL DEFAULT 0;")
  },
  {
    // Issue 37.4: nothing the database holds runs as a program. A notify command lives only in
    // the process whose command line gave it; the store keeps the fact that a sender with one
    // serves a batch (renewed while it runs), and a command an older resq stored is dropped.
    name: "023_notify_command_local",
    up: (db) => db.exec(`
        CREATE TABLE notify_commands (
          batch_num INTEGER NOT NULL REFERENCES batches(num) ON DELETE CASCADE,
          owner TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL, until_ms INTEGER NOT NULL,
          PRIMARY KEY (batch_num, owner));
        UPDATE batches SET settings = json_remove(settings, '$.notify.command') WHERE json_type(settings, '$.notify.command') IS NOT NULL;
      `)
  },
  {
    // Issue 37.6: the identity (device and inode, as decimal text) of a downloaded file as
    // written, so the web view serves only that file; null for files downloaded before.
    name: "024_file_identity",
    up: (db) => db.exec("ALTER TABLE files ADD COLUMN disk_dev TEXT; ALTER TABLE files ADD COLUMN disk_ino TEXT;")
  },
  {
    // Issue 37.5: resq serve's sessions and one-time login codes, by their SHA-256 digests only
    // (never a raw id or code), so a sign-out or an expiry holds across restarts and servers. Times in ms.
    name: "025_web_sessions",
    up: (db) => db.exec(`
        CREATE TABLE web_sessions (
          id_digest TEXT PRIMARY KEY, created_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL, ended_at INTEGER
        ) WITHOUT ROWID;
        -- web-sessions.ts: the sessions long unused, dropped when one opens.
        CREATE INDEX web_sessions_for_purge ON web_sessions(last_seen_at);
        CREATE TABLE web_login_codes (
          code_digest TEXT PRIMARY KEY, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, spent_at INTEGER
        ) WITHOUT ROWID;
        -- web-sessions.ts: the codes long expired, dropped when one is added.
        CREATE INDEX web_login_codes_for_purge ON web_login_codes(expires_at);
      `)
  },
  {
    // How long a run took: the service's own times when it sends them, else resq's, and NULL
    // for a run that ended while no resq watched (found ended on a resume): in no statistic.
    // Runs recorded before keep resq's own measure.
    name: "026_run_service_times",
    up: (db) => db.exec(`
        ALTER TABLE runs ADD COLUMN seconds REAL;
        ALTER TABLE runs ADD COLUMN unwatched INTEGER NOT NULL DEFAULT 0;
        UPDATE runs SET seconds = max(0, round((julianday(finished_at) - julianday(created_at)) * 86400, 3)) WHERE finished_at IS NOT NULL;
      `)
  },
  {
    // Issue 38.3: a file is claimed before it is fetched (owner, fencing token, lease end in ms),
    // so workers on any machines fetch each file once. The holder's host, pid and process start
    // identity let a claimer on that host take a dead holder's claim over at once (as items).
    name: "027_file_claims",
    up: (db) => db.exec(`
        ALTER TABLE files ADD COLUMN claim_owner TEXT;
        ALTER TABLE files ADD COLUMN claim_fence INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE files ADD COLUMN claim_until INTEGER;
        ALTER TABLE files ADD COLUMN claim_host TEXT;
        ALTER TABLE files ADD COLUMN claim_pid INTEGER;
        ALTER TABLE files ADD COLUMN claim_pid_start TEXT;
      `)
  },
  {
    // Issue 38.5: every forecast resq forecast made, so the next says how far off the last one of a batch was.
    name: "028_forecasts",
    up: (db) => db.exec(`
        CREATE TABLE forecasts (
          seq INTEGER PRIMARY KEY AUTOINCREMENT, made_at TEXT NOT NULL, file_path TEXT NOT NULL, file_sha256 TEXT NOT NULL,
          for_batch_id TEXT, learned_from TEXT NOT NULL, questions INTEGER NOT NULL,
          cost_estimate REAL, cost_low REAL, cost_high REAL, held_estimate REAL, held_low REAL, held_high REAL);
        -- forecasts.ts: the last forecast of a batch, by the batch or by its file's content.
        CREATE INDEX forecasts_for_batch ON forecasts(for_batch_id, made_at);
        CREATE INDEX forecasts_by_file ON forecasts(file_sha256, made_at);
      `)
  },
  {
    // Issue 40.1-2: an item's expected answer (JSON text, apart from meta), and each scorer's
    // verdict per item and scorer version (pass 1, 0 or NULL: unscored). The item is keyed by its
    // seq (unique in its batch, never changed), so a batch's verdicts are written and read in key order.
    name: "029_expected_and_verdicts",
    up: (db) => db.exec(`
        ALTER TABLE items ADD COLUMN expected TEXT;
        CREATE TABLE verdicts (
          batch_num INTEGER NOT NULL REFERENCES batches(num) ON DELETE CASCADE,
          seq INTEGER NOT NULL, item_id TEXT NOT NULL, scorer TEXT NOT NULL, version TEXT NOT NULL,
          pass INTEGER, score REAL, reason TEXT NOT NULL, scored_at TEXT NOT NULL, by TEXT NOT NULL,
          PRIMARY KEY (batch_num, seq, scorer, version)
        ) WITHOUT ROWID;
        -- scores.ts: each scorer's counts (totals).
        CREATE INDEX verdicts_for_totals ON verdicts(batch_num, scorer, version, pass);
      `)
  },
  {
    // Issue 39.5: a claim writes the item's flight alone (see migrations/030-claim-writes-flight.ts).
    name: "030_claim_writes_flight",
    up: (db) => db.exec(CLAIM_WRITES_FLIGHT_030)
  },
  {
    // Issue 39.5: the flights' one index is the few answered items no worker sent yet (see migrations/031-flights-unsent.ts).
    name: "031_flights_unsent",
    up: (db) => db.exec(FLIGHTS_UNSENT_031)
  },
  {
    // Issue 40.4: a batch may spend with another's budget, an agent judge's with the batch it judges (see migrations/032-budget-group.ts).
    name: "032_budget_group",
    up: (db) => db.exec(BUDGET_GROUP_032)
  },
  {
    // Issue 39.6: an item's change of state is one trigger; whether its batch finished is looked at once per write transaction (see migrations/033-state-trigger.ts).
    name: "033_state_trigger",
    up: (db) => db.exec(STATE_TRIGGER_033)
  }
];
function migrate(db, list = migrations, clock = systemClock) {
  const applied = [];
  const fk = db.pragma("foreign_keys", { simple: true });
  if (fk) db.pragma("foreign_keys = OFF");
  try {
    return migrateLocked(db, list, applied, clock);
  } finally {
    if (fk) db.pragma("foreign_keys = ON");
  }
}
function migrateLocked(db, list, applied, clock) {
  db.exec("BEGIN EXCLUSIVE");
  try {
    db.exec("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
    const done = new Set(db.prepare("SELECT name FROM _migrations").pluck().all());
    for (const m of list) {
      if (done.has(m.name)) continue;
      m.up(db);
      db.prepare("INSERT INTO _migrations (name, applied_at) VALUES (?, ?)").run(m.name, isoNow(clock));
      applied.push(m.name);
    }
    db.exec("COMMIT");
  } catch (e) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw e;
  }
  return applied;
}

// src/store/sqlite/database.ts
function contextOf(db, clock) {
  return { db, clock, stmt: new StatementCache(db), nums: /* @__PURE__ */ new Map(), keys: new ItemKeys(), ended: [] };
}
function noteEnded(cx, num) {
  if (cx.ended[cx.ended.length - 1] !== num) cx.ended.push(num);
}
var ItemKeys = class _ItemKeys {
  static MOST = 65536;
  #byBatch = /* @__PURE__ */ new Map();
  #size = 0;
  get(batchId, id) {
    return this.#byBatch.get(batchId)?.get(id);
  }
  keep(batchId, id, key) {
    let batch = this.#byBatch.get(batchId);
    if (batch?.has(id)) return;
    if (this.#size >= _ItemKeys.MOST) {
      this.#byBatch.clear();
      this.#size = 0;
      batch = void 0;
    }
    if (!batch) this.#byBatch.set(batchId, batch = /* @__PURE__ */ new Map());
    batch.set(id, key);
    this.#size++;
  }
  drop(batchId, id) {
    if (this.#byBatch.get(batchId)?.delete(id)) this.#size--;
  }
  get size() {
    return this.#size;
  }
};
function itemKey(cx, batchId, id) {
  const kept = cx.keys.get(batchId, id);
  if (kept !== void 0) return kept;
  const key = cx.stmt.get("SELECT key FROM items WHERE batch_num = (SELECT num FROM batches WHERE id = ?) AND id = ?").pluck().get(batchId, id);
  return key ?? null;
}
function takingBackNotes(cx, fn) {
  const noted = cx.ended.length;
  try {
    return fn();
  } catch (e) {
    cx.ended.length = noted;
    throw e;
  }
}
function finishBatches(cx) {
  if (cx.ended.length === 0) return;
  const nums = [...new Set(cx.ended)];
  cx.ended.length = 0;
  const add = cx.stmt.get(
    `INSERT OR IGNORE INTO outbox (batch_num, key, type, status, created_at)
     SELECT b.num, 'finished:' || (SELECT count(*) FROM outbox o WHERE o.batch_num = b.num AND o.type = 'batch.finished'), 'batch.finished', 'pending', ?
     FROM batches b WHERE b.num = ?
       AND NOT EXISTS (SELECT 1 FROM item_counts c WHERE c.batch_num = b.num AND c.state IN ${UNFINISHED_COUNTS} AND c.n > 0)
       AND json_extract(b.settings, '$.notify') IS NOT NULL`
  );
  const now = cx.clock.now();
  for (const num of nums) add.run(now, num);
}
var UNFINISHED_COUNTS = `(${[...UNFINISHED_STATES, "flight"].map((s) => `'${s}'`).join(", ")})`;
function batchNum(cx, id) {
  let n = cx.nums.get(id);
  if (n === void 0) {
    n = cx.db.prepare("SELECT num FROM batches WHERE id = ?").pluck().get(id);
    if (n === void 0 || n === null) throw new Error(`batch ${id} not found`);
    cx.nums.set(id, n);
  }
  return n;
}
function openDatabase(path, opts = {}) {
  if (path !== ":memory:" && !opts.readonly) mkdirSync(dirname(path), { recursive: true });
  let db = new Database(path, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  db.pragma("busy_timeout = 10000");
  const upgrade = olderSchema(db);
  if (opts.readonly && upgrade) {
    opts.onWait?.(`reading ${path}, written by an older resq, through a copy upgraded in memory (${upgrade}); the file is left as it is`);
    db = migratedImage(db, opts.clock ?? systemClock);
  } else if (upgrade) opts.onWait?.(`upgrading the database ${path} to this resq's schema (${upgrade}): a large one takes a while`);
  if (!opts.readonly) {
    retryBusySync(() => db.pragma("journal_mode = WAL"));
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    retryBusySync(() => migrate(db, migrations, opts.clock ?? systemClock));
  }
  const maxPages = Number(process.env.RESQ_TEST_SQLITE_MAX_PAGES);
  if (Number.isInteger(maxPages) && maxPages > 0) db.pragma(`max_page_count = ${maxPages}`);
  return db;
}
function olderSchema(db) {
  const pending = pendingMigrations(db);
  if (pending.length === 0 || pending.length === migrations.length) return null;
  return pending.join(", ");
}
function pendingMigrations(db) {
  const table = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").pluck().get() === 1;
  const done = new Set(table ? db.prepare("SELECT name FROM _migrations").pluck().all() : []);
  return migrations.map((m) => m.name).filter((n) => !done.has(n));
}
function migratedImage(file, clock) {
  const image = file.serialize();
  file.close();
  image[18] = 1;
  image[19] = 1;
  const db = new Database(image);
  db.pragma("foreign_keys = ON");
  migrate(db, migrations, clock);
  db.pragma("query_only = ON");
  return db;
}

// src/store/sqlite/claims.ts
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";

// src/store/sqlite/counts.ts
var IN_FLIGHT = `SELECT coalesce((SELECT sum(n) FROM item_counts WHERE batch_num = ${batchNumOf("@batch")} AND state IN ${sqlStates(ACTIVE_STATES).slice(0, -1)}, 'flight')), 0)
  - (SELECT count(*) FROM flights INDEXED BY flights_unsent
       WHERE batch_num = ${batchNumOf("@batch")} AND ${runNotGoing()})`;
function runsInFlight(cx, batchId) {
  return cx.stmt.get(IN_FLIGHT).pluck().get({ batch: batchId });
}
function itemCounts(cx, batchId) {
  const kept = cx.stmt.get(`SELECT state, n FROM item_counts WHERE batch_num = ${batchNumOf()}`).all(batchId);
  const flying = cx.stmt.get(
    `SELECT state, count(*) AS n FROM flights WHERE batch_num = ${batchNumOf()} GROUP BY state`
  ).all(batchId);
  return countsOf(kept, flying);
}

// src/store/sqlite/flights.ts
var stored = (v) => v !== null && typeof v === "object" ? JSON.stringify(v) : v;
function getItem(cx, batchId, id) {
  const r = cx.stmt.get(`${ITEM_SELECT} WHERE i.key = ${ITEM_KEY}`).get(batchId, batchId, id);
  return r ? itemFromRow(r) : null;
}
function getItemAgain(cx, item) {
  return getItem(cx, item.batchId, item.id);
}
function updateItem(cx, batchId, id, patch) {
  const cols = Object.keys(patch);
  const sets = cols.map((c) => `${c} = ?`).join(", ");
  const values = cols.map((c) => {
    const v = patch[c];
    return v !== null && typeof v === "object" ? JSON.stringify(v) : v;
  });
  const updatedAt = isoNow(cx.clock);
  const info = cx.stmt.get(`UPDATE items SET ${sets}, updated_at = ? WHERE batch_num = ${batchNumOf()} AND id = ?`).run(...values, updatedAt, batchId, id);
  if (info.changes !== 1) throw new Error(`item ${batchId}/${id} not found`);
  if (typeof patch.state === "string" && isTerminal(patch.state)) noteEnded(cx, batchNum(cx, batchId));
  return updatedAt;
}
function startFlight(cx, next, fromRest) {
  const now = isoNow(cx.clock);
  const num = batchNum(cx, next.batchId);
  const key = itemKey(cx, next.batchId, next.id);
  if (key === null) throw new Error(`item ${next.batchId}/${next.id} not found`);
  if (fromRest) {
    const cols = Object.keys(fromRest);
    const sets = cols.map((c) => `, ${c} = ?`).join("");
    const info = cx.stmt.get(`UPDATE items SET state = '${IN_FLIGHT_MARK}'${sets}, owner = NULL, lease_until = NULL, updated_at = ? WHERE key = ?`).run(...cols.map((c) => stored(fromRest[c])), now, key);
    if (info.changes !== 1) throw new Error(`item ${next.batchId}/${next.id} not found`);
  }
  cx.stmt.get(`INSERT INTO flights (item_key, batch_num, ${FLIGHT_COLUMNS.join(", ")}) VALUES (?, ?, ${FLIGHT_COLUMNS.map(() => "?").join(", ")})`).run(
    key,
    num,
    next.state,
    next.step,
    next.pendingKey,
    stored(next.pendingAnswer),
    next.runId,
    next.threadId,
    next.runStatus,
    next.text,
    next.owner,
    next.leaseUntil,
    next.fence,
    next.startedAt,
    now
  );
  cx.keys.keep(next.batchId, next.id, key);
  return { ...next, updatedAt: now };
}
function patchFlight(cx, batchId, itemId, patch, held) {
  const cols = Object.keys(patch);
  const now = isoNow(cx.clock);
  const sets = cols.map((c) => `${c} = ?, `).join("");
  const values = cols.map((c) => stored(patch[c]));
  const key = itemKey(cx, batchId, itemId);
  const info = held ? cx.stmt.get(`UPDATE flights SET ${sets}updated_at = ? WHERE item_key = ? AND owner IS ? AND fence = ?`).run(...values, now, key, held.owner, held.fence) : cx.stmt.get(`UPDATE flights SET ${sets}updated_at = ? WHERE item_key = ?`).run(...values, now, key);
  return info.changes === 1 ? now : null;
}
function landFlight(cx, batchId, itemId, patch, held) {
  const key = itemKey(cx, batchId, itemId);
  const row = held ? cx.stmt.get(`DELETE FROM flights WHERE item_key = ? AND owner IS ? AND fence = ? RETURNING *`).get(key, held.owner, held.fence) : cx.stmt.get(`DELETE FROM flights WHERE item_key = ? RETURNING *`).get(key);
  if (!row && held) return null;
  cx.keys.drop(batchId, itemId);
  const values = {};
  if (row) for (const c of LANDED_COLUMNS) values[c] = row[c];
  for (const [c, v] of Object.entries(patch)) values[c] = stored(v);
  values.owner = null;
  values.lease_until = null;
  const cols = Object.keys(values);
  const now = isoNow(cx.clock);
  const sets = cols.map((c) => `${c} = ?, `).join("");
  const info = cx.stmt.get(`UPDATE items SET ${sets}updated_at = ? WHERE key = ?`).run(...cols.map((c) => values[c]), now, key);
  if (info.changes !== 1) throw new Error(`item ${batchId}/${itemId} not found`);
  if (typeof values.state === "string" && isTerminal(values.state)) noteEnded(cx, batchNum(cx, batchId));
  return now;
}

// src/store/sqlite/claims.ts
var OWNED_BY = `owner = @w`;
var orphaned = (states) => `SELECT ? AS batch_id, f.item_key, ${itemColumns()}
  FROM flights f JOIN items i ON i.key = f.item_key
  WHERE f.batch_num = ? AND f.state IN ${sqlStates(states)}
    AND (f.owner IS NULL OR (f.lease_until < ? AND f.owner <> ?))
  LIMIT ?`;
function register(cx, batchId, w, now) {
  const id = `${w.host || hostname()}:${w.pid}:${randomUUID().slice(0, 8)}`;
  const startedAt = new Date(now).toISOString();
  const pidStart = w.pidStart ?? null;
  cx.stmt.get(`INSERT INTO workers (id, batch_num, host, pid, pid_start, started_at, heartbeat_at) VALUES (?, ${batchNumOf()}, ?, ?, ?, ?, ?)`).run(id, batchId, w.host, w.pid, pidStart, startedAt, now);
  return { id, batchId, host: w.host, pid: w.pid, pidStart, startedAt, heartbeatAt: now, items: 0 };
}
function heartbeat(cx, lease, now) {
  cx.stmt.get("UPDATE workers SET heartbeat_at = ? WHERE id = ?").run(now, lease.workerId);
  cx.stmt.get(`UPDATE flights SET lease_until = @t WHERE ${OWNED_BY}`).run({ w: lease.workerId, t: now + lease.leaseMs });
  const b = cx.stmt.get("SELECT b.cancelled_at, b.cap_limit FROM workers w JOIN batches b ON b.num = w.batch_num WHERE w.id = ?").get(lease.workerId);
  return { cancelled: (b?.cancelled_at ?? null) !== null, capLimit: b?.cap_limit ?? null };
}
function setCapLimit(cx, batchId, capLimit) {
  cx.stmt.get("UPDATE batches SET cap_limit = ? WHERE id = ?").run(capLimit, batchId);
}
function retire(cx, workerId, now) {
  cx.stmt.get(`UPDATE flights SET owner = NULL, lease_until = 0 WHERE ${OWNED_BY}`).run({ w: workerId });
  cx.stmt.get("UPDATE workers SET stopped_at = ?, heartbeat_at = ? WHERE id = ?").run(new Date(now).toISOString(), now, workerId);
}
function live(cx, batchId, staleMs, now) {
  const rows = cx.stmt.get(
    `SELECT w.*, @b AS batch_id, (SELECT count(*) FROM flights f
           WHERE f.batch_num = w.batch_num AND f.owner = w.id) AS n FROM workers w
       WHERE w.batch_num = ${batchNumOf("@b")} AND w.stopped_at IS NULL AND w.heartbeat_at >= @since ORDER BY w.started_at`
  ).all({ b: batchId, since: now - staleMs });
  return rows.map(workerFromRow);
}
function stillActive(cx, batchId, ids) {
  if (ids.length === 0) return 0;
  const byKey = cx.stmt.get(`SELECT 1 FROM flights WHERE item_key = ? AND ${runGoing()}`).pluck();
  const byIds = cx.stmt.get(`SELECT 1 FROM flights WHERE item_key = ${ITEM_KEY} AND ${runGoing()}`).pluck();
  let n = 0;
  for (const id of ids) {
    const key = cx.keys.get(batchId, id);
    if ((key === void 0 ? byIds.get(batchId, id) : byKey.get(key)) !== void 0) n++;
  }
  return n;
}
function inFlight(cx, batchId) {
  return runsInFlight(cx, batchId);
}
function capLimitOf(cx, batchId) {
  return cx.stmt.get("SELECT cap_limit FROM batches WHERE id = ?").pluck().get(batchId) ?? null;
}
function cancelled(cx, batchId) {
  return cx.stmt.get("SELECT cancelled_at IS NOT NULL FROM batches WHERE id = ?").pluck().get(batchId) === 1;
}
function ownAll(cx, items, keys, lease, now) {
  if (items.length === 0) return [];
  const at = isoNow(cx.clock);
  const info = cx.stmt.get(`UPDATE flights SET owner = ?, lease_until = ?, fence = fence + 1, updated_at = ? WHERE item_key IN (SELECT value FROM json_each(?))`).run(lease.workerId, now + lease.leaseMs, at, JSON.stringify(keys));
  if (info.changes !== items.length) throw new Error(`takeover wrote ${info.changes} of ${items.length} flights`);
  return items.map((it) => ({ ...it, ...ownedPlan(it, lease, now), updatedAt: at }));
}
function threadOf(cx, batchId, threadKey) {
  const r = cx.stmt.get(`SELECT thread_id FROM threads WHERE batch_num = ${batchNumOf()} AND thread_key = ?`).get(batchId, threadKey);
  return r?.thread_id ?? null;
}
function submit(cx, it, lease, now) {
  const threadId = it.threadKey ? threadOf(cx, it.batchId, it.threadKey) : null;
  const plan = submitPlan(it, lease, now, threadId);
  return startFlight(cx, { ...it, state: "submitting", ...plan });
}
function claim(cx, batchId, req, now) {
  const counted = inFlight(cx, batchId) - stillActive(cx, batchId, req.ended ?? []);
  const budget = new ClaimBudget(req, effectiveCap(req.cap, capLimitOf(cx, batchId)), counted);
  if (cancelled(cx, batchId)) return { items: [], cursor: req.afterSeq, fresh: 0, inFlight: counted, cancelled: true };
  const out = [];
  const states = takeOverStates(req);
  const orphans = states.length ? pickOrphans(cx.stmt.get(orphaned(states)).all(batchId, batchNum(cx, batchId), now, req.workerId, req.max + (req.skip?.length ?? 0)), req.skip, req.max) : [];
  const taken = [];
  const keys = [];
  for (const row of orphans) {
    const it = itemFromRow(row);
    if (!budget.takeOrphan(it)) continue;
    const key = row.item_key;
    cx.keys.keep(batchId, it.id, key);
    taken.push(it);
    keys.push(key);
  }
  for (const it of ownAll(cx, taken, keys, req, now)) out.push(it);
  let cursor = req.afterSeq;
  const num = batchNum(cx, batchId);
  const page = (limit) => inSeqOrder(cx.stmt.get(`SELECT ? AS batch_id, * FROM items INDEXED BY items_for_claim WHERE batch_num = ? AND seq > ? AND ${queuedRow("items")} LIMIT ${limit}`).all(batchId, num, cursor));
  let passed = 0;
  scan: while (budget.roomForQueued) {
    const rows = page(queuedPageSize(budget.wantQueued, passed));
    if (rows.length === 0) break;
    for (const row of rows) {
      if (!budget.roomForQueued) break scan;
      cursor = row.seq;
      const it = itemFromRow(row);
      if (it.threadKey && hasUnfinishedBefore(cx, batchId, it.threadKey, it.seq)) {
        passed++;
        continue;
      }
      cx.keys.keep(batchId, it.id, row.key);
      out.push(submit(cx, it, req, now));
      budget.takeQueued();
    }
  }
  if (out.length > 0) alive(cx, req.workerId, now);
  return { items: out, cursor, fresh: budget.fresh, inFlight: budget.inFlight, cancelled: false };
}
function alive(cx, workerId, now) {
  cx.stmt.get("UPDATE workers SET heartbeat_at = ? WHERE id = ? AND heartbeat_at < ?").run(now, workerId, now);
}
function nextQueuedInThread(cx, batchId, threadKey, afterSeq) {
  const r = cx.stmt.get(
    `SELECT ? AS batch_id, * FROM items INDEXED BY items_for_thread_claim WHERE batch_num = ${batchNumOf()} AND thread_key = ? AND seq > ? AND ${queuedRow("items")} ORDER BY seq LIMIT 1`
  ).get(batchId, batchId, threadKey, afterSeq);
  return r ? itemFromRow(r) : null;
}
function claimNextInThread(cx, batchId, threadKey, afterSeq, req, now) {
  if (cancelled(cx, batchId)) return null;
  const next = nextQueuedInThread(cx, batchId, threadKey, afterSeq);
  if (!next || hasUnfinishedBefore(cx, batchId, threadKey, next.seq)) return null;
  if (inFlight(cx, batchId) >= effectiveCap(req.cap, capLimitOf(cx, batchId))) return null;
  alive(cx, req.workerId, now);
  return submit(cx, next, req, now);
}
function release(cx, batchId, itemId, workerId, fence) {
  const key = itemKey(cx, batchId, itemId);
  if (fence === void 0) cx.stmt.get(`UPDATE flights SET owner = NULL, lease_until = 0 WHERE item_key = ? AND owner = ?`).run(key, workerId);
  else cx.stmt.get(`UPDATE flights SET owner = NULL, lease_until = 0 WHERE item_key = ? AND owner = ? AND fence = ?`).run(key, workerId, fence);
}
function cancel(cx, batchId, now) {
  cx.stmt.get("UPDATE batches SET cancelled_at = coalesce(cancelled_at, ?) WHERE id = ?").run(new Date(now).toISOString(), batchId);
  const ended = cx.stmt.get(`UPDATE items INDEXED BY items_for_claim SET state = 'cancelled', finished_at = ?, updated_at = ? WHERE batch_num = ${batchNumOf()} AND ${queuedRow("items")}`).run(new Date(now).toISOString(), new Date(now).toISOString(), batchId).changes;
  if (ended > 0) noteEnded(cx, batchNum(cx, batchId));
  return ended;
}
function requeue(cx, batchId, ids, states) {
  const pick = ids ? ids.map((id) => cx.stmt.get(`SELECT id, state FROM items WHERE batch_num = ${batchNumOf()} AND id = ?`).get(batchId, id)).filter(Boolean) : cx.stmt.get(`SELECT id, state FROM items INDEXED BY items_for_state_pages WHERE batch_num = ${batchNumOf()} AND state <> 'queued' AND state IN (${marks(states.length)}) ORDER BY seq`).all(batchId, ...states);
  const done = [];
  const upd = cx.stmt.get(
    `UPDATE items SET state = 'queued', attempt = attempt + 1, step = 0, pending_key = NULL, pending_answer = NULL, run_id = NULL,
       run_status = NULL, text = NULL, error = NULL, hold_reason = NULL, finished_at = NULL, owner = NULL, lease_until = NULL,
       thread_id = CASE WHEN thread_key IS NULL THEN NULL ELSE thread_id END, updated_at = ?
     WHERE batch_num = ${batchNumOf()} AND id = ? AND state IN ${sqlStates(TERMINAL_STATES)}`
  );
  for (const p of pick) if (states.includes(p.state) && upd.run(isoNow(cx.clock), batchId, p.id).changes === 1) done.push(p.id);
  if (done.length > 0) cx.stmt.get("UPDATE batches SET cancelled_at = NULL WHERE id = ?").run(batchId);
  return done;
}
function hasUnfinishedBefore(cx, batchId, threadKey, seq) {
  return cx.stmt.get(
    `SELECT 1 FROM items INDEXED BY items_for_thread_claim WHERE batch_num = ${batchNumOf()} AND thread_key = ? AND seq < ? AND state IN ${UNFINISHED_ROWS} LIMIT 1`
  ).get(batchId, threadKey, seq) !== void 0;
}

// src/store/sqlite/decisions.ts
function insertDecision(cx, batchId, itemId, d, respondKey) {
  return cx.stmt.get(
    `INSERT INTO decisions (batch_num, item_id, run_id, tool, input, answer, by, person, reason, cost, decided_at, respond_key, over_budget)
       VALUES (${batchNumOf()}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (batch_num, run_id) DO NOTHING`
  ).run(
    batchId,
    itemId,
    d.runId,
    d.tool,
    JSON.stringify(d.input),
    JSON.stringify(d.answer),
    d.by,
    d.person ?? null,
    d.reason,
    // Only a trusted cost is ever recorded: every sum over decisions stays finite.
    recordedCost(d.cost),
    isoNow(cx.clock),
    respondKey,
    d.overBudget ? 1 : 0
  ).changes === 1;
}
function decisionForRun(cx, batchId, runId) {
  const row = cx.stmt.get(`SELECT ? AS batch_id, * FROM decisions WHERE batch_num = ${batchNumOf()} AND run_id = ?`).get(batchId, batchId, runId);
  return row ? decisionFromRow(row) : null;
}
function approvedCost(cx, batchId) {
  return keptTotal(cx.stmt.get(`SELECT coalesce((SELECT approved FROM batch_spend WHERE batch_num = ${batchNumOf()}), 0)`).pluck().get(batchId));
}
function budgetSpent(cx, batchId) {
  return keptTotal(cx.stmt.get(groupSpendSql("id = ?")).pluck().get(batchId));
}
function decisionsForItem(cx, batchId, itemId) {
  return cx.stmt.get(`SELECT ? AS batch_id, * FROM decisions WHERE batch_num = ${batchNumOf()} AND item_id = ? ORDER BY id`).all(batchId, batchId, itemId).map(decisionFromRow);
}

// src/store/sqlite/file-claims.ts
var fenced = () => "AND claim_owner = ? AND claim_fence = ?";
function claimFile(cx, batchId, id, h, req, now) {
  const from = req.from ?? { owner: null, fence: null };
  const fence = cx.db.prepare(
    `UPDATE files SET claim_owner = ?, claim_fence = claim_fence + 1, claim_until = ?, claim_host = ?, claim_pid = ?, claim_pid_start = ?
       WHERE batch_num = ${batchNumOf()} AND id = ? AND status <> 'downloaded'
         AND (claim_owner IS NULL OR claim_until < ? OR (claim_owner = ? AND claim_fence = ?)) RETURNING claim_fence`
  ).pluck().get(h.owner, now + req.leaseMs, h.host, h.pid, h.pidStart, batchId, id, now, from.owner, from.fence);
  return fence === void 0 ? null : { owner: h.owner, fence };
}
function fileClaimHolder(cx, batchId, id) {
  const r = cx.db.prepare(`SELECT claim_owner, claim_fence, claim_host, claim_pid, claim_pid_start FROM files WHERE batch_num = ${batchNumOf()} AND id = ? AND claim_owner IS NOT NULL`).get(batchId, id);
  return r ? { owner: r.claim_owner, fence: r.claim_fence, host: r.claim_host ?? "", pid: r.claim_pid ?? 0, pidStart: r.claim_pid_start } : null;
}
function renewFileClaim(cx, batchId, id, c, leaseMs, now) {
  return cx.db.prepare(`UPDATE files SET claim_until = ? WHERE batch_num = ${batchNumOf()} AND id = ? ${fenced()}`).run(now + leaseMs, batchId, id, c.owner, c.fence).changes > 0;
}
function releaseFileClaim(cx, batchId, id, c) {
  return cx.db.prepare(`UPDATE files SET claim_owner = NULL, claim_until = NULL WHERE batch_num = ${batchNumOf()} AND id = ? ${fenced()}`).run(batchId, id, c.owner, c.fence).changes > 0;
}

// src/store/sqlite/files.ts
var NOT_ON_DISK = "('pending', 'failed', 'missing')";
function recordFile(cx, batchId, itemId, runId, ref, seenAt, runCreatedAt) {
  cx.db.prepare(
    `INSERT INTO files (batch_num, id, item_id, run_id, tool, role, name, url, first_seen_at, expires_at)
       VALUES (${batchNumOf()}, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(batch_num, id) DO NOTHING`
  ).run(
    batchId,
    ref.id,
    itemId,
    runId,
    ref.tool ?? null,
    ref.role ?? null,
    ref.name ?? null,
    ref.url,
    seenAt.toISOString(),
    fileExpiry(seenAt, runCreatedAt).toISOString()
  );
}
function filesForItem(cx, batchId, itemId) {
  return cx.db.prepare(`SELECT ? AS batch_id, * FROM files WHERE batch_num = ${batchNumOf()} AND item_id = ? ORDER BY rowid`).all(batchId, batchId, itemId).map(fileFromRow);
}
function filesForBatch(cx, batchId, statuses) {
  const rows = statuses ? cx.db.prepare(
    `SELECT ? AS batch_id, * FROM files WHERE batch_num = ${batchNumOf()} AND status IN (${statuses.map(() => "?").join(",")}) ORDER BY rowid`
  ).all(batchId, batchId, ...statuses) : cx.db.prepare(`SELECT ? AS batch_id, * FROM files WHERE batch_num = ${batchNumOf()} ORDER BY rowid`).all(batchId, batchId);
  return rows.map(fileFromRow);
}
function fileCounts(cx, batchId) {
  const out = { pending: 0, downloaded: 0, failed: 0, expired: 0, missing: 0 };
  for (const r of cx.db.prepare(`SELECT status, count(*) AS n FROM files WHERE batch_num = ${batchNumOf()} GROUP BY status`).all(batchId))
    out[r.status] = r.n;
  return out;
}
function getFile(cx, batchId, id) {
  const row = cx.db.prepare(`SELECT ? AS batch_id, * FROM files WHERE batch_num = ${batchNumOf()} AND id = ?`).get(batchId, batchId, id);
  return row ? fileFromRow(row) : null;
}
function filePaths(cx, batchId) {
  return cx.db.prepare(`SELECT id, path FROM files WHERE batch_num = ${batchNumOf()} AND path IS NOT NULL`).all(batchId);
}
function expiryReport(cx, batchId, warnBefore) {
  const bytes = cx.db.prepare(`SELECT coalesce(sum(bytes), 0) FROM files WHERE batch_num = ${batchNumOf()} AND status = 'downloaded'`).pluck().get(batchId);
  const soonest = cx.db.prepare(`SELECT min(expires_at) FROM files WHERE batch_num = ${batchNumOf()} AND status IN ${NOT_ON_DISK}`).pluck().get(batchId);
  const expiring = cx.db.prepare(`SELECT ? AS batch_id, * FROM files WHERE batch_num = ${batchNumOf()} AND status IN ${NOT_ON_DISK} AND expires_at <= ? ORDER BY expires_at, rowid`).all(batchId, batchId, warnBefore).map(fileFromRow);
  return { bytes, soonest, expiring };
}
function markFileDownloaded(cx, batchId, id, v, claim3) {
  return cx.db.prepare(
    `UPDATE files SET status = 'downloaded', path = ?, bytes = ?, sha256 = ?, media_type = ?, host = ?, error = NULL, disk_dev = ?, disk_ino = ?, claim_owner = NULL, claim_until = NULL
       WHERE batch_num = ${batchNumOf()} AND id = ? ${claim3 ? fenced() : ""}`
  ).run(v.path, v.bytes, v.sha256, v.mediaType, v.host, v.dev ?? null, v.ino ?? null, batchId, id, ...claim3 ? [claim3.owner, claim3.fence] : []).changes > 0;
}
function recordFileCopy(cx, batchId, fileId, c, keep) {
  const values = `SELECT ${batchNumOf()}, ?, ?, ?, ?, ?, ?`;
  const sql = keep ? `INSERT INTO file_copies (batch_num, file_id, host, path, bytes, sha256, copied_at) ${values}
       WHERE NOT EXISTS (SELECT 1 FROM files WHERE batch_num = ${batchNumOf()} AND id = ? AND status = 'downloaded' AND host = ?) ON CONFLICT DO NOTHING` : `INSERT INTO file_copies (batch_num, file_id, host, path, bytes, sha256, copied_at) ${values}
       ON CONFLICT (batch_num, file_id, host) DO UPDATE SET path = excluded.path, bytes = excluded.bytes, sha256 = excluded.sha256, copied_at = excluded.copied_at`;
  const row = [batchId, fileId, c.host, c.path, c.bytes, c.sha256, isoNow(cx.clock)];
  return cx.db.prepare(sql).run(...row, ...keep ? [batchId, fileId, c.host] : []).changes > 0;
}
function fileCopies(cx, batchId) {
  return cx.db.prepare(
    `SELECT c.file_id AS fileId, f.item_id AS itemId, c.host, c.path, c.bytes, c.sha256
       FROM file_copies c JOIN files f ON f.batch_num = c.batch_num AND f.id = c.file_id
       WHERE c.batch_num = ${batchNumOf()} ORDER BY f.rowid, c.host`
  ).all(batchId);
}
function markFileStatus(cx, batchId, id, status, error, claim3) {
  return cx.db.prepare(`UPDATE files SET status = ?, error = ? WHERE batch_num = ${batchNumOf()} AND id = ? ${claim3 ? fenced() : ""}`).run(status, error, batchId, id, ...claim3 ? [claim3.owner, claim3.fence] : []).changes > 0;
}

// src/store/sqlite/forecasts.ts
function keepForecast(cx, f) {
  cx.db.prepare(`INSERT INTO forecasts (${FORECAST_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(...forecastValues(f));
}
function lastForecastOf(cx, b) {
  const row = cx.db.prepare(
    `SELECT * FROM forecasts WHERE for_batch_id = ? OR (for_batch_id IS NULL AND file_sha256 = ? AND made_at <= ?)
       ORDER BY made_at DESC, seq DESC LIMIT 1`
  ).get(b.id, b.sourceSha256, b.createdAt);
  return row ? forecastOfRow(row) : null;
}

// src/store/sqlite/item-pages.ts
function itemPage(cx, batchId, asked) {
  const q = readQuery(asked);
  const sort = q.sort ?? "seq";
  const dir = q.desc ? "DESC" : "ASC";
  const cmp = q.desc ? "<" : ">";
  let num = `i.batch_num = ${batchNumOf()}`;
  const where = [];
  const args = [];
  if (q.states) {
    if (q.states.length === 0) return { items: [], next: null, prev: null };
    if (sort === "updated") {
      where.push(`${stateOf()} IN (${marks(q.states.length)})`);
      args.push(...q.states);
    } else {
      const s = inStates(q.states, batchId);
      where.push(s.where);
      args.push(...s.args);
      if (s.plan === "keys") num = `+${num}`;
    }
  }
  if (q.meta) {
    where.push(`EXISTS (SELECT 1 FROM json_each(i.meta) j WHERE j.key = ?
      AND (CASE j.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE CAST(j.value AS TEXT) END) = ?)`);
    args.push(q.meta.key, q.meta.value);
  }
  if (q.text) {
    const t = q.text.toLowerCase();
    where.push(`(instr(lower(i.id), ?) > 0 OR instr(lower(i.question), ?) > 0 OR instr(lower(coalesce(${overFlight("text")}, '')), ?) > 0)`);
    args.push(t, t, t);
  }
  if (q.verdict)
    where.push(
      verdictWhere(q.verdict, (v) => {
        args.push(v);
        return "?";
      })
    );
  const c = q.after ? decodeCursor(q.after) : null;
  const cols = (updated) => `i.id, i.seq, ${stateOf()} AS state, substr(i.question, 1, 201) AS question, substr(${overFlight("text")}, 1, 201) AS answer,
    ${overFlight("run_status")} AS run_status, substr(i.error, 1, 201) AS error, i.hold_reason, i.meta, ${overFlight("step")} AS step,
    ${updated} AS updated_at, i.finished_at`;
  if (sort === "updated") {
    const at = (t) => c ? { sql: ` AND (${t}, i.seq) ${cmp} (?, ?)`, args: [String(c.v), c.seq] } : { sql: "", args: [] };
    const rest = at("i.updated_at");
    const flying = at("f.updated_at");
    const filter = where.map((w) => ` AND ${w}`).join("");
    const sql2 = `SELECT ${cols("i.updated_at")} FROM items i INDEXED BY items_for_web_sort LEFT JOIN flights f ON f.item_key = i.key
        WHERE ${num} AND i.state <> 'queued'${rest.sql}${filter}
      UNION ALL
      SELECT ${cols("f.updated_at")} FROM flights f JOIN items i ON i.key = f.item_key WHERE f.batch_num = ${batchNumOf()}${flying.sql}${filter}
      ORDER BY updated_at ${dir}, seq ${dir} LIMIT ${q.limit + 1}`;
    return pageOf(cx.stmt.get(sql2).all(batchId, ...rest.args, ...args, batchId, ...flying.args, ...args), asked);
  }
  if (c) {
    if (sort === "seq") {
      where.push(`i.seq ${cmp} ?`);
      args.push(Number(c.v));
    } else {
      where.push(`i.id ${cmp} ?`);
      args.push(String(c.v));
    }
  }
  const order = sort === "seq" ? `i.seq ${dir}` : `i.${SORT_COLUMN[sort]} ${dir}, i.seq ${dir}`;
  const sql = `SELECT ${cols(overFlight("updated_at"))} FROM items i LEFT JOIN flights f ON f.item_key = i.key WHERE ${[num, ...where].join(" AND ")} ORDER BY ${order} LIMIT ${q.limit + 1}`;
  return pageOf(cx.stmt.get(sql).all(batchId, ...args), asked);
}
function batchLive(cx, batchId, heldLimit) {
  const inFlight2 = runsInFlight(cx, batchId);
  const capLimit = cx.stmt.get("SELECT cap_limit FROM batches WHERE id = ?").pluck().get(batchId) ?? null;
  const held = cx.stmt.get(
    `SELECT i.id, substr(i.question, 1, 201) AS question, json_extract(r.required_action, '$.tool') AS tool,
           i.hold_reason, i.updated_at
         FROM items i INDEXED BY items_for_state_pages LEFT JOIN runs r ON r.id = i.run_id
         WHERE i.batch_num = ${batchNumOf()} AND i.state = 'held' AND i.state <> 'queued' ORDER BY i.seq LIMIT ?`
  ).all(batchId, heldLimit).map((r) => ({ id: r.id, question: cutText(r.question), tool: r.tool, holdReason: r.hold_reason, updatedAt: r.updated_at }));
  const span = cx.stmt.get(`SELECT (SELECT min(finished_at) FROM items INDEXED BY items_for_rate WHERE batch_num = ${batchNumOf("@b")} AND finished_at IS NOT NULL) AS first,
                 (SELECT max(finished_at) FROM items INDEXED BY items_for_rate WHERE batch_num = ${batchNumOf("@b")} AND finished_at IS NOT NULL) AS last`).get({ b: batchId });
  return { inFlight: inFlight2, capLimit, held, span };
}
function runMinutes(cx, batchId) {
  return cx.stmt.get(
    `SELECT minute, sum(a) AS admitted, sum(f) AS finished FROM (
         SELECT substr(created_at, 1, 16) AS minute, 1 AS a, 0 AS f FROM runs WHERE batch_num = ${batchNumOf()}
         UNION ALL
         SELECT substr(finished_at, 1, 16), 0, 1 FROM runs WHERE batch_num = ${batchNumOf()} AND finished_at IS NOT NULL)
       GROUP BY minute ORDER BY minute`
  ).all(batchId, batchId);
}

// src/store/sqlite/models.ts
function modelBatch(cx, batchId) {
  const r = cx.stmt.get(`SELECT ? AS batch_id, * FROM model_batches WHERE batch_num = ${batchNumOf()}`).get(batchId, batchId);
  if (!r) return null;
  return {
    batchId: r.batch_id,
    modelId: r.model_id,
    mode: r.mode,
    description: JSON.parse(r.description)
  };
}
function setModelMode(cx, batchId, mode) {
  cx.stmt.get(`UPDATE model_batches SET mode = ? WHERE batch_num = ${batchNumOf()}`).run(mode, batchId);
}
function modelRun(cx, batchId, itemId) {
  const r = cx.stmt.get(`SELECT ? AS batch_id, * FROM model_runs WHERE batch_num = ${batchNumOf()} AND item_id = ?`).get(batchId, batchId, itemId);
  return r ? modelRunFromRow(r) : null;
}
function modelRuns(cx, batchId, afterSeq, limit) {
  const rows = cx.db.prepare(
    `SELECT i.*, ? AS batch_id, m.model_id, m.inputs, m.mode, m.idempotency_key, m.submits, m.model_run_id,
              m.http_status, m.status, m.poll_url, m.outputs, m.error AS m_error, m.credits, m.polls, m.submitted_at,
              m.admitted_at, m.finished_at AS m_finished_at
       FROM items i JOIN model_runs m ON m.batch_num = i.batch_num AND m.item_id = i.id
       WHERE i.batch_num = ${batchNumOf()} AND i.seq > ? ORDER BY i.seq LIMIT ?`
  ).all(batchId, batchId, afterSeq, limit);
  return rows.map((r) => ({
    item: itemFromRow(r),
    run: modelRunFromRow({ ...r, batch_id: batchId, item_id: r.id, error: r.m_error, finished_at: r.m_finished_at })
  }));
}
function setSubmitting(cx, batchId, itemId, key, mode) {
  cx.stmt.get(
    `UPDATE model_runs SET idempotency_key = ?, mode = ?, submits = submits + 1, submitted_at = ?
     WHERE batch_num = ${batchNumOf()} AND item_id = ?`
  ).run(key, mode, isoNow(cx.clock), batchId, itemId);
}
function countResend(cx, batchId, itemId) {
  cx.stmt.get(`UPDATE model_runs SET submits = submits + 1, submitted_at = ? WHERE batch_num = ${batchNumOf()} AND item_id = ?`).run(isoNow(cx.clock), batchId, itemId);
}
function setAdmitted(cx, batchId, itemId, httpStatus, run) {
  cx.stmt.get(
    `UPDATE model_runs SET model_run_id = ?, http_status = ?, status = ?, poll_url = ?, credits = ?, admitted_at = ?
     WHERE batch_num = ${batchNumOf()} AND item_id = ?`
  ).run(run.id, httpStatus, run.status, run.pollUrl, run.credits, isoNow(cx.clock), batchId, itemId);
}
function setFinished(cx, batchId, itemId, run, polls) {
  cx.stmt.get(
    `UPDATE model_runs SET status = ?, outputs = ?, error = ?, credits = ?, polls = polls + ?, finished_at = ?
     WHERE batch_num = ${batchNumOf()} AND item_id = ?`
  ).run(
    run.status,
    run.outputs == null ? null : JSON.stringify(run.outputs),
    run.error,
    run.credits,
    polls,
    isoNow(cx.clock),
    batchId,
    itemId
  );
}
function setError(cx, batchId, itemId, message, polls) {
  cx.stmt.get(
    `UPDATE model_runs SET error = ?, polls = polls + ?, finished_at = ? WHERE batch_num = ${batchNumOf()} AND item_id = ?`
  ).run(message, polls, isoNow(cx.clock), batchId, itemId);
}
function addModelPolls(cx, batchId, itemId, polls) {
  if (polls > 0)
    cx.stmt.get(`UPDATE model_runs SET polls = polls + ? WHERE batch_num = ${batchNumOf()} AND item_id = ?`).run(polls, batchId, itemId);
}
function modelCredits(cx, batchId) {
  const r = cx.stmt.get(
    `SELECT coalesce(sum(credits), 0) AS spent,
            sum(CASE WHEN credits IS NULL AND status IS NOT NULL AND status <> 'running' THEN 1 ELSE 0 END) AS unreported
     FROM model_runs WHERE batch_num = ${batchNumOf()}`
  ).get(batchId);
  return { spent: r.spent, unreported: r.unreported ?? 0 };
}
function modelPolls(cx, batchId) {
  return cx.stmt.get(`SELECT coalesce(sum(polls), 0) FROM model_runs WHERE batch_num = ${batchNumOf()}`).pluck().get(batchId);
}
function markModelSubmitting(cx, batchId, itemId, key, mode, resend) {
  if (resend) {
    countResend(cx, batchId, itemId);
    return;
  }
  const item = getItem(cx, batchId, itemId);
  setSubmitting(cx, batchId, itemId, key, mode);
  if (patchFlight(cx, batchId, itemId, { state: "submitting", pending_key: key }) === null)
    updateItem(cx, batchId, itemId, { state: "submitting", pending_key: key, started_at: item?.startedAt ?? isoNow(cx.clock) });
}
function markModelAdmitted(cx, batchId, itemId, httpStatus, run) {
  setAdmitted(cx, batchId, itemId, httpStatus, run);
  const running = { state: "running", run_id: run.id, run_status: run.status, pending_key: null };
  if (patchFlight(cx, batchId, itemId, running) === null) updateItem(cx, batchId, itemId, running);
}
function markModelFinished(cx, batchId, itemId, run, o) {
  if (o.httpStatus !== null) setAdmitted(cx, batchId, itemId, o.httpStatus, run);
  setFinished(cx, batchId, itemId, run, o.polls);
  const seen = new Date(cx.clock.now());
  const created = run.createdAt ? new Date(run.createdAt) : null;
  for (const f of run.files) recordFile(cx, batchId, itemId, run.id, f, seen, created);
  landFlight(cx, batchId, itemId, {
    state: o.failed ? "failed" : "completed",
    run_id: run.id,
    run_status: run.status,
    pending_key: null,
    error: o.failed ? run.error ?? `model run ${run.id} ended with status ${run.status}` : null,
    finished_at: isoNow(cx.clock)
  });
}
function markModelError(cx, batchId, itemId, message, polls) {
  setError(cx, batchId, itemId, message, polls);
  landFlight(cx, batchId, itemId, { state: "error", error: message, pending_key: null, finished_at: isoNow(cx.clock) });
}
function markModelUnsent(cx, batchId, itemId) {
  landFlight(cx, batchId, itemId, { state: "queued", pending_key: null });
}

// src/store/sqlite/scores.ts
function stmt(cx, sql) {
  return cx.stmt.get(sql);
}
var writes = /* @__PURE__ */ new WeakMap();
function writesOf(db) {
  let w = writes.get(db);
  if (!w)
    writes.set(
      db,
      w = {
        num: db.prepare("SELECT num FROM batches WHERE id = ?").pluck(),
        // The item's seq found in the statement that writes its verdict: one seek, no round trip.
        put: db.prepare(
          `INSERT INTO verdicts (batch_num, ${VERDICT_COLUMNS}) SELECT batch_num, id, seq, ?, ?, ?, ?, ?, ?, ? FROM items WHERE batch_num = ? AND id = ? ${VERDICT_UPSERT}`
        ),
        // With the seq known (`resq score` read the item, in file order): the item checked once,
        // by a seek next to the last one, then a plain insert per verdict.
        has: db.prepare("SELECT id = ? FROM items WHERE batch_num = ? AND seq = ?").pluck(),
        putAt: db.prepare(`INSERT INTO verdicts (batch_num, ${VERDICT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${VERDICT_UPSERT}`)
      }
    );
  return w;
}
function recordVerdicts(cx, batchId, itemId, verdicts) {
  recordVerdictsMany(cx, batchId, [{ itemId, verdicts }]);
}
function recordVerdictsMany(cx, batchId, items) {
  const w = writesOf(cx.db);
  const num = w.num.get(batchId);
  for (const { itemId, seq, verdicts } of items) {
    if (num === void 0 || seq !== void 0 && w.has.get(itemId, num, seq) !== 1) throw new Error(`recordVerdicts: batch ${batchId} has no item ${itemId}`);
    for (const v of verdicts) {
      if (seq !== void 0) w.putAt.run(num, itemId, seq, v.scorer, v.version, passValue(v), v.score, v.reason, v.scoredAt, v.by);
      else if (w.put.run(v.scorer, v.version, passValue(v), v.score, v.reason, v.scoredAt, v.by, num, itemId).changes === 0) throw new Error(`recordVerdicts: batch ${batchId} has no item ${itemId}`);
    }
  }
}
function verdictsOf(cx, batchId, itemId) {
  const rows = stmt(cx, `SELECT ${VERDICT_COLUMNS} FROM verdicts v WHERE (v.batch_num, v.seq) = (SELECT batch_num, seq FROM items WHERE batch_num = ${batchNumOf()} AND id = ?) ORDER BY scorer, version`).all(batchId, itemId);
  return rows.map(verdictOfRow);
}
function scoreTotals(cx, batchId, scorers) {
  const num = stmt(cx, "SELECT num FROM batches WHERE id = ?").pluck().get(batchId);
  if (num === void 0) return scorers.map((s) => totalsOf(s, 0, 0, 0));
  const kept = stmt(cx, "SELECT state, sum(n) AS n FROM item_counts WHERE batch_num = ? GROUP BY state").all(num);
  const completed = Number(kept.find((k) => k.state === "completed")?.n ?? 0);
  const others = kept.some((k) => k.state !== "completed" && Number(k.n) > 0);
  const all = stmt(cx, "SELECT coalesce(sum(pass = 1), 0) AS passed, coalesce(sum(pass = 0), 0) AS failed FROM verdicts WHERE batch_num = ? AND scorer = ? AND version = ? AND pass IS NOT NULL");
  const gone = stmt(
    cx,
    `SELECT coalesce(sum(v.pass = 1), 0) AS passed, coalesce(sum(v.pass = 0), 0) AS failed FROM items i
     JOIN verdicts v ON v.batch_num = i.batch_num AND v.seq = i.seq AND v.scorer = ? AND v.version = ?
     WHERE i.batch_num = ? AND i.state <> 'completed' AND v.pass IS NOT NULL`
  );
  return scorers.map((s) => {
    const a = all.get(num, s.name, s.version);
    const g = others ? gone.get(s.name, s.version, num) : { passed: 0, failed: 0 };
    return totalsOf(s, completed, Number(a.passed) - Number(g.passed), Number(a.failed) - Number(g.failed));
  });
}
function itemsToScore(cx, batchId, scorer, q) {
  const lacking = q.rescore ? "" : "AND NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.batch_num = i.batch_num AND v.seq = i.seq AND v.scorer = @scorer AND v.version = @version)";
  const rows = stmt(
    cx,
    `SELECT @batch AS batch_id, i.* FROM items i INDEXED BY items_for_state_pages
     WHERE i.batch_num = ${batchNumOf("@batch")} AND i.state = 'completed' AND i.state <> 'queued' AND i.seq > @after ${lacking} ORDER BY i.seq LIMIT ${Math.max(0, Math.floor(q.limit))}`
  ).all({ batch: batchId, after: q.afterSeq, ...q.rescore ? {} : { scorer: scorer.name, version: scorer.version } });
  return rows.map(itemFromRow);
}
function verdictsPage(cx, batchId, q) {
  const num = stmt(cx, "SELECT num FROM batches WHERE id = ?").pluck().get(batchId);
  if (num === void 0 || q.limit <= 0) return [];
  const seqs = stmt(cx, "SELECT DISTINCT seq FROM verdicts WHERE batch_num = ? AND seq > ? ORDER BY seq LIMIT ?").pluck().all(num, q.afterSeq, Math.floor(q.limit));
  if (seqs.length === 0) return [];
  const rows = stmt(cx, `SELECT ${VERDICT_COLUMNS} FROM verdicts WHERE batch_num = ? AND seq > ? AND seq <= ? ORDER BY seq, scorer, version`).all(num, q.afterSeq, seqs[seqs.length - 1]);
  return groupVerdicts(rows);
}
function scorersJudged(cx, batchId) {
  return stmt(cx, `SELECT DISTINCT scorer AS name, version FROM verdicts WHERE batch_num = ${batchNumOf()} ORDER BY scorer, version`).all(batchId);
}

// src/store/sqlite/notify-commands.ts
function holdNotifyCommand(cx, batchId, s, leaseMs, now) {
  if (leaseMs <= 0) {
    cx.db.prepare(`DELETE FROM notify_commands WHERE batch_num = ${batchNumOf()} AND owner = ?`).run(batchId, s.owner);
    return;
  }
  cx.db.prepare(
    `INSERT INTO notify_commands (batch_num, owner, host, pid, until_ms) VALUES (${batchNumOf()}, ?, ?, ?, ?)
     ON CONFLICT (batch_num, owner) DO UPDATE SET until_ms = excluded.until_ms`
  ).run(batchId, s.owner, s.host, s.pid, now + leaseMs);
}
function notifyCommands(cx, batchId, now) {
  return cx.db.prepare(`SELECT owner, host, pid FROM notify_commands WHERE batch_num = ${batchNumOf()} AND until_ms >= ? ORDER BY host, pid, owner`).all(batchId, now);
}

// src/store/sqlite/outbox.ts
function addEvent(cx, batchId, e, now) {
  const r = cx.stmt.get(`INSERT OR IGNORE INTO outbox (batch_num, key, type, status, data, created_at) VALUES (${batchNumOf()}, ?, ?, 'pending', ?, ?)`).run(batchId, e.key, e.type, JSON.stringify(e.data), now);
  return r.changes === 1;
}
function addHeldEvent(cx, batchId, key, facts, reminder, now) {
  cx.stmt.get(`INSERT OR IGNORE INTO outbox (batch_num, key, type, status, data, created_at) VALUES (${batchNumOf()}, ?, 'items.held', 'pending', ?, ?)`).run(batchId, key, heldEventData(facts, reminder), now);
  cx.db.prepare(`UPDATE outbox SET status = 'folded', due_at = ? WHERE id IN (${marks(facts.length)})`).run(now, ...facts);
}
function collateHeld(cx, batchId, o, now) {
  return runHeldPlan(heldPlan(o, now), (s) => {
    switch (s.kind) {
      case "lastDigest":
        return cx.stmt.get(`SELECT max(created_at) FROM outbox WHERE batch_num = ${batchNumOf()} AND type = 'items.held' AND key LIKE 'digest:%'`).pluck().get(batchId);
      case "facts":
        return cx.stmt.get(`SELECT id FROM outbox WHERE batch_num = ${batchNumOf()} AND type = 'item.held' AND status = 'fact' ORDER BY id`).pluck().all(batchId);
      case "add":
        addHeldEvent(cx, batchId, s.key, s.facts, s.reminder, now);
        return void 0;
      case "dropAnswered":
        cx.stmt.get(
          `UPDATE outbox SET status = 'done' WHERE batch_num = ${batchNumOf()} AND type = 'item.held' AND status = 'folded'
             AND NOT EXISTS (SELECT 1 FROM items i WHERE i.batch_num = outbox.batch_num AND i.id = outbox.item_id AND i.state = 'held' AND i.run_id IS outbox.run_id)`
        ).run(batchId);
        return void 0;
      case "due":
        return cx.stmt.get(`SELECT id FROM outbox WHERE batch_num = ${batchNumOf()} AND type = 'item.held' AND status = 'folded' AND due_at <= ? ORDER BY id`).pluck().all(batchId, s.before);
    }
  });
}
function heldOf(cx, data) {
  const ids = factIds(data);
  if (ids.length === 0) return [];
  const rows = cx.db.prepare(`SELECT f.item_id, f.run_id, f.reason, f.created_at, r.required_action FROM outbox f LEFT JOIN runs r ON r.id = f.run_id WHERE f.id IN (${marks(ids.length)}) ORDER BY f.id`).all(...ids);
  return rows.map(heldFromRow);
}
function claim2(cx, owner, o, now) {
  const only = o.batchIds ? `AND batch_num IN (SELECT num FROM batches WHERE id IN (${marks(o.batchIds.length)}))` : "";
  if (o.batchIds?.length === 0) return [];
  const rows = cx.db.prepare(
    `UPDATE outbox SET owner = ?, lease_until = ?, fence = fence + 1, attempts = attempts + 1
       WHERE id IN (SELECT id FROM outbox WHERE status = 'pending' AND due_at <= ? AND (lease_until IS NULL OR lease_until < ?) ${only} ORDER BY id LIMIT ?)
       RETURNING *, (SELECT id FROM batches WHERE num = batch_num) AS batch_id`
  ).all(owner, now + o.leaseMs, now, now, ...o.batchIds ?? [], o.limit);
  return rows.sort((a, b) => Number(a.id) - Number(b.id)).map((r) => claimFromRow(r, r.type === "items.held" ? heldOf(cx, JSON.parse(r.data)) : []));
}
function settle(cx, c, out, now) {
  const r = !("retryInMs" in out) ? cx.stmt.get(`UPDATE outbox SET status = 'sent', sent_at = ?, owner = NULL, lease_until = NULL WHERE id = ? AND owner = ? AND fence = ? AND status = 'pending'`).run(now, c.row, c.owner, c.fence) : cx.stmt.get(
    `UPDATE outbox SET due_at = ?, last_error = ?, last_error_at = ?, delivered = ?, attempts = attempts - ?, owner = NULL, lease_until = NULL
           WHERE id = ? AND owner = ? AND fence = ? AND status = 'pending'`
  ).run(now + out.retryInMs, out.error, now, JSON.stringify(out.delivered), out.deferred ? 1 : 0, c.row, c.owner, c.fence);
  return r.changes === 1;
}
function state(cx, batchId) {
  const undelivered = cx.stmt.get(`SELECT count(*) FROM outbox WHERE batch_num = ${batchNumOf()} AND status = 'pending'`).pluck().get(batchId);
  const err = cx.stmt.get(`SELECT last_error, last_error_at FROM outbox WHERE batch_num = ${batchNumOf()} AND status = 'pending' AND last_error IS NOT NULL ORDER BY last_error_at DESC LIMIT 1`).get(batchId);
  const changed = cx.stmt.get(
    `SELECT max(at) FROM (SELECT max(updated_at) AS at FROM items INDEXED BY items_for_web_sort WHERE batch_num = ${batchNumOf()} AND state <> 'queued'
         UNION ALL SELECT max(updated_at) FROM flights WHERE batch_num = ${batchNumOf()})`
  ).pluck().get(batchId, batchId);
  return { undelivered, lastError: err?.last_error ?? null, lastErrorAt: err ? Number(err.last_error_at) : null, lastChangeAt: changed };
}

// src/store/sqlite/summaries.ts
function bindable(v) {
  return typeof v === "boolean" ? v ? 1 : 0 : v;
}
function queryItems(cx, batchId, q = {}) {
  const where = [`i.batch_num = ${batchNumOf()}`];
  const args = [batchId, batchId];
  if (q.states) {
    if (q.states.length === 0) return [];
    const s = inStates(q.states, batchId);
    where.push(s.where);
    args.push(...s.args);
    if (s.plan === "keys") where[0] = `+${where[0]}`;
  }
  for (const [key, want] of Object.entries(q.meta ?? {})) {
    const values = Array.isArray(want) ? want : [want];
    const parts = [];
    for (const v of values) {
      if (v === null) {
        parts.push("NOT EXISTS (SELECT 1 FROM json_each(i.meta) WHERE key = ? AND value IS NOT NULL)");
        args.push(key);
      } else {
        parts.push("EXISTS (SELECT 1 FROM json_each(i.meta) WHERE key = ? AND value = ?)");
        args.push(key, bindable(v));
      }
    }
    where.push(parts.length ? `(${parts.join(" OR ")})` : "0");
  }
  if (q.text) {
    const cols = ["i.id", "i.question", "CASE WHEN f.item_key IS NULL THEN i.text ELSE f.text END", "i.error", "i.hold_reason"];
    where.push(`(${cols.map((c) => `instr(lower(coalesce(${c}, '')), ?) > 0`).join(" OR ")})`);
    args.push(...cols.map(() => q.text.toLowerCase()));
  }
  const limit = q.limit !== void 0 ? ` LIMIT ${Math.max(0, Math.floor(q.limit))}` : "";
  const rows = cx.db.prepare(`${ITEM_SELECT} WHERE ${where.join(" AND ")} ORDER BY i.seq${limit}`).all(...args);
  return rows.map(itemFromRow);
}
function itemStats(cx, batchId) {
  const rows = cx.db.prepare(
    `SELECT i.id AS itemId, coalesce(r.n, 0) AS runs, coalesce(r.secs, 0) AS runSeconds,
              coalesce(d.n, 0) AS decisions, coalesce(d.cost, 0) AS approvedCost, coalesce(f.n, 0) AS files
       FROM items i
       LEFT JOIN (SELECT item_id, count(*) AS n,
                    CASE WHEN max(finished_at IS NOT NULL AND seconds IS NULL) = 1 THEN 0 ELSE sum(coalesce(seconds, 0)) END AS secs
                  FROM runs WHERE batch_num = ${batchNumOf("@b")} GROUP BY item_id) r ON r.item_id = i.id
       LEFT JOIN (SELECT item_id, count(*) AS n, sum(${trustedCostSql("cost")}) AS cost FROM decisions WHERE batch_num = ${batchNumOf("@b")} GROUP BY item_id) d ON d.item_id = i.id
       LEFT JOIN (SELECT item_id, count(*) AS n FROM files WHERE batch_num = ${batchNumOf("@b")} GROUP BY item_id) f ON f.item_id = i.id
       WHERE i.batch_num = ${batchNumOf("@b")}`
  ).all({ b: batchId });
  return new Map(rows.map((r) => [r.itemId, r]));
}
function batchTotals(cx, batchId) {
  const t = cx.db.prepare(
    `SELECT (SELECT count(*) FROM runs WHERE batch_num = ${batchNumOf("@b")}) AS runs,
              (SELECT count(*) FROM decisions WHERE batch_num = ${batchNumOf("@b")}) AS decisions,
              coalesce((SELECT approved FROM batch_spend WHERE batch_num = ${batchNumOf("@b")}), 0) AS approvedCost,
              (SELECT coalesce(sum(bytes), 0) FROM files WHERE batch_num = ${batchNumOf("@b")} AND status = 'downloaded') AS fileBytes`
  ).get({ b: batchId });
  return { ...t, approvedCost: keptTotal(t.approvedCost) };
}
function itemSeconds(cx, batchId) {
  return cx.db.prepare(
    `SELECT (julianday(finished_at) - julianday(started_at)) * 86400 FROM items i
       WHERE batch_num = ${batchNumOf()} AND started_at IS NOT NULL AND finished_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM runs u WHERE u.batch_num = i.batch_num AND u.item_id = i.id AND u.unwatched = 1)`
  ).pluck().all(batchId);
}
function runTimes2(cx, batchId) {
  const rows = cx.db.prepare(
    `SELECT item_id AS itemId, id AS runId, step, status, json_extract(required_action, '$.tool') AS tool,
              created_at AS createdAt, finished_at AS finishedAt, seconds, unwatched
       FROM runs WHERE batch_num = ${batchNumOf()} ORDER BY created_at, step`
  ).all(batchId);
  return rows.map((r) => ({ ...r, unwatched: r.unwatched === 1 }));
}
function batchDecisions(cx, batchId) {
  const rows = cx.db.prepare(
    `SELECT item_id AS itemId, tool, input, answer, by, person, reason, cost, decided_at AS decidedAt
       FROM decisions WHERE batch_num = ${batchNumOf()} ORDER BY id`
  ).all(batchId);
  return rows.map((r) => ({
    ...r,
    input: JSON.parse(r.input),
    answer: JSON.parse(r.answer)
  }));
}
function batchPauses(cx, batchId, q = {}) {
  const from = q.decidedBy ? `decisions d JOIN runs r ON r.id = d.run_id WHERE d.batch_num = ${batchNumOf("@b")} AND d.by = @by AND r.required_action IS NOT NULL` : `runs r LEFT JOIN decisions d ON d.batch_num = r.batch_num AND d.run_id = r.id WHERE r.batch_num = ${batchNumOf("@b")} AND r.required_action IS NOT NULL`;
  const rows = cx.db.prepare(
    `SELECT r.item_id AS itemId, r.id AS runId, r.step, r.required_action AS requiredAction, r.finished_at AS pausedAt,
              d.answer, d.by, d.person, d.reason, d.cost, d.decided_at AS decidedAt, d.id AS decisionSeq
       FROM ${from}
       ORDER BY r.finished_at, r.item_id, r.step`
  ).all({ b: batchId, ...q.decidedBy ? { by: q.decidedBy } : {} });
  return rows.map(pauseFromRow);
}

// src/store/sqlite/transitions.ts
function current(cx, item) {
  const now = getItemAgain(cx, item);
  if (!now || !stillHeld(now, item)) throw leaseLost(item.id, now, item);
  return now;
}
function lost(cx, item) {
  throw leaseLost(item.id, getItem(cx, item.batchId, item.id), item);
}
function patched(item, patch, updatedAt) {
  const next = { ...item, updatedAt };
  for (const [col, v] of Object.entries(patch)) {
    next[FIELD[col]] = v !== null && typeof v === "object" ? JSON.parse(JSON.stringify(v)) : v;
  }
  return next;
}
var FIELD = {
  state: "state",
  step: "step",
  pending_key: "pendingKey",
  pending_answer: "pendingAnswer",
  run_id: "runId",
  thread_id: "threadId",
  run_status: "runStatus",
  text: "text",
  error: "error",
  error_code: "errorCode",
  hold_reason: "holdReason",
  started_at: "startedAt",
  finished_at: "finishedAt",
  owner: "owner",
  lease_until: "leaseUntil",
  attempt: "attempt",
  fence: "fence"
};
function patchHeld(cx, item, patch) {
  const at = patchFlight(cx, item.batchId, item.id, patch, item);
  return at === null ? null : patched(item, patch, at);
}
function landHeld(cx, item, patch) {
  const at = landFlight(cx, item.batchId, item.id, patch, item);
  return at === null ? null : { ...patched(item, patch, at), owner: null, leaseUntil: null };
}
function insertRun(cx, batchId, itemId, run) {
  cx.stmt.get(
    `INSERT INTO runs (id, batch_num, item_id, step, parent_run_id, idempotency_key, status, thread_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`
  ).run(run.id, batchNum(cx, batchId), itemId, run.step, run.parentRunId, run.idempotencyKey, run.status, run.threadId, isoNow(cx.clock));
}
function finishRun(cx, id, status, requiredAction, output, failure = { error_code: null, error: null }, times = { serviceSeconds: null, unwatched: false }) {
  const now = isoNow(cx.clock);
  cx.stmt.get(
    `UPDATE runs SET status = ?, required_action = ?, output = ?, error_code = ?, error = ?, finished_at = ?, unwatched = ?,
         seconds = CASE WHEN ? IS NOT NULL THEN ? WHEN ? = 1 THEN NULL ELSE max(0, round((julianday(?) - julianday(created_at)) * 86400, 3)) END
       WHERE id = ?`
  ).run(
    status,
    requiredAction == null ? null : JSON.stringify(requiredAction),
    output == null ? null : JSON.stringify(output),
    failure.error_code,
    failure.error,
    now,
    times.unwatched ? 1 : 0,
    times.serviceSeconds,
    times.serviceSeconds,
    times.unwatched ? 1 : 0,
    now,
    id
  );
}
function setThread(cx, batchId, threadKey, threadId) {
  cx.stmt.get(`INSERT INTO threads (batch_num, thread_key, thread_id) VALUES (${batchNumOf()}, ?, ?) ON CONFLICT DO NOTHING`).run(batchId, threadKey, threadId);
}
function markAdmitted(cx, item, run) {
  const next = patchHeld(cx, item, admittedPatch(item, run)) ?? lost(cx, item);
  insertRun(cx, item.batchId, item.id, run);
  if (item.threadKey && run.threadId) setThread(cx, item.batchId, item.threadKey, run.threadId);
  return { ...next, holdReason: null };
}
function recordRun(cx, item, run) {
  finishRun(cx, run.id, run.status, run.requiredAction, run.output, runErrorColumns(run), runTimes(run));
  const seen = new Date(cx.clock.now());
  const created = run.createdAt ? new Date(run.createdAt) : null;
  for (const f of run.files) recordFile(cx, item.batchId, item.id, run.id, f, seen, created);
}
function markFinished(cx, item, run, state2) {
  const next = landHeld(cx, item, finishedPatch(item, run, state2, isoNow(cx.clock))) ?? lost(cx, item);
  recordRun(cx, item, run);
  return next;
}
function answer(cx, item, decision, nextKey, seen = {}) {
  if (!insertDecision(cx, item.batchId, item.id, decision, nextKey)) return false;
  const waiting = answeredPatch(item, decision, nextKey, seen);
  if (item.state === "held") {
    const next = {
      ...item,
      state: "waiting",
      step: item.step + 1,
      pendingKey: nextKey,
      pendingAnswer: decision.answer,
      runStatus: seen.run_status ?? item.runStatus,
      text: seen.text !== void 0 ? seen.text : item.text,
      owner: null,
      leaseUntil: null
    };
    startFlight(cx, next, { hold_reason: null });
  } else if (patchFlight(cx, item.batchId, item.id, waiting) === null) {
    throw new Error(`item ${item.batchId}/${item.id} has no flight to answer`);
  }
  return true;
}
function markPaused(cx, item, run, decide) {
  const now = current(cx, item);
  const prior = decisionForRun(cx, now.batchId, run.id);
  if (prior) return { outcome: priorOutcome(prior, now.pendingKey ?? ""), item: now };
  recordRun(cx, now, run);
  const outcome = decide(budgetSpent(cx, now.batchId));
  const seen = pauseSeen(run);
  if (outcome.kind === "answer") answer(cx, now, outcome.decision, outcome.nextKey, seen);
  else landFlight(cx, now.batchId, now.id, heldPatch(seen, outcome.reason));
  return { outcome, item: getItem(cx, now.batchId, now.id) };
}
function answerHeld(cx, batchId, itemId, decision, nextKey, budget) {
  const now = getItem(cx, batchId, itemId);
  if (!now || now.state !== "held") throw new ItemNotHeldError(itemId, now?.state ?? null);
  if (now.runId !== decision.runId) throw new ItemNotHeldError(itemId, "held on a later pause");
  const overBudget = checkBudget(itemId, budgetSpent(cx, batchId), decision.cost, budget);
  if (!answer(cx, now, { ...decision, overBudget }, nextKey)) throw new ItemNotHeldError(itemId, "decided");
  return { overBudget };
}
function redecideHeld(cx, batchId, itemId, decide) {
  const now = getItem(cx, batchId, itemId);
  if (!now || now.state !== "held") return { kind: "hold", reason: `item is ${now?.state ?? "gone"}` };
  const outcome = decide(budgetSpent(cx, batchId));
  if (outcome.kind === "answer" && !answer(cx, now, outcome.decision, outcome.nextKey)) return { kind: "hold", reason: "decided already" };
  return outcome;
}
function markCancelled(cx, batchId, itemId) {
  const now = getItem(cx, batchId, itemId);
  if (!now || isTerminal(now.state)) return false;
  landFlight(cx, batchId, itemId, cancelledPatch(isoNow(cx.clock)));
  return true;
}
function markError(cx, batchId, itemId, message, code = null, held) {
  const now = getItem(cx, batchId, itemId);
  if (!now) return null;
  if (held && !stillHeld(now, held)) throw leaseLost(itemId, now, held);
  landFlight(cx, batchId, itemId, errorPatch(message, code, isoNow(cx.clock)));
  return getItem(cx, batchId, itemId);
}

// src/store/sqlite/web-sessions.ts
function openSession(cx, idDigest, nowMs) {
  cx.db.prepare("DELETE FROM web_sessions WHERE last_seen_at < ?").run(nowMs - WEB_SESSION_KEEP_MS);
  cx.db.prepare("INSERT INTO web_sessions (id_digest, created_at, last_seen_at) VALUES (?, ?, ?)").run(idDigest, nowMs, nowMs);
}
function checkSession(cx, idDigest, idleMs, nowMs) {
  const row = cx.db.prepare("SELECT last_seen_at AS lastSeenAt, ended_at AS endedAt FROM web_sessions WHERE id_digest = ?").get(idDigest);
  return sessionUse(row ?? null, idleMs, nowMs);
}
function touchSession(cx, idDigest, nowMs) {
  return cx.db.prepare("UPDATE web_sessions SET last_seen_at = max(last_seen_at, ?) WHERE id_digest = ? AND ended_at IS NULL").run(nowMs, idDigest).changes === 1;
}
function endSession(cx, idDigest, nowMs) {
  cx.db.prepare("UPDATE web_sessions SET ended_at = ? WHERE id_digest = ? AND ended_at IS NULL").run(nowMs, idDigest);
}
function addCode(cx, codeDigest, expiresAtMs, nowMs) {
  cx.db.prepare("DELETE FROM web_login_codes WHERE expires_at < ?").run(nowMs - WEB_SESSION_KEEP_MS);
  cx.db.prepare("INSERT INTO web_login_codes (code_digest, created_at, expires_at) VALUES (?, ?, ?)").run(codeDigest, nowMs, expiresAtMs);
}
function spendCode(cx, codeDigest, nowMs) {
  return cx.db.prepare("UPDATE web_login_codes SET spent_at = ? WHERE code_digest = ? AND spent_at IS NULL AND expires_at >= ?").run(nowMs, codeDigest, nowMs).changes === 1;
}
async function useSession(cx, idDigest, idleMs, nowMs, via) {
  const use = await via.read(() => checkSession(cx, idDigest, idleMs, nowMs));
  return settleSessionUse(use, { end: () => via.write(() => endSession(cx, idDigest, nowMs)), touch: () => via.write(() => touchSession(cx, idDigest, nowMs)) });
}

// src/store/sqlite/write-group.ts
var ONE_THREW = /* @__PURE__ */ Symbol("one write threw");
var WriteGroup = class {
  #tx;
  #sleep;
  #queue = [];
  #scheduled = null;
  /** Groups taken from the queue and not settled yet (one waiting out a busy file, say). */
  #flushing = /* @__PURE__ */ new Set();
  /** `sleep`: the pause between tries of a busy file, or the store's bounded wait (db-wait.ts). */
  constructor(tx, sleep) {
    this.#tx = tx;
    this.#sleep = sleep;
  }
  /** Runs `fn` in the next group's transaction; settles with its result after COMMIT. */
  write(fn) {
    return new Promise((resolve, reject) => {
      this.#queue.push({ fn, resolve, reject });
      this.#scheduled ??= setImmediate(() => void this.#flush());
    });
  }
  /** Writes still waiting for their group. */
  get pending() {
    return this.#queue.length;
  }
  /** Runs the waiting writes now and settles every group (before the database closes). */
  async drain() {
    while (this.#queue.length > 0 || this.#flushing.size > 0) {
      if (this.#queue.length > 0) void this.#flush();
      await Promise.all(this.#flushing);
    }
  }
  #flush() {
    if (this.#scheduled) clearImmediate(this.#scheduled);
    this.#scheduled = null;
    const group = this.#queue;
    this.#queue = [];
    if (group.length === 0) return Promise.resolve();
    const settled = this.#settle(group).finally(() => this.#flushing.delete(settled));
    this.#flushing.add(settled);
    return settled;
  }
  async #settle(group) {
    let outcomes;
    try {
      outcomes = await retryBusy(() => this.#run(group), this.#sleep);
    } catch (error) {
      for (const p of group) p.reject(error);
      return;
    }
    for (let i = 0; i < group.length; i++) {
      const o = outcomes[i];
      if (o.failed) group[i].reject(o.value);
      else group[i].resolve(o.value);
    }
  }
  /**
   * Runs the group in one transaction. Writes rarely throw (a lost lease), so the group is
   * first run plainly; when one throws, that attempt is rolled back whole and the group runs
   * again with each write in a savepoint of its own (two statements more per write).
   */
  #run(group) {
    try {
      return this.#attempt(group, false);
    } catch (e) {
      if (e !== ONE_THREW) throw e;
      return this.#attempt(group, true);
    }
  }
  #attempt(group, savepoints) {
    const outcomes = new Array(group.length);
    this.#tx.transaction(() => {
      for (let i = 0; i < group.length; i++) {
        try {
          outcomes[i] = { failed: false, value: savepoints ? this.#tx.savepoint(group[i].fn) : group[i].fn() };
        } catch (error) {
          if (isBusy(error) || isFull(error)) throw error;
          if (!savepoints) throw ONE_THREW;
          outcomes[i] = { failed: true, value: error };
        }
      }
    });
    return outcomes;
  }
};

// src/store/sqlite/sqlite-store.ts
var SqliteStore = class _SqliteStore {
  location;
  /** The connection, its clock and prepared statements: what every operation takes first. */
  #cx;
  /** Writes asked for in one turn share one transaction (see write-group.ts). */
  #group;
  /** Time for leases, heartbeats and the overview's live workers when the caller gives none. */
  #clock;
  /** A busy file is waited on up to a bound, said once (db-wait.ts). */
  #wait;
  constructor(db, location, clock = systemClock, wait = {}) {
    this.#clock = clock;
    this.#wait = new DbWait(location, { clock, ...wait });
    this.#cx = contextOf(db, clock);
    this.location = location;
    const cx = this.#cx;
    const tx = db.transaction((fn) => {
      cx.ended.length = 0;
      fn();
      finishBatches(cx);
    });
    const savepoint = db.transaction((fn) => takingBackNotes(cx, fn));
    this.#group = new WriteGroup({ transaction: tx.immediate, savepoint }, this.#wait);
  }
  /** Opens a database file (created and migrated when needed). */
  static open(path, opts = {}) {
    return new _SqliteStore(openDatabase(path, opts), path, opts.clock, opts);
  }
  /** The connection, for the adapter's own tests and migrations only. */
  get db() {
    return this.#cx.db;
  }
  #write(fn) {
    return this.#group.write(() => fn(this.#cx));
  }
  #read(fn) {
    return retryBusy(() => fn(this.#cx), this.#wait);
  }
  async close() {
    if (this.#cx.db.open) await this.#group.drain();
    if (this.#cx.db.open) this.#cx.db.close();
  }
  // ---- batches
  async beginBatchLoad(batch, opts = {}) {
    return retryBusy(() => beginBatchLoad(this.#cx, batch, opts), this.#wait);
  }
  async beginBatchAppend(batchId) {
    return retryBusy(() => beginBatchAppend(this.#cx, batchId), this.#wait);
  }
  appendItems(batchId, cols) {
    return this.#write((cx) => appendItems(cx, batchId, cols));
  }
  loadModelBatch(batch, model, rows) {
    return this.#write((cx) => loadModelBatch(cx, batch, model, rows));
  }
  findBatch(nameOrId) {
    return this.#read((cx) => findBatch(cx, nameOrId));
  }
  listBatches(kind) {
    return this.#read((cx) => listBatches(cx, kind));
  }
  latestBatch(kind) {
    return this.#read((cx) => latestBatch(cx, kind));
  }
  updateBatchSettings(id, settings, policy, baseUrl) {
    return this.#write((cx) => updateBatchSettings(cx, id, settings, policy, baseUrl));
  }
  cancelBatch(batchId, nowMs) {
    return this.#write((cx) => cancel(cx, batchId, nowMs ?? this.#clock.now()));
  }
  overview(batchId, nowMs, staleMs = 6e4) {
    return this.#read((cx) => {
      const batch = findBatch(cx, batchId);
      if (!batch) throw new Error(`batch ${batchId} not found`);
      return {
        batch,
        counts: itemCounts(cx, batchId),
        approvedCost: approvedCost(cx, batchId),
        files: fileCounts(cx, batchId),
        workers: live(cx, batchId, staleMs, nowMs ?? this.#clock.now())
      };
    });
  }
  // ---- workers and claims
  registerWorker(batchId, w, nowMs) {
    return this.#write((cx) => register(cx, batchId, w, nowMs ?? this.#clock.now()));
  }
  heartbeat(lease, nowMs) {
    return this.#write((cx) => heartbeat(cx, lease, nowMs ?? this.#clock.now()));
  }
  setCapLimit(batchId, capLimit) {
    return this.#write((cx) => setCapLimit(cx, batchId, capLimit));
  }
  retireWorker(workerId, nowMs) {
    return this.#write((cx) => retire(cx, workerId, nowMs ?? this.#clock.now()));
  }
  liveWorkers(batchId, staleMs, nowMs) {
    return this.#read((cx) => live(cx, batchId, staleMs, nowMs ?? this.#clock.now()));
  }
  claimItems(batchId, req, nowMs) {
    return this.#write((cx) => claim(cx, batchId, req, nowMs ?? this.#clock.now()));
  }
  claimNextInThread(batchId, threadKey, afterSeq, req, nowMs) {
    return this.#write((cx) => claimNextInThread(cx, batchId, threadKey, afterSeq, req, nowMs ?? this.#clock.now()));
  }
  releaseItem(batchId, itemId, workerId, fence) {
    return this.#write((cx) => release(cx, batchId, itemId, workerId, fence));
  }
  // ---- agent runs
  markAdmitted(item, run) {
    return this.#write((cx) => markAdmitted(cx, item, run));
  }
  markFinished(item, run, state2) {
    return this.#write((cx) => markFinished(cx, item, run, state2));
  }
  markCancelled(batchId, itemId) {
    return this.#write((cx) => markCancelled(cx, batchId, itemId));
  }
  markPaused(item, run, decide) {
    return this.#write((cx) => markPaused(cx, item, run, decide));
  }
  answerHeld(batchId, itemId, decision, nextKey, budget) {
    return this.#write((cx) => answerHeld(cx, batchId, itemId, decision, nextKey, budget));
  }
  redecideHeld(batchId, itemId, decide) {
    return this.#write((cx) => redecideHeld(cx, batchId, itemId, decide));
  }
  markError(batchId, itemId, message, code, held) {
    return this.#write((cx) => markError(cx, batchId, itemId, message, code ?? null, held));
  }
  requeue(batchId, itemIds, states) {
    return this.#write((cx) => requeue(cx, batchId, itemIds, states));
  }
  // ---- reads
  getItem(batchId, itemId) {
    return this.#read((cx) => getItem(cx, batchId, itemId));
  }
  listItems(batchId, f = {}) {
    return this.#read((cx) => listItems(cx, batchId, f));
  }
  itemCounts(batchId) {
    return this.#read((cx) => itemCounts(cx, batchId));
  }
  threadWaits(batchId, limit, o = {}) {
    return this.#read((cx) => threadWaits(cx, batchId, limit, o));
  }
  recentFinishes(batchId, limit) {
    return this.#read((cx) => recentFinishes(cx, batchId, limit));
  }
  getRun(runId) {
    return this.#read((cx) => getRun(cx, runId));
  }
  runChain(batchId, itemId) {
    return this.#read((cx) => runChain(cx, batchId, itemId));
  }
  decisionsForItem(batchId, itemId) {
    return this.#read((cx) => decisionsForItem(cx, batchId, itemId));
  }
  batchPauses(batchId, q) {
    return this.#read((cx) => batchPauses(cx, batchId, q));
  }
  approvedCost(batchId) {
    return this.#read((cx) => approvedCost(cx, batchId));
  }
  budgetSpent(batchId) {
    return this.#read((cx) => budgetSpent(cx, batchId));
  }
  aggregates(batchId, afterSeq, limit, states) {
    return this.#read((cx) => aggregates(cx, batchId, afterSeq, limit, states));
  }
  metaKeys(batchId) {
    return this.#read((cx) => metaKeys(cx, batchId));
  }
  // ---- files
  markFileDownloaded(batchId, fileId, v, claim3) {
    return this.#write((cx) => markFileDownloaded(cx, batchId, fileId, v, claim3));
  }
  markFileStatus(batchId, fileId, status, error, claim3) {
    return this.#write((cx) => markFileStatus(cx, batchId, fileId, status, error, claim3));
  }
  getFile(batchId, fileId) {
    return this.#read((cx) => getFile(cx, batchId, fileId));
  }
  filesForBatch(batchId, statuses) {
    return this.#read((cx) => filesForBatch(cx, batchId, statuses));
  }
  filesForItem(batchId, itemId) {
    return this.#read((cx) => filesForItem(cx, batchId, itemId));
  }
  fileCounts(batchId) {
    return this.#read((cx) => fileCounts(cx, batchId));
  }
  filePaths(batchId) {
    return this.#read((cx) => filePaths(cx, batchId));
  }
  recordFileCopy(batchId, fileId, c, keep) {
    return this.#write((cx) => recordFileCopy(cx, batchId, fileId, c, keep));
  }
  fileCopies(batchId) {
    return this.#read((cx) => fileCopies(cx, batchId));
  }
  expiryReport(batchId, warnBefore) {
    return this.#read((cx) => expiryReport(cx, batchId, warnBefore));
  }
  claimFile(batchId, fileId, holder, req) {
    return this.#write((cx) => claimFile(cx, batchId, fileId, holder, req, req.nowMs ?? this.#clock.now()));
  }
  fileClaimHolder(batchId, fileId) {
    return this.#read((cx) => fileClaimHolder(cx, batchId, fileId));
  }
  renewFileClaim(batchId, fileId, claim3, leaseMs, nowMs) {
    return this.#write((cx) => renewFileClaim(cx, batchId, fileId, claim3, leaseMs, nowMs ?? this.#clock.now()));
  }
  releaseFileClaim(batchId, fileId, claim3) {
    return this.#write((cx) => releaseFileClaim(cx, batchId, fileId, claim3));
  }
  // ---- model batches
  modelBatch(batchId) {
    return this.#read((cx) => modelBatch(cx, batchId));
  }
  modelRun(batchId, itemId) {
    return this.#read((cx) => modelRun(cx, batchId, itemId));
  }
  modelRuns(batchId, afterSeq, limit) {
    return this.#read((cx) => modelRuns(cx, batchId, afterSeq, limit));
  }
  markModelSubmitting(batchId, itemId, key, mode, resend) {
    return this.#write((cx) => markModelSubmitting(cx, batchId, itemId, key, mode, resend));
  }
  markModelAdmitted(batchId, itemId, httpStatus, run) {
    return this.#write((cx) => markModelAdmitted(cx, batchId, itemId, httpStatus, run));
  }
  markModelFinished(batchId, itemId, run, o) {
    return this.#write((cx) => markModelFinished(cx, batchId, itemId, run, o));
  }
  markModelError(batchId, itemId, message, polls = 0) {
    return this.#write((cx) => markModelError(cx, batchId, itemId, message, polls));
  }
  markModelUnsent(batchId, itemId) {
    return this.#write((cx) => markModelUnsent(cx, batchId, itemId));
  }
  addModelPolls(batchId, itemId, polls) {
    return this.#write((cx) => addModelPolls(cx, batchId, itemId, polls));
  }
  modelCredits(batchId) {
    return this.#read((cx) => modelCredits(cx, batchId));
  }
  modelPolls(batchId) {
    return this.#read((cx) => modelPolls(cx, batchId));
  }
  setModelMode(batchId, mode) {
    return this.#write((cx) => setModelMode(cx, batchId, mode));
  }
  // ---- notebook projections
  queryItems(batchId, q = {}) {
    return this.#read((cx) => queryItems(cx, batchId, q));
  }
  itemStats(batchId) {
    return this.#read((cx) => itemStats(cx, batchId));
  }
  batchTotals(batchId) {
    return this.#read((cx) => batchTotals(cx, batchId));
  }
  itemSeconds(batchId) {
    return this.#read((cx) => itemSeconds(cx, batchId));
  }
  runTimes(batchId) {
    return this.#read((cx) => runTimes2(cx, batchId));
  }
  batchDecisions(batchId) {
    return this.#read((cx) => batchDecisions(cx, batchId));
  }
  // ---- web view projections
  itemPage(batchId, q) {
    return this.#read((cx) => itemPage(cx, batchId, q));
  }
  batchLive(batchId, heldLimit) {
    return this.#read((cx) => batchLive(cx, batchId, heldLimit));
  }
  runMinutes(batchId) {
    return this.#read((cx) => runMinutes(cx, batchId));
  }
  // ---- outbox (notifications)
  addOutboxEvent(batchId, event, nowMs) {
    return this.#write((cx) => addEvent(cx, batchId, event, nowMs ?? this.#clock.now()));
  }
  collateHeld(batchId, o, nowMs) {
    return this.#write((cx) => collateHeld(cx, batchId, o, nowMs ?? this.#clock.now()));
  }
  claimOutbox(owner, o, nowMs) {
    return this.#write((cx) => claim2(cx, owner, o, nowMs ?? this.#clock.now()));
  }
  settleOutbox(claim3, outcome, nowMs) {
    return this.#write((cx) => settle(cx, claim3, outcome, nowMs ?? this.#clock.now()));
  }
  outboxState(batchId) {
    return this.#read((cx) => state(cx, batchId));
  }
  holdNotifyCommand(batchId, sender, leaseMs, nowMs) {
    return this.#write((cx) => holdNotifyCommand(cx, batchId, sender, leaseMs, nowMs ?? this.#clock.now()));
  }
  notifyCommands(batchId, nowMs) {
    return this.#read((cx) => notifyCommands(cx, batchId, nowMs ?? this.#clock.now()));
  }
  // ---- web sessions (a use is a read; its last use is written at most once a minute)
  openWebSession(idDigest, nowMs) {
    return this.#write((cx) => openSession(cx, idDigest, nowMs));
  }
  useWebSession(idDigest, idleMs, nowMs) {
    return useSession(this.#cx, idDigest, idleMs, nowMs, { read: (fn) => this.#read(fn), write: (fn) => this.#write(fn) });
  }
  endWebSession(idDigest, nowMs) {
    return this.#write((cx) => endSession(cx, idDigest, nowMs));
  }
  addLoginCode(codeDigest, expiresAtMs, nowMs) {
    return this.#write((cx) => addCode(cx, codeDigest, expiresAtMs, nowMs));
  }
  spendLoginCode(codeDigest, nowMs) {
    return this.#write((cx) => spendCode(cx, codeDigest, nowMs));
  }
  // ---- forecasts
  keepForecast(f) {
    return this.#write((cx) => keepForecast(cx, f));
  }
  lastForecastOf(batch) {
    return this.#read((cx) => lastForecastOf(cx, batch));
  }
  // ---- scores (scores.ts)
  recordVerdicts(batchId, itemId, verdicts) {
    return this.#write((cx) => recordVerdicts(cx, batchId, itemId, verdicts));
  }
  recordVerdictsMany(batchId, items) {
    return this.#write((cx) => recordVerdictsMany(cx, batchId, items));
  }
  verdictsOf(batchId, itemId) {
    return this.#read((cx) => verdictsOf(cx, batchId, itemId));
  }
  scoreTotals(batchId, scorers) {
    return this.#read((cx) => scoreTotals(cx, batchId, scorers));
  }
  itemsToScore(batchId, scorer, q) {
    return this.#read((cx) => itemsToScore(cx, batchId, scorer, q));
  }
  verdictsPage(batchId, q) {
    return this.#read((cx) => verdictsPage(cx, batchId, q));
  }
  scorersJudged(batchId) {
    return this.#read((cx) => scorersJudged(cx, batchId));
  }
};
export {
  SqliteStore
};
//# sourceMappingURL=sqlite-store-U3CNCZQY.mjs.map
