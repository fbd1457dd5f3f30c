import type { Database } from 'better-sqlite3';
import { OUTBOX_INDEXES_020, OUTBOX_TABLE_020, OUTBOX_TRIGGERS_020 } from './020-outbox.js';
import { ITEM_COLUMNS_019, READER_INDEXES } from './019-lean-items.js';

/**
 * Migration 020 (issue 32): the batch's integer key in every table. As shipped: its SQL is text
 * written here and in 019-lean-items.ts / 020-outbox.ts (never built from live code);
 * test/store/migration-text.test.ts pins the hash of what it runs.
 *
 * Every table that named its batch by the 36-character `batch_id` names it by `batch_num`
 * (batches.num, 019) instead, the `batch_id` column gone: `batches.id` stays the public id, and
 * the adapter resolves it to its num in SQL (`(SELECT num FROM batches WHERE id = ?)`). Each
 * table is rebuilt (the SQLite way: new table, copy joined to batches for the num, drop, rename),
 * its rowid kept where readers order by it; `batch_num REFERENCES batches(num) ON DELETE
 * CASCADE`, children by (batch_num, item_id) → items(batch_num, id). The indexes are made anew
 * on batch_num, each named for its reader; the triggers and views too.
 *
 * `batch_spend` keeps each batch's approved cost (the budget check at every pause read the sum
 * of its decisions), kept by triggers on decisions and filled here from the decisions there are.
 *
 * Runs with foreign keys off (see migrate): dropping an old table would delete what references it.
 */
