import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";
import {
  isPostgresUrl
} from "./chunk-HPW6PH2N.mjs";

// src/cli/db-path.ts
import { closeSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
var SQLITE_MAGIC = "SQLite format 3\0";
function statOrNull(path) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
function checkDbPath(db, opts = {}) {
  if (db === "") throw new InputError("--db: give a file path");
  if (isPostgresUrl(db)) return { exists: true };
  const st = statOrNull(db);
  if (st?.isDirectory()) throw new InputError(`--db ${db}: is a folder, not a database file`);
  if (st) {
    if (!st.isFile()) throw new InputError(`--db ${db}: not a regular file`);
    if (st.size > 0 && !hasSqliteHeader(db)) throw new InputError(`--db ${db}: not a resq database (not a SQLite file)`);
    return { exists: true };
  }
  if (opts.mustExist) throw new InputError(`${db}: no such database (pass --db PATH)`);
  checkParentFolder(db, "--db");
  return { exists: false };
}
function checkOutputPath(path, flag = "--output") {
  if (path === "") throw new InputError(`${flag}: give a file path`);
  const st = statOrNull(path);
  if (st?.isDirectory()) throw new InputError(`${flag} ${path}: is a folder; give a file path`);
  if (!st) checkParentFolder(path, flag);
}
function checkParentFolder(path, flag) {
  const parent = dirname(resolve(path));
  const st = statOrNull(parent);
  if (!st) throw new InputError(`${flag} ${path}: folder ${parent} does not exist (resq does not create it)`);
  if (!st.isDirectory()) throw new InputError(`${flag} ${path}: ${parent} is not a folder`);
}
function hasSqliteHeader(path) {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(16);
    const n = readSync(fd, buf, 0, 16, 0);
    return n === 16 && buf.toString("latin1") === SQLITE_MAGIC;
  } finally {
    closeSync(fd);
  }
}
function removeDatabase(db) {
  if (isPostgresUrl(db)) return;
  for (const suffix of ["", "-wal", "-shm", "-journal", ".sim.json", ".sim.json.journal"]) rmSync(`${db}${suffix}`, { force: true });
}

export {
  checkDbPath,
  checkOutputPath,
  removeDatabase
};
//# sourceMappingURL=chunk-KJQBQQMI.mjs.map
