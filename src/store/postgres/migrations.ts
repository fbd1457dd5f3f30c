import { isoNow } from '../../clock.js';
import type pg from 'pg';
import { MIGRATION_LOCK } from './migrations/lock.js';
import { SCHEMA_001 } from './migrations/001-schema.js';
import { ITEM_COUNTS_012 } from './migrations/012-item-counts.js';
import { OUTBOX_017 } from './migrations/017-outbox.js';
import { LEAN_ITEMS_019 } from './migrations/019-lean-items.js';
import { BATCH_NUM_KEYS_020 } from './migrations/020-batch-num-keys.js';
import { CLAIM_WRITES_FLIGHT_030 } from './migrations/030-claim-writes-flight.js';
import { BUDGET_GROUP_032 } from './migrations/032-budget-group.js';

/**
 * One schema change of the PostgreSQL adapter. Shipped migrations are never edited: append a
 * new one, its SQL written as text (never built from live constants), and add its hash to
 * test/store/migration-text.test.ts.
 */
export interface Migration {
  name: string;
  sql: string;
}

/**
 * Every migration in order. The schema mirrors SQLite's (the same columns, JSON kept as
 * text, timestamps as ISO text, leases and heartbeats as ms since the epoch) so both adapters
 * read rows through the same mappings (src/store/rows.ts). `ord` columns give insertion order.
 */
