import { type Clock, systemClock } from '../../clock.js';
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { retryBusySync } from './busy.js';
import { migrate, migrations } from './migrations.js';
import { StatementCache } from './statement-cache.js';

/** A better-sqlite3 connection. */
export type Db = Database.Database;

/**
 * What every operation of the SQLite adapter takes first: one connection, the store's clock
 * (every time the adapter writes), the connection's prepared statements and each batch's
 * integer key by its id (batches are never renumbered).
 */
export interface SqliteContext {
  readonly db: Db;
  readonly clock: Clock;
  readonly stmt: StatementCache;
  readonly nums: Map<string, number>;
}

/** The context of one connection. */
export function contextOf(db: Db, clock: Clock): SqliteContext {
  return { db, clock, stmt: new StatementCache(db), nums: new Map() };
}

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
