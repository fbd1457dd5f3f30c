import { type Clock, systemClock } from '../../clock.js';
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { retryBusySync } from './busy.js';
import { migrate, migrations } from './migrations.js';

/** A better-sqlite3 connection. */
export type Db = Database.Database;

/**
 * Opens (creating when needed) a resq database: WAL, foreign keys, a busy timeout so a
 * second process (`resq answer` while a runner is attached) waits instead of failing,
 * and every pending migration applied.
 */
export function openDatabase(path: string, opts: { readonly?: boolean; clock?: Clock } = {}): Db {
  if (path !== ':memory:' && !opts.readonly) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  db.pragma('busy_timeout = 10000');
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