export const migrations: readonly Migration[] = [
  {
    name: '001_schema',
    sql: SCHEMA_001,
  },
  {
    // Who answered a pause: the person's name beside by = 'person' (the web view and `answer --by`).
    name: '007_decision_person',
    sql: 'ALTER TABLE decisions ADD COLUMN person TEXT;',
  },
  {
    // A failure says why: the service's error code and message on the failed run and its item.
    name: '008_error_codes',
    sql: `
      ALTER TABLE items ADD COLUMN error_code TEXT;
      ALTER TABLE runs ADD COLUMN error_code TEXT;
      ALTER TABLE runs ADD COLUMN error TEXT;
    `,
  },
  {
    // Copies of downloaded files on other hosts (`files pull` on a machine that lacks them).
    name: '009_file_copies',
    sql: `
      CREATE TABLE file_copies (
        batch_id TEXT NOT NULL, file_id TEXT NOT NULL, host TEXT NOT NULL, path TEXT NOT NULL,
        bytes BIGINT NOT NULL, sha256 TEXT NOT NULL, copied_at TEXT NOT NULL,
        PRIMARY KEY (batch_id, file_id, host),
        FOREIGN KEY (batch_id, file_id) REFERENCES files(batch_id, id) ON DELETE CASCADE);
    `,
  },
  {
    // The web view's items table sorted by latest change (started items only).
    name: '010_web_items_updated',
    sql: `CREATE INDEX items_updated ON items(batch_id, updated_at, seq) WHERE state <> 'queued';`,
  },
  {
    // The web view's rate: the first and last finish and their count read from an index.
    name: '011_web_items_finished',
    sql: `CREATE INDEX items_finished ON items(batch_id, finished_at) WHERE finished_at IS NOT NULL;`,
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
    name: '012_item_counts',
    sql: ITEM_COUNTS_012,
  },
  {
    // Issue 28: fenced ownership and one decision per paused run (as the SQLite adapter's 014).
    name: '014_fencing',
    sql: `
      ALTER TABLE items ADD COLUMN fence BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE decisions ADD COLUMN respond_key TEXT;
      DELETE FROM decisions d WHERE EXISTS (
        SELECT 1 FROM decisions e WHERE e.batch_id = d.batch_id AND e.run_id = d.run_id AND e.id < d.id);
      CREATE UNIQUE INDEX decisions_run ON decisions(batch_id, run_id);
    `,
  },
  {
    // The start identity of a worker's process (as in the SQLite adapter: see its migration 015).
    name: '015_worker_pid_start',
    sql: 'ALTER TABLE workers ADD COLUMN pid_start TEXT;',
  },
  {
    // Who decided, in a view a lead reads (as the SQLite adapter's decision_log: see its 016).
    name: '016_decision_log_person',
    sql: `
      CREATE VIEW decision_log AS
        SELECT b.name AS batch, d.item_id, d.tool, d.answer, d.by, d.person,
               CASE WHEN d.by = 'person' THEN d.reason ELSE (d.answer::jsonb ->> 'note') END AS note,
               d.cost, CASE WHEN d.by = 'policy' THEN d.reason END AS reason, d.decided_at
        FROM decisions d JOIN batches b ON b.id = d.batch_id;
    `,
  },
  {
    // Issue 31: events for a batch's receivers (as the SQLite adapter's 017: migrations/017-outbox.ts).
    name: '017_outbox',
    sql: OUTBOX_017,
  },
  {
    // Issue 32: an item's life in flight in a narrow table of its own (migrations/019-lean-items.ts).
    name: '019_lean_items',
    sql: LEAN_ITEMS_019,
  },
  {
    // Issue 32: the batch's integer key in every table but batches (its id stays the public
    // one), each index named for its reader, and the approved cost kept running (migrations/020-batch-num-keys.ts).
    name: '020_batch_num_keys',
    sql: BATCH_NUM_KEYS_020,
  },
  {
    // Issue 37: a person's approval that took the batch past its budget, as they confirmed (as the SQLite adapter's 021).
    name: '021_decision_over_budget',
    sql: 'ALTER TABLE decisions ADD COLUMN over_budget BOOLEAN NOT NULL DEFAULT false;',
  },
  {
    // Issue 37.4: a notify command lives only in the process whose command line gave it; the
    // store keeps the fact that a sender with one serves a batch, and a stored command is dropped.
    name: '023_notify_command_local',
    sql: `
      CREATE TABLE notify_commands (
        batch_num BIGINT NOT NULL REFERENCES batches(num) ON DELETE CASCADE,
        owner TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL, until_ms BIGINT NOT NULL,
        PRIMARY KEY (batch_num, owner));
      UPDATE batches SET settings = ((settings::jsonb) #- '{notify,command}')::text WHERE (settings::jsonb) -> 'notify' ? 'command';
    `,
  },
  {
    // Issue 37.6: the identity (device and inode, as decimal text) of a downloaded file as
    // written, so the web view serves only that file; null for files downloaded before.
    name: '024_file_identity',
    sql: 'ALTER TABLE files ADD COLUMN disk_dev TEXT; ALTER TABLE files ADD COLUMN disk_ino TEXT;',
  },
  {
    // Issue 37.5: resq serve's sessions and one-time login codes, by their SHA-256 digests only
    // (never a raw id or code), so a sign-out or an expiry holds across restarts and servers. Times in ms.
    name: '025_web_sessions',
    sql: `
      CREATE TABLE web_sessions (
        id_digest TEXT PRIMARY KEY, created_at BIGINT NOT NULL, last_seen_at BIGINT NOT NULL, ended_at BIGINT);
      -- web-sessions.ts: the sessions long unused, dropped when one opens.
      CREATE INDEX web_sessions_for_purge ON web_sessions(last_seen_at);
      CREATE TABLE web_login_codes (
        code_digest TEXT PRIMARY KEY, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, spent_at BIGINT);
      -- web-sessions.ts: the codes long expired, dropped when one is added.
      CREATE INDEX web_login_codes_for_purge ON web_login_codes(expires_at);
    `,
  },
  {
    // How long a run took: the service's own times when it sends them, else resq's, and NULL
    // for a run that ended while no resq watched (found ended on a resume): in no statistic.
    // Runs recorded before keep resq's own measure.
    name: '026_run_service_times',
    sql: `
      ALTER TABLE runs ADD COLUMN seconds DOUBLE PRECISION;
      ALTER TABLE runs ADD COLUMN unwatched INTEGER NOT NULL DEFAULT 0;
      UPDATE runs SET seconds = greatest(0, round(extract(epoch from (finished_at::timestamptz - created_at::timestamptz))::numeric, 3))::float8
        WHERE finished_at IS NOT NULL;
    `,
  },
  {
    // Issue 38.3: a file is claimed before it is fetched (owner, fencing token, lease end in ms),
    // so workers on any machines fetch each file once. The holder's host, pid and process start
    // identity let a claimer on that host take a dead holder's claim over at once (as items).
    name: '027_file_claims',
    sql: `
      ALTER TABLE files ADD COLUMN claim_owner TEXT;
      ALTER TABLE files ADD COLUMN claim_fence BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE files ADD COLUMN claim_until BIGINT;
      ALTER TABLE files ADD COLUMN claim_host TEXT;
      ALTER TABLE files ADD COLUMN claim_pid INTEGER;
      ALTER TABLE files ADD COLUMN claim_pid_start TEXT;
    `,
  },
  {
    // Issue 38.5: every forecast resq forecast made, so the next says how far off the last one of a batch was.
    name: '028_forecasts',
    sql: `
      CREATE TABLE forecasts (
        seq BIGSERIAL PRIMARY KEY, made_at TEXT NOT NULL, file_path TEXT NOT NULL, file_sha256 TEXT NOT NULL,
        for_batch_id TEXT, learned_from TEXT NOT NULL, questions INTEGER NOT NULL,
        cost_estimate DOUBLE PRECISION, cost_low DOUBLE PRECISION, cost_high DOUBLE PRECISION,
        held_estimate DOUBLE PRECISION, held_low DOUBLE PRECISION, held_high DOUBLE PRECISION);
      -- forecasts.ts: the last forecast of a batch, by the batch or by its file's content.
      CREATE INDEX forecasts_for_batch ON forecasts(for_batch_id, made_at);
      CREATE INDEX forecasts_by_file ON forecasts(file_sha256, made_at);
    `,
  },
  {
    // Issue 40.1-2: an item's expected answer (JSON text, apart from meta), and each scorer's
    // verdict per item and scorer version (pass 1, 0 or NULL: unscored). The item is keyed by its
    // seq (unique in its batch, never changed), so a batch's verdicts are written and read in key order.
    name: '029_expected_and_verdicts',
    sql: `
      ALTER TABLE items ADD COLUMN expected TEXT;
      CREATE TABLE verdicts (
        batch_num BIGINT NOT NULL REFERENCES batches(num) ON DELETE CASCADE,
        seq INTEGER NOT NULL, item_id TEXT NOT NULL, scorer TEXT NOT NULL, version TEXT NOT NULL,
        pass INTEGER, score DOUBLE PRECISION, reason TEXT NOT NULL, scored_at TEXT NOT NULL, by TEXT NOT NULL,
        PRIMARY KEY (batch_num, seq, scorer, version));
      -- scores.ts: each scorer's counts (totals).
      CREATE INDEX verdicts_for_totals ON verdicts(batch_num, scorer, version, pass);
    `,
  },
  {
    // Issue 39.5: a claim writes the item's flight alone (see migrations/030-claim-writes-flight.ts).
    name: '030_claim_writes_flight',
    sql: CLAIM_WRITES_FLIGHT_030,
  },
  {
    // Issue 40.4: a batch may spend with another's budget, an agent judge's with the batch it judges (see migrations/032-budget-group.ts).
    name: '032_budget_group',
    sql: BUDGET_GROUP_032,
  },
];

