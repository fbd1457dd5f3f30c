import { closeSync, openSync, readSync, rmSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { isPostgresUrl } from '../text/postgres-url.js';

const SQLITE_MAGIC = 'SQLite format 3\0';

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/**
 * Checks a `--db` path before the store opens it, so an ordinary mistake is one plain line
 * (exit 2) and nothing is created where it should not be: a folder, a file that is not a
 * SQLite database, a folder that does not exist (never created), or — with `mustExist` — no
 * database at all. Returns whether the file exists already. URLs are left to the store.
 */
export function checkDbPath(db: string, opts: { mustExist?: boolean } = {}): { exists: boolean } {
  if (db === '') throw new InputError('--db: give a file path');
  if (isPostgresUrl(db)) return { exists: true };
  const st = statOrNull(db);
  if (st?.isDirectory()) throw new InputError(`--db ${db}: is a folder, not a database file`);
  if (st) {
    if (!st.isFile()) throw new InputError(`--db ${db}: not a regular file`);
    if (st.size > 0 && !hasSqliteHeader(db)) throw new InputError(`--db ${db}: not a resq database (not a SQLite file)`);
    return { exists: true };
  }
  if (opts.mustExist) throw new InputError(`${db}: no such database (pass --db PATH)`);
  checkParentFolder(db, '--db');
  return { exists: false };
}

/**
 * Checks an output file path (`--output`) before anything is written: not a folder, and its
 * folder exists (resq never creates folders that are not there).
 */
export function checkOutputPath(path: string, flag = '--output'): void {
  if (path === '') throw new InputError(`${flag}: give a file path`);
  const st = statOrNull(path);
  if (st?.isDirectory()) throw new InputError(`${flag} ${path}: is a folder; give a file path`);
  if (!st) checkParentFolder(path, flag);
}

function checkParentFolder(path: string, flag: string): void {
  const parent = dirname(resolve(path));
  const st = statOrNull(parent);
  if (!st) throw new InputError(`${flag} ${path}: folder ${parent} does not exist (resq does not create it)`);
  if (!st.isDirectory()) throw new InputError(`${flag} ${path}: ${parent} is not a folder`);
}

function hasSqliteHeader(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(16);
    const n = readSync(fd, buf, 0, 16, 0);
    return n === 16 && buf.toString('latin1') === SQLITE_MAGIC;
  } finally {
    closeSync(fd);
  }
}

/** Removes a database file a refused command created (with its journal files and simulator state). */
export function removeDatabase(db: string): void {
  if (isPostgresUrl(db)) return;
  for (const suffix of ['', '-wal', '-shm', '-journal', '.sim.json', '.sim.json.journal']) rmSync(`${db}${suffix}`, { force: true });
}
