import { type Clock, systemClock } from '../../clock.js';
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { retryBusySync } from './busy.js';
import { migrate, migrations } from './migrations.js';
import { StatementCache } from './statement-cache.js';
import { UNFINISHED_STATES } from '../item-states.js';

/** A better-sqlite3 connection. */
export type Db = Database.Database;

/**
 * What every operation of the SQLite adapter takes first: one connection, the store's clock
 * (every time the adapter writes), the connection's prepared statements, each batch's
 * integer key by its id (batches are never renumbered), the keys of the items whose
 * flights this connection carries ({@link itemKey}) and the batches whose items ended in the
 * open transaction ({@link noteEnded}).
 */
export interface SqliteContext {
  readonly db: Db;
  readonly clock: Clock;
  readonly stmt: StatementCache;
  readonly nums: Map<string, number>;
  readonly keys: ItemKeys;
  /** Nums of the batches an item of which took a finished state in the open transaction ({@link finishBatches}). */
  readonly ended: number[];
}

/** The context of one connection. */
export function contextOf(db: Db, clock: Clock): SqliteContext {
  return { db, clock, stmt: new StatementCache(db), nums: new Map(), keys: new ItemKeys(), ended: [] };
}

/**
 * Notes that an item of batch `num` took a finished state (completed, failed, error,
 * cancelled) in the open transaction: before it commits, the outbox looks whether the batch
 * finished ({@link finishBatches}, run by the store's transaction).
 */
export function noteEnded(cx: SqliteContext, num: number): void {
  if (cx.ended[cx.ended.length - 1] !== num) cx.ended.push(num);
}

/**
 * Item keys (`items.key`) by batch id and item id, kept from a flight's start on this
 * connection until it lands. At most {@link ItemKeys.MOST}: past it (flights other workers
 * landed leave theirs behind) all are let go and read again as needed.
 */
export class ItemKeys {
  static readonly MOST = 65_536;
  readonly #byBatch = new Map<string, Map<string, number>>();
  #size = 0;

  get(batchId: string, id: string): number | undefined {
    return this.#byBatch.get(batchId)?.get(id);
  }

  keep(batchId: string, id: string, key: number): void {
    let batch = this.#byBatch.get(batchId);
    if (batch?.has(id)) return;
    if (this.#size >= ItemKeys.MOST) {
      this.#byBatch.clear();
      this.#size = 0;
      batch = undefined;
    }
    if (!batch) this.#byBatch.set(batchId, (batch = new Map()));
    batch.set(id, key);
    this.#size++;
  }