/**
 * Runs `fn` in one transaction holding the migration lock (an advisory lock for the
 * transaction only: behind a transaction pooler the next statement may run on another server
 * connection, where a session's lock could neither be seen nor released).
 */
async function underLock<T>(client: pg.ClientBase, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const out = await fn();
    await client.query('COMMIT');
    return out;
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  }
}

/**
 * Applies every migration not yet recorded, each in a transaction of its own under the
 * migration lock, skipped when another process applied it meanwhile. Returns the names this
 * call applied. `onUpgrade` is told the names first when the database is one an older resq
 * made (not a new one).
 */
export async function migrate(client: pg.ClientBase, list: readonly Migration[] = migrations, onUpgrade?: (names: string[]) => void): Promise<string[]> {
  const done = await underLock(client, async () => {
    await client.query('CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
    return new Set((await client.query<{ name: string }>('SELECT name FROM _migrations')).rows.map((r) => r.name));
  });
  const pending = list.filter((m) => !done.has(m.name));
  if (done.size > 0 && pending.length > 0) onUpgrade?.(pending.map((m) => m.name));
  const applied: string[] = [];
  for (const m of pending) {
    const ran = await underLock(client, async () => {
      if ((await client.query('SELECT 1 FROM _migrations WHERE name = $1', [m.name])).rowCount) return false;
      await client.query(m.sql);
      await client.query('INSERT INTO _migrations (name, applied_at) VALUES ($1, $2)', [m.name, isoNow()]);
      return true;
    });
    if (ran) applied.push(m.name);
  }
  return applied;
}
