import { type Clock, isoNow, systemClock } from '../../clock.js';
import type { Database } from 'better-sqlite3';
import { BATCHES_ITEMS_RUNS_001 } from './migrations/001-batches-items-runs.js';
import { MODEL_RUNS_004 } from './migrations/004-model-runs.js';
import { ITEM_COUNTS_012 } from './migrations/012-item-counts.js';
import { OUTBOX_017 } from './migrations/017-outbox.js';
import { leanItems } from './migrations/019-lean-items.js';
import { batchNumKeys } from './migrations/020-batch-num-keys.js';
import { CLAIM_WRITES_FLIGHT_030 } from './migrations/030-claim-writes-flight.js';
import { FLIGHTS_UNSENT_031 } from './migrations/031-flights-unsent.js';
import { BUDGET_GROUP_032 } from './migrations/032-budget-group.js';
import { STATE_TRIGGER_033 } from './migrations/033-state-trigger.js';

/**
 * One schema change. Shipped migrations are never edited: append a new one, its SQL written as
 * text (never built from live constants), and add its hash to test/store/migration-text.test.ts.
 */
export interface Migration {
  /** Unique, ordered name recorded in `_migrations` once applied. */
  name: string;
  up: (db: Database) => void;
}

/** Every migration in the order it applies. Append only. */
export const migrations: readonly Migration[] = [
  {
    name: '001_batches_items_runs',
    up: (db) => db.exec(BATCHES_ITEMS_RUNS_001),
  },
  {
    name: '002_views',
    up: (db) =>
      db.exec(`
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
      `),
  },
  {
    // Direct model runs: one row per input row of a `models` batch, beside its item.
    name: '004_model_runs',
    up: (db) => db.exec(MODEL_RUNS_004),
  },
  {
    // Loading a batch adds every item as queued: leaving queued items out of the state
    // index spares one b-tree insert per row (1M rows: about 1 s). Queued items are found
    // through items_seq in file order; counts take them as the rest of the batch.
    name: '005_state_index_without_queued',
    up: (db) =>
      db.exec(`
        DROP INDEX items_state;
        CREATE INDEX items_state ON items(batch_id, state, seq) WHERE state <> 'queued';
      `),
  },
  {
    // Several processes on one batch: workers with heartbeats, a lease on each claimed item,
    // a cancel mark and an adaptive cap on the batch, the attempt of a retried item, the
    // host holding a file.
    name: '006_workers_leases',
    up: (db) =>
      db.exec(`
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
      `),
  },
  {
    // Who answered a pause: the person's name beside `by = 'person'` (the web view and `answer --by`).
    name: '007_decision_person',
    up: (db) => db.exec('ALTER TABLE decisions ADD COLUMN person TEXT;'),
  },
  {
    // A failure says why: the service's error code and message on the failed run and its
    // item (the item's `error` keeps the message; `error_code` is new).
    name: '008_error_codes',
    up: (db) =>
      db.exec(`
        ALTER TABLE items ADD COLUMN error_code TEXT;
        ALTER TABLE runs ADD COLUMN error_code TEXT;
        ALTER TABLE runs ADD COLUMN error TEXT;
      `),
  },
  {
    // Copies of downloaded files on other hosts (`files pull` on a machine that lacks them).
    name: '009_file_copies',
    up: (db) =>
      db.exec(`
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
      `),
  },
  {
    // The web view's items table sorted by latest change (started items only, like items_state:
    // loading a batch adds no entry to it).
    name: '010_web_items_updated',
    up: (db) => db.exec(`CREATE INDEX items_updated ON items(batch_id, updated_at, seq) WHERE state <> 'queued';`),
  },
  {
    // The web view's rate: the first and last finish and their count read from an index, not
    // a scan of the batch (a 1,000,000-item batch's overview read every row).
    name: '011_web_items_finished',
    up: (db) => db.exec(`CREATE INDEX items_finished ON items(batch_id, finished_at) WHERE finished_at IS NOT NULL;`),
  },
  {
    // Counts by state kept beside the items (issue 22): the overview of a 1,000,000-item batch
    // read every entry of an index to count them (169 ms). Triggers keep one row per (batch,
    // state) exact on every insert, delete and change of state, whichever path makes it;
    // the rows are filled from the items already here. One writer at a time (SQLite), so one
    // row per state is no hot spot.
    name: '012_item_counts',
    up: (db) => db.exec(ITEM_COUNTS_012),
  },
  {
    // Issue 23: each run wrote and removed an entry of items_owner (claimed, then ended) for
    // the few reads by owner (a heartbeat, a retirement, a worker's count), which items_active
    // serves: only items with work at the service have an owner.
    name: '013_drop_items_owner',
    up: (db) => db.exec('DROP INDEX items_owner;'),
  },
  {
    // Issue 28: fenced ownership and one decision per paused run. Each claim of an item gives
    // it a fencing token one higher (items.fence); every write of a driver is conditioned on
    // its owner and that token. A paused run is decided once (decisions_run): a second attempt
    // records nothing and takes the first. A database where a stalled worker recorded a second
    // decision for one run keeps the first of them (the lowest id: the one the budget counted
    // first), so the cost of one pause is counted once from now on. The respond's key is kept
    // with the decision that it carries.
    name: '014_fencing',
    up: (db) =>
      db.exec(`
        ALTER TABLE items ADD COLUMN fence INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE decisions ADD COLUMN respond_key TEXT;
        DELETE FROM decisions WHERE id NOT IN (SELECT min(id) FROM decisions GROUP BY batch_id, run_id);
        CREATE UNIQUE INDEX decisions_run ON decisions(batch_id, run_id);
      `),
  },
  {
    // Issue 28.5: the start identity of a worker's process (boot id and start time on Linux),
    // so a worker of this host whose pid is gone, or reused after a reboot or by another
    // program, is known dead at once. Null: an older worker, or a host that does not tell.
    name: '015_worker_pid_start',
    up: (db) => db.exec('ALTER TABLE workers ADD COLUMN pid_start TEXT;'),
  },
  {
    // Who decided, in the view a lead reads: the person's name and their note in columns of
    // their own (a person's note is stored as the decision's reason; a policy's reason is its rule).
    name: '016_decision_log_person',
    up: (db) =>
      db.exec(`
        DROP VIEW decision_log;
        CREATE VIEW decision_log AS
          SELECT b.name AS batch, d.item_id, d.tool, d.answer, d.by, d.person,
                 CASE WHEN d.by = 'person' THEN d.reason ELSE json_extract(d.answer, '$.note') END AS note,
                 d.cost, CASE WHEN d.by = 'policy' THEN d.reason END AS reason, d.decided_at
          FROM decisions d JOIN batches b ON b.id = d.batch_id;
      `),
  },
  {
    // Issue 31: events for a batch's receivers, written by the change that causes them (migrations/017-outbox.ts).
    name: '017_outbox',
    up: (db) => db.exec(OUTBOX_017),
  },
  {
    // Issue 32: an item's life in flight in its own narrow table (flights, keyed by the item's
    // integer key), batches and items with integer keys; items in flight moved (see migrations/019-lean-items.ts).
    name: '019_lean_items',
    up: leanItems,
  },
  {
    // Issue 32: every table names its batch by the integer batch_num (batch_id dropped but from
    // batches, the public id); the approved cost kept running in batch_spend (see migrations/020-batch-num-keys.ts).
    name: '020_batch_num_keys',
    up: batchNumKeys,
  },
  {
    // Issue 37: a person's approval that took the batch past its budget, as they confirmed, says so.
    name: '021_decision_over_budget',
    up: (db) => db.exec('ALTER TABLE decisions ADD COLUMN over_budget INTEGER NOT NULL DEFAULT 0;'),
  },
  {
    // Issue 37.4: nothing the database holds runs as a program. A notify command lives only in
    // the process whose command line gave it; the store keeps the fact that a sender with one
    // serves a batch (renewed while it runs), and a command an older resq stored is dropped.
    name: '023_notify_command_local',
    up: (db) =>
      db.exec(`
        CREATE TABLE notify_commands (
          batch_num INTEGER NOT NULL REFERENCES batches(num) ON DELETE CASCADE,
          owner TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL, until_ms INTEGER NOT NULL,
          PRIMARY KEY (batch_num, owner));
        UPDATE batches SET settings = json_remove(settings, '$.notify.command') WHERE json_type(settings, '$.notify.command') IS NOT NULL;
      `),
  },
  {
    // Issue 37.6: the identity (device and inode, as decimal text) of a downloaded file as
    // written, so the web view serves only that file; null for files downloaded before.
    name: '024_file_identity',
    up: (db) => db.exec('ALTER TABLE files ADD COLUMN disk_dev TEXT; ALTER TABLE files ADD COLUMN disk_ino TEXT;'),
  },
  {
    // Issue 37.5: resq serve's sessions and one-time login codes, by their SHA-256 digests only
    // (never a raw id or code), so a sign-out or an expiry holds across restarts and servers. Times in ms.
    name: '025_web_sessions',
    up: (db) =>
      db.exec(`
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
      `),
  },
  {
    // How long a run took: the service's own times when it sends them, else resq's, and NULL
    // for a run that ended while no resq watched (found ended on a resume): in no statistic.
    // Runs recorded before keep resq's own measure.
    name: '026_run_service_times',
    up: (db) =>
      db.exec(`
        ALTER TABLE runs ADD COLUMN seconds REAL;
        ALTER TABLE runs ADD COLUMN unwatched INTEGER NOT NULL DEFAULT 0;
        UPDATE runs SET seconds = max(0, round((julianday(finished_at) - julianday(created_at)) * 86400, 3)) WHERE finished_at IS NOT NULL;
      `),
  },
  {
    // Issue 38.3: a file is claimed before it is fetched (owner, fencing token, lease end in ms),
    // so workers on any machines fetch each file once. The holder's host, pid and process start
    // identity let a claimer on that host take a dead holder's claim over at once (as items).
    name: '027_file_claims',
    up: (db) =>
      db.exec(`
        ALTER TABLE files ADD COLUMN claim_owner TEXT;
        ALTER TABLE files ADD COLUMN claim_fence INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE files ADD COLUMN claim_until INTEGER;
        ALTER TABLE files ADD COLUMN claim_host TEXT;
        ALTER TABLE files ADD COLUMN claim_pid INTEGER;
        ALTER TABLE files ADD COLUMN claim_pid_start TEXT;
      `),
  },
  {
    // Issue 38.5: every forecast resq forecast made, so the next says how far off the last one of a batch was.
    name: '028_forecasts',
    up: (db) =>
      db.exec(`
        CREATE TABLE forecasts (
          seq INTEGER PRIMARY KEY AUTOINCREMENT, made_at TEXT NOT NULL, file_path TEXT NOT NULL, file_sha256 TEXT NOT NULL,
          for_batch_id TEXT, learned_from TEXT NOT NULL, questions INTEGER NOT NULL,
          cost_estimate REAL, cost_low REAL, cost_high REAL, held_estimate REAL, held_low REAL, held_high REAL);
        -- forecasts.ts: the last forecast of a batch, by the batch or by its file's content.
        CREATE INDEX forecasts_for_batch ON forecasts(for_batch_id, made_at);
        CREATE INDEX forecasts_by_file ON forecasts(file_sha256, made_at);
      `),
  },
  {
    // Issue 40.1-2: an item's expected answer (JSON text, apart from meta), and each scorer's
    // verdict per item and scorer version (pass 1, 0 or NULL: unscored). The item is keyed by its
    // seq (unique in its batch, never changed), so a batch's verdicts are written and read in key order.
    name: '029_expected_and_verdicts',
    up: (db) =>
      db.exec(`
        ALTER TABLE items ADD COLUMN expected TEXT;
        CREATE TABLE verdicts (
          batch_num INTEGER NOT NULL REFERENCES batches(num) ON DELETE CASCADE,
          seq INTEGER NOT NULL, item_id TEXT NOT NULL, scorer TEXT NOT NULL, version TEXT NOT NULL,
          pass INTEGER, score REAL, reason TEXT NOT NULL, scored_at TEXT NOT NULL, by TEXT NOT NULL,
          PRIMARY KEY (batch_num, seq, scorer, version)
        ) WITHOUT ROWID;
        -- scores.ts: each scorer's counts (totals).
        CREATE INDEX verdicts_for_totals ON verdicts(batch_num, scorer, version, pass);
      `),
  },
  {
    // Issue 39.5: a claim writes the item's flight alone (see migrations/030-claim-writes-flight.ts).
    name: '030_claim_writes_flight',
    up: (db) => db.exec(CLAIM_WRITES_FLIGHT_030),
  },
  {
    // Issue 39.5: the flights' one index is the few answered items no worker sent yet (see migrations/031-flights-unsent.ts).
    name: '031_flights_unsent',
    up: (db) => db.exec(FLIGHTS_UNSENT_031),
  },
  {
    // Issue 40.4: a batch may spend with another's budget, an agent judge's with the batch it judges (see migrations/032-budget-group.ts).
    name: '032_budget_group',
    up: (db) => db.exec(BUDGET_GROUP_032),
  },
  {
    // Issue 39.6: an item's change of state is one trigger; whether its batch finished is looked at once per write transaction (see migrations/033-state-trigger.ts).
    name: '033_state_trigger',
    up: (db) => db.exec(STATE_TRIGGER_033),
  },
];

