import type { Database } from 'better-sqlite3';

/**
 * Migration 019 (issue 32): the lean store. As shipped: its SQL is text written here (never built
 * from live code, such as the flight's columns of today); test/store/migration-text.test.ts pins
 * the hash of what it runs.
 *
 * - `batches.num`: an integer key beside the public UUID (the rowid it had), given to new
 *   batches on insert; flights name their batch by it.
 * - `items` rebuilt with `key INTEGER PRIMARY KEY` (its rowid, now stable: VACUUM may renumber
 *   the rowids of a table without one) and `batch_num` (its batch's `num`, set on every insert):
 *   the readers' indexes are keyed by it, not by the 36-character `batch_id`. (batch_id, id)
 *   stays unique, so the tables that reference an item by it are untouched. The rebuild copies
 *   every column the table has (whatever migrations added), its triggers, the views over it and
 *   its indexes but items_active (flights replace it) and the readers' (made anew on batch_num).
 * - `flights`: an item's life in flight, one row per item a worker carries (see
 *   src/store/common/flights.ts). Items in flight (submitting, running,
 *   waiting; a models batch's rows as well) move there with their owner, token, lease, key,
 *   run and step; their row takes the mark.
 *
 * Runs with foreign keys off (see migrate): dropping the old table would delete what
 * references it.
 */
export function leanItems(db: Database): void {
  db.exec(`
    ALTER TABLE batches ADD COLUMN num INTEGER;
    UPDATE batches SET num = rowid;
    -- Read by: the adapter's id → num map (batches.ts), once per batch and process.
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

/**
 * The items indexes, each named for the query that reads them (as the PostgreSQL adapter's 019
 * names its own) and keyed by the batch's integer `batch_num` (an entry some 35 bytes shorter
 * than one led by the 36-character id). They replace the old ones of the same use (listed by
 * their names before 019), which are dropped with the old table.
 */
export const READER_INDEXES: readonly string[] = [
  // Read by: claims.ts, the next queued items in file order (and one seq per item); batch-append.ts, the next seq.
  'CREATE UNIQUE INDEX items_for_claim ON items(batch_num, seq)',
  // Read by: reads.ts, item-pages.ts and aggregates.ts, the items of some states in file order;
  // claims.ts, the items of some states to resume, and a thread's unfinished items.
  "CREATE INDEX items_for_state_pages ON items(batch_num, state, seq) WHERE state <> 'queued'",
  // Read by: claims.ts through reads.ts, a thread's next item and its unfinished earlier ones.
  'CREATE INDEX items_for_thread_claim ON items(batch_num, thread_key, seq) WHERE thread_key IS NOT NULL',
  // Read by: item-pages.ts, a page sorted by latest change; outbox.ts, the batch's latest change.
  "CREATE INDEX items_for_web_sort ON items(batch_num, updated_at, seq) WHERE state <> 'queued'",
  // Read by: item-pages.ts, the first and last finish; reads.ts, the latest finishes (rate and ETA).
  'CREATE INDEX items_for_rate ON items(batch_num, finished_at) WHERE finished_at IS NOT NULL',
];

/** The indexes the reader indexes replace (their names before 019). */
const REPLACED = new Set(['items_seq', 'items_state', 'items_thread', 'items_updated', 'items_finished', 'items_active']);

/** Rebuilds `items` with `key INTEGER PRIMARY KEY` (the SQLite way: new table, copy, drop, rename). */
function rebuildItems(db: Database): void {
  const schema = (type: string): { name: string; sql: string }[] =>
    db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = ? AND tbl_name = 'items' AND sql IS NOT NULL`).all(type) as { name: string; sql: string }[];
  const table = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'items'").pluck().get() as string);
  const indexes = schema('index').filter((i) => !REPLACED.has(i.name));
  const triggers = schema('trigger');
  // Every view is put back as it was (a view over items would stop the rename), then ours are redone.
  const allViews = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'view'").all() as { name: string; sql: string }[];
  for (const v of allViews) db.exec(`DROP VIEW "${v.name}"`);
  const cols = (db.prepare("SELECT name FROM pragma_table_info('items')").pluck().all() as string[]).map((c) => `"${c}"`).join(', ');
  const created = table
    .replace(/^CREATE TABLE\s+"?items"?\s*\(/i, 'CREATE TABLE items_new (key INTEGER PRIMARY KEY, batch_num INTEGER NOT NULL, ')
    .replace(/PRIMARY KEY\s*\(\s*batch_id\s*,\s*id\s*\)/i, 'UNIQUE (batch_id, id)');
  if (!created.startsWith('CREATE TABLE items_new') || !created.includes('UNIQUE (batch_id, id)')) throw new Error('019_lean_items: the items table is not the one expected');
  db.exec(created);
  db.exec(`INSERT INTO items_new (key, batch_num, ${cols})
    SELECT rowid, (SELECT num FROM batches b WHERE b.id = items.batch_id), ${cols} FROM items ORDER BY rowid`);
  db.exec('DROP TABLE items');
  db.exec('ALTER TABLE items_new RENAME TO items');
  for (const i of indexes) db.exec(i.sql);
  for (const sql of READER_INDEXES) db.exec(sql);
  for (const t of triggers) db.exec(t.sql);
  for (const v of allViews) db.exec(v.sql);
}

/**
 * The select list of an item as 019 and 020 lay its flight (`f`) over its row (`i`), column for
 * column, under the items column names (the batch's column is the caller's).
 */
export const ITEM_COLUMNS_019 =
  'i.id, i.seq, i.line, i.question, i.thread_key, i.meta, i.error, i.error_code, i.hold_reason, i.started_at, i.finished_at, i.attempt, ' +
  'CASE WHEN f.item_key IS NULL THEN i.state ELSE f.state END AS state, ' +
  'CASE WHEN f.item_key IS NULL THEN i.step ELSE f.step END AS step, ' +
  'CASE WHEN f.item_key IS NULL THEN i.pending_key ELSE f.pending_key END AS pending_key, ' +
  'CASE WHEN f.item_key IS NULL THEN i.pending_answer ELSE f.pending_answer END AS pending_answer, ' +
  'CASE WHEN f.item_key IS NULL THEN i.run_id ELSE f.run_id END AS run_id, ' +
  'CASE WHEN f.item_key IS NULL THEN i.thread_id ELSE f.thread_id END AS thread_id, ' +
  'CASE WHEN f.item_key IS NULL THEN i.run_status ELSE f.run_status END AS run_status, ' +
  'CASE WHEN f.item_key IS NULL THEN i.text ELSE f.text END AS text, ' +
  'CASE WHEN f.item_key IS NULL THEN i.owner ELSE f.owner END AS owner, ' +
  'CASE WHEN f.item_key IS NULL THEN i.lease_until ELSE f.lease_until END AS lease_until, ' +
  'CASE WHEN f.item_key IS NULL THEN i.fence ELSE f.fence END AS fence, ' +
  'CASE WHEN f.item_key IS NULL THEN i.updated_at ELSE f.updated_at END AS updated_at';

/**
 * An item as 019's views read it: its row (`i`) with its flight (`f`) laid over it, column for
 * column, `i.batch_id` first (020 drops that column and makes the views anew).
 */
const ITEM_019 = `(SELECT i.batch_id, ${ITEM_COLUMNS_019} FROM items i LEFT JOIN flights f ON f.item_key = i.key)`;

/** The views over items, with an item's flight laid over it (as the adapter's readers saw it in 019). */
function views(db: Database): void {
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