  drop(batchId: string, id: string): void {
    if (this.#byBatch.get(batchId)?.delete(id)) this.#size--;
  }

  get size(): number {
    return this.#size;
  }
}

/**
 * An item's integer key, the one its flight is keyed by: the kept one while this connection
 * carries its flight, so a flight's statements seek the flights table by key instead of
 * looking it up through the batch's and the item's ids each time; else read (a seek in the
 * items' (batch_num, id) key). Items are never deleted nor re-keyed, so a kept key stays
 * right. Null for an item the database lacks: a statement bound to it matches nothing, as
 * the lookup it replaces did.
 */
export function itemKey(cx: SqliteContext, batchId: string, id: string): number | null {
  const kept = cx.keys.get(batchId, id);
  if (kept !== undefined) return kept;
  const key = cx.stmt.get('SELECT key FROM items WHERE batch_num = (SELECT num FROM batches WHERE id = ?) AND id = ?').pluck().get(batchId, id) as number | undefined;
  return key ?? null;
}

/** Runs one write: one that throws takes back the ends it noted (it is rolled back alone, its savepoint with it). */
export function takingBackNotes<T>(cx: SqliteContext, fn: () => T): T {
  const noted = cx.ended.length;
  try {
    return fn();
  } catch (e) {
    cx.ended.length = noted;
    throw e;
  }
}

/**
 * `batch.finished` for each batch an item of which took a finished state in the open
 * transaction ({@link noteEnded}), when none of its items is left queued, in flight or
 * held and it has somewhere to notify: keyed by how many it had before, so a batch ended
 * again after a retry gets another. Run once per transaction, just before it commits (the
 * store's write group), not by a trigger at each count's change: a trigger fires on every
 * update of item_counts (each flight's start and end moves its row 'flight'), and its firing
 * cost a run's start and end more than the check (migrations/033-state-trigger.ts).
 */
export function finishBatches(cx: SqliteContext): void {
  if (cx.ended.length === 0) return;
  const nums = [...new Set(cx.ended)];
  cx.ended.length = 0;
  const add = cx.stmt.get(
    `INSERT OR IGNORE INTO outbox (batch_num, key, type, status, created_at)
     SELECT b.num, 'finished:' || (SELECT count(*) FROM outbox o WHERE o.batch_num = b.num AND o.type = 'batch.finished'), 'batch.finished', 'pending', ?
     FROM batches b WHERE b.num = ?
       AND NOT EXISTS (SELECT 1 FROM item_counts c WHERE c.batch_num = b.num AND c.state IN ${UNFINISHED_COUNTS} AND c.n > 0)
       AND json_extract(b.settings, '$.notify') IS NOT NULL`,
  );
  const now = cx.clock.now();
  for (const num of nums) add.run(now, num);
}

/** The item_counts rows of unfinished items: their states, and 'flight' (the batch's flights, migration 030). */
const UNFINISHED_COUNTS = `(${[...UNFINISHED_STATES, 'flight'].map((s) => `'${s}'`).join(', ')})`;

/** The batch's integer key (migration 019), the one the database keys its flights by; read once per connection. */
export function batchNum(cx: SqliteContext, id: string): number {
  let n = cx.nums.get(id);
  if (n === undefined) {
    n = cx.db.prepare('SELECT num FROM batches WHERE id = ?').pluck().get(id) as number | undefined;
    if (n === undefined || n === null) throw new Error(`batch ${id} not found`);
    cx.nums.set(id, n);
  }
  return n;
}

/**
 * Opens (creating when needed) a resq database: WAL, foreign keys, a busy timeout so a
 * second process (`resq answer` while a runner is attached) waits instead of failing,
 * and every pending migration applied. Read-only, a file an older resq wrote is read through
 * a migrated copy in memory ({@link migratedImage}): the file itself is never written.
 */
export function openDatabase(path: string, opts: { readonly?: boolean; clock?: Clock; onWait?: (message: string) => void } = {}): Db {
  if (path !== ':memory:' && !opts.readonly) mkdirSync(dirname(path), { recursive: true });
  let db = new Database(path, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  db.pragma('busy_timeout = 10000');
  const upgrade = olderSchema(db);
  if (opts.readonly && upgrade) {
    opts.onWait?.(`reading ${path}, written by an older resq, through a copy upgraded in memory (${upgrade}); the file is left as it is`);
    db = migratedImage(db, opts.clock ?? systemClock);
  } else if (upgrade) opts.onWait?.(`upgrading the database ${path} to this resq's schema (${upgrade}): a large one takes a while`);
  if (!opts.readonly) {
    retryBusySync(() => db.pragma('journal_mode = WAL'));
    // NORMAL in WAL mode still survives a killed process: only an OS crash can lose the last commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    retryBusySync(() => migrate(db, migrations, opts.clock ?? systemClock));
  }
  // Test-only (never set it otherwise): caps the database's size in pages, so a test fills it
  // up as a full disk would (SQLITE_FULL) without needing a small disk.
  const maxPages = Number(process.env.RESQ_TEST_SQLITE_MAX_PAGES);
  if (Number.isInteger(maxPages) && maxPages > 0) db.pragma(`max_page_count = ${maxPages}`);
  return db;
}

/**
 * The migrations a database an older resq wrote still needs, as a list for a person; null for
 * a new file (nothing to upgrade: its tables are made) or one already current.
 */
function olderSchema(db: Db): string | null {
  const pending = pendingMigrations(db);
  if (pending.length === 0 || pending.length === migrations.length) return null;
  return pending.join(', ');
}

/** The migrations a database has not had yet (all of them for a file with no `_migrations`). */
export function pendingMigrations(db: Db): string[] {
  const table = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").pluck().get() === 1;
  const done = new Set(table ? (db.prepare('SELECT name FROM _migrations').pluck().all() as string[]) : []);
  return migrations.map((m) => m.name).filter((n) => !done.has(n));
}

/**
 * A read-only database an older resq wrote, as the present schema: its pages as this
 * connection sees them (the WAL's commits included) copied into memory, migrated there, and
 * closed to writes (`query_only`). The file is left as it is: a read-only open (the notebook's
 * `openResults`, an export) never changes it, and the next read-write open migrates it for good.
 * It costs the file's size in memory, once per open.
 */
function migratedImage(file: Db, clock: Clock): Db {
  const image = file.serialize();
  file.close();
  // Bytes 18 and 19 of the header say WAL (2); an image in memory has no WAL: legacy (1).
  image[18] = 1;
  image[19] = 1;
  const db = new Database(image);
  db.pragma('foreign_keys = ON');
  migrate(db, migrations, clock);
  db.pragma('query_only = ON');
  return db;
}