/**
 * Applies every migration not yet recorded, under one exclusive lock: processes opening a
 * fresh file together wait for each other (busy timeout), and the one that comes second
 * finds the work done. Returns the names applied.
 */
export function migrate(db: Database, list: readonly Migration[] = migrations, clock: Clock = systemClock): string[] {
  const applied: string[] = [];
  // A migration that rebuilds a table (019) drops the old one: with foreign keys on, that drop
  // would delete the rows that reference it (ON DELETE CASCADE). Off for the migration (it can
  // only change outside a transaction) and put back after; the rebuild keeps every key.
  const fk = db.pragma('foreign_keys', { simple: true }) as number;
  if (fk) db.pragma('foreign_keys = OFF');
  try {
    return migrateLocked(db, list, applied, clock);
  } finally {
    if (fk) db.pragma('foreign_keys = ON');
  }
}

function migrateLocked(db: Database, list: readonly Migration[], applied: string[], clock: Clock): string[] {
  db.exec('BEGIN EXCLUSIVE');
  try {
    db.exec('CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
    const done = new Set(db.prepare('SELECT name FROM _migrations').pluck().all() as string[]);
    for (const m of list) {
      if (done.has(m.name)) continue;
      m.up(db);
      db.prepare('INSERT INTO _migrations (name, applied_at) VALUES (?, ?)').run(m.name, isoNow(clock));
      applied.push(m.name);
    }
    db.exec('COMMIT');
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
  return applied;
}
