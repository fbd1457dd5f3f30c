import { isoNow } from '../../clock.js';
import type pg from 'pg';
import { PG_OUTBOX, pgOutboxItemMoved } from '../outbox-schema.js';
import { PG_BATCH_NUM_KEYS } from './batch-num-keys.js';


/** One schema change of the PostgreSQL adapter. Shipped migrations are never edited: append a new one. */
export interface PgMigration {
  name: string;
  sql: string;
}

/**
 * Every migration in order. The schema mirrors SQLite's (the same columns, JSON kept as
 * text, timestamps as ISO text, leases and heartbeats as ms since the epoch) so both adapters
 * read rows through the same mappings (src/store/rows.ts). `ord` columns give insertion order.
 */
export const pgMigrations: readonly PgMigration[] = [
  {
    name: '001_schema',
    sql: `
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
    `,
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
    sql: `
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
    `,
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
  },  {
    // Issue 31: events for a batch's receivers (as the SQLite adapter's 017: outbox-schema.ts).
    name: '017_outbox',
    sql: PG_OUTBOX,
  },
  {
    // Issue 32: an item's life in flight in a narrow table of its own. The item's row is written
    // when it is queued, claimed, held and ended; every step between goes to its `flights` row
    // (integer keyed, two indexes), where the fencing token and the lease live while a worker
    // carries it. Batches and items gain integer keys (the text ids stay the public ones). The
    // items in flight now (any worker's, a crashed one's included) move to `flights` as they are.
    // The indexes only the in-flight life read leave the items table; the others are renamed
    // for the query that reads them. The counts' triggers (012) stay on the items table, which
    // is now written on those few changes only (an item in flight has the mark 'flight' on its
    // row, as in the SQLite adapter); the states in flight are counted from `flights`.
    name: '019_lean_items',
    sql: `
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
      ${pgOutboxItemMoved('batch_num = NEW.batch_num')}
    `,
  },
  {
    // Issue 32: the batch's integer key in every table but batches (its id stays the public
    // one), each index named for its reader, and the approved cost kept running (batch-num-keys.ts).
    name: '020_batch_num_keys',
    sql: PG_BATCH_NUM_KEYS,
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
];

/** Key of the advisory lock that serialises migrations: workers starting together migrate once. */
export const MIGRATION_LOCK = 7_431_902_118;

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
export async function migratePg(client: pg.ClientBase, list: readonly PgMigration[] = pgMigrations, onUpgrade?: (names: string[]) => void): Promise<string[]> {
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