export function batchNumKeys(db: Database): void {
  // Every trigger and view goes first (a rename fails on one naming a column that is gone); ours are made anew at the end.
  for (const t of db.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view')").all() as { type: string; name: string }[]) {
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

interface Rebuilt {
  name: string;
  /** The new table's body (the text between the parentheses of CREATE TABLE). */
  body: string;
  /** What follows the closing parenthesis (WITHOUT ROWID). */
  tail?: string;
  /** A rowid table whose readers order by rowid (or whose rowid is its key): its rowids are kept. */
  keepRowid: boolean;
}

const BATCH = 'batch_num INTEGER NOT NULL REFERENCES batches(num) ON DELETE CASCADE';
const OF_ITEM = 'FOREIGN KEY (batch_num, item_id) REFERENCES items(batch_num, id) ON DELETE CASCADE';

/** The tables that carried `batch_id`, in an order where a parent is rebuilt before its children. */
const TABLES: readonly Rebuilt[] = [
  {
    name: 'items',
    keepRowid: true,
    body: `key INTEGER PRIMARY KEY, ${BATCH},
      id TEXT NOT NULL, seq INTEGER NOT NULL, line INTEGER NOT NULL, question TEXT NOT NULL, thread_key TEXT,
      meta TEXT NOT NULL DEFAULT '{}', state TEXT NOT NULL DEFAULT 'queued', step INTEGER NOT NULL DEFAULT 0,
      pending_key TEXT, pending_answer TEXT, run_id TEXT, thread_id TEXT, run_status TEXT, text TEXT, error TEXT,
      hold_reason TEXT, started_at TEXT, finished_at TEXT, updated_at TEXT NOT NULL, owner TEXT, lease_until INTEGER,
      attempt INTEGER NOT NULL DEFAULT 0, error_code TEXT, fence INTEGER NOT NULL DEFAULT 0,
      UNIQUE (batch_num, id)`,
  },
  {
    name: 'threads',
    keepRowid: true,
    body: `${BATCH}, thread_key TEXT NOT NULL, thread_id TEXT NOT NULL, PRIMARY KEY (batch_num, thread_key)`,
  },
  {
    name: 'runs',
    keepRowid: true,
    body: `id TEXT PRIMARY KEY, ${BATCH}, item_id TEXT NOT NULL, step INTEGER NOT NULL,
      parent_run_id TEXT REFERENCES runs(id), idempotency_key TEXT NOT NULL, status TEXT NOT NULL, thread_id TEXT,
      required_action TEXT, output TEXT, created_at TEXT NOT NULL, finished_at TEXT, error_code TEXT, error TEXT,
      ${OF_ITEM}`,
  },
  {
    name: 'decisions',
    keepRowid: false,
    body: `id INTEGER PRIMARY KEY, ${BATCH}, item_id TEXT NOT NULL, run_id TEXT NOT NULL, tool TEXT NOT NULL,
      input TEXT NOT NULL, answer TEXT NOT NULL, by TEXT NOT NULL CHECK (by IN ('policy', 'person')), reason TEXT,
      cost REAL NOT NULL DEFAULT 0, decided_at TEXT NOT NULL, person TEXT, respond_key TEXT,
      ${OF_ITEM}`,
  },
  {
    name: 'files',
    keepRowid: true,
    body: `${BATCH}, id TEXT NOT NULL, item_id TEXT NOT NULL, run_id TEXT NOT NULL, tool TEXT, role TEXT, name TEXT,
      url TEXT NOT NULL, media_type TEXT, first_seen_at TEXT NOT NULL, expires_at TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending', path TEXT, bytes INTEGER, sha256 TEXT, error TEXT, host TEXT,
      PRIMARY KEY (batch_num, id),
      ${OF_ITEM}`,
  },
  {
    name: 'file_copies',
    keepRowid: true,
    body: `${BATCH}, file_id TEXT NOT NULL, host TEXT NOT NULL, path TEXT NOT NULL, bytes INTEGER NOT NULL,
      sha256 TEXT NOT NULL, copied_at TEXT NOT NULL,
      PRIMARY KEY (batch_num, file_id, host),
      FOREIGN KEY (batch_num, file_id) REFERENCES files(batch_num, id) ON DELETE CASCADE`,
  },
  {
    name: 'model_batches',
    keepRowid: false,
    body: `batch_num INTEGER PRIMARY KEY REFERENCES batches(num) ON DELETE CASCADE, model_id TEXT NOT NULL, mode TEXT,
      description TEXT NOT NULL`,
  },
  {
    name: 'model_runs',
    keepRowid: true,
    body: `${BATCH}, item_id TEXT NOT NULL, model_id TEXT NOT NULL, inputs TEXT NOT NULL, mode TEXT, idempotency_key TEXT,
      submits INTEGER NOT NULL DEFAULT 0, model_run_id TEXT, http_status INTEGER, status TEXT, poll_url TEXT, outputs TEXT,
      error TEXT, credits REAL, polls INTEGER NOT NULL DEFAULT 0, submitted_at TEXT, admitted_at TEXT, finished_at TEXT,
      PRIMARY KEY (batch_num, item_id),
      ${OF_ITEM}`,
  },
  {
    name: 'workers',
    keepRowid: true,
    body: `id TEXT PRIMARY KEY, ${BATCH}, host TEXT NOT NULL, pid INTEGER NOT NULL, started_at TEXT NOT NULL,
      heartbeat_at INTEGER NOT NULL, stopped_at TEXT, pid_start TEXT`,
  },
  {
    name: 'item_counts',
    keepRowid: false,
    body: `${BATCH}, state TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (batch_num, state)`,
    tail: ' WITHOUT ROWID',
  },
  { name: 'outbox', keepRowid: false, body: OUTBOX_TABLE_020 },
];

/** Rebuilds one table on batch_num: every row copied with its batch's num, the old table (and its indexes) dropped. */
function rebuild(db: Database, t: Rebuilt): void {
  const fresh = `${t.name}_020`;
  db.exec(`CREATE TABLE ${fresh} (${t.body})${t.tail ?? ''}`);
  const cols = (db.prepare(`SELECT name FROM pragma_table_info('${fresh}')`).pluck().all() as string[]).filter((c) => c !== 'batch_num');
  const rowid = t.keepRowid && !cols.includes('key') ? 'rowid, ' : '';
  // An AUTOINCREMENT table's high mark (outbox) is kept: an id once given is never given again.
  const high = hasSequence(db) ? (db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().get(t.name) as number | undefined) : undefined;
  db.exec(`INSERT INTO ${fresh} (${rowid}batch_num, ${cols.map((c) => `"${c}"`).join(', ')})
    SELECT ${rowid ? 'o.rowid, ' : ''}b.num, ${cols.map((c) => `o."${c}"`).join(', ')} FROM ${t.name} o JOIN batches b ON b.id = o.batch_id`);
  db.exec(`DROP TABLE ${t.name}`);
  db.exec(`ALTER TABLE ${fresh} RENAME TO ${t.name}`);
  if (high !== undefined) {
    db.prepare('INSERT INTO sqlite_sequence (name, seq) SELECT ?, 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)').run(t.name, t.name);
    db.prepare('UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?').run(high, t.name);
  }
}

function hasSequence(db: Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get() !== undefined;
}

/**
 * The indexes on batch_num, each named for its reader (besides the tables' keys: items (batch_num,
 * id), threads, files, file_copies, model_runs, item_counts, batch_spend).
 */
const INDEXES: readonly string[] = [
  // The items readers' indexes of 019 (dropped with the old table), as they were but items_for_rate.
  ...READER_INDEXES.filter((sql) => !sql.includes(' items_for_rate ')),
  // Read by: reads.ts recentFinishes, the latest ends (ORDER BY finished_at DESC, seq DESC: the
  // index gives that order, where 019's sorted every end of the batch sharing the latest time —
  // a 1,000,000-item batch set in one statement: 325 ms a read); item-pages.ts, the first and last finish.
  'CREATE INDEX items_for_rate ON items(batch_num, finished_at, seq) WHERE finished_at IS NOT NULL',
  // Read by: runs.ts chain (an item's runs), aggregates.ts (an item's runs in an export),
  // summaries.ts (the runs of a batch by item, their count), reads.ts recentFinishes, item-pages.ts activity.
  'CREATE INDEX runs_for_item ON runs(batch_num, item_id, step)',
  // Read by: decisions.ts forRun and the insert's ON CONFLICT: one decision per paused run.
  'CREATE UNIQUE INDEX decisions_for_run ON decisions(batch_num, run_id)',
  // Read by: decisions.ts forItem, aggregates.ts (an item's decisions), summaries.ts (decisions by item, their count).
  'CREATE INDEX decisions_for_item ON decisions(batch_num, item_id)',
  // Read by: files.ts, a batch's files by status (list, counts, bytes on disk, the next expiry, the expired).
  'CREATE INDEX files_for_status ON files(batch_num, status)',
  // Read by: claims.ts live, the batch's workers with a recent heartbeat.
  'CREATE INDEX workers_for_live ON workers(batch_num, heartbeat_at)',
  ...OUTBOX_INDEXES_020,
];

/** Migration 012's counts by state, by batch_num. */
const TRIGGERS = `
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

/** The views of 002, 004, 016 and 019, joined to their batch by its num. */
const ITEM = `(SELECT i.batch_num, ${ITEM_COLUMNS_019} FROM items i LEFT JOIN flights f ON f.item_key = i.key)`;
const VIEWS = `
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
