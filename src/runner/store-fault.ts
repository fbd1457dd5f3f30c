/**
 * Whether an error came from the database rather than from the item's work (a SQLite or
 * PostgreSQL error that the adapter did not retry away): the worker stops and the item is
 * left as stored, never recorded as the item's `error`.
 */
export function isStoreFault(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'SqliteError') return true;
  const code = (err as { code?: unknown }).code;
  // The store waited out a failing database to its bound (db-wait.ts), or could not reach it.
  if (code === 'RESQ_DATABASE') return true;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return true;
  // node-postgres errors carry the server's severity and a five-character SQLSTATE.
  const pg = err as { severity?: unknown; routine?: unknown };
  return typeof pg.severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/**
 * Whether a store error means the database's disk is full: SQLite's `SQLITE_FULL` ("database
 * or disk is full") or PostgreSQL's `disk_full` (SQLSTATE 53100), also as another error's
 * cause. The write it stopped was not kept (its transaction rolled back whole) and nothing
 * written before it is touched: a plain stop, not a bug.
 */
export function isDiskFull(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'SQLITE_FULL' || code === '53100') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
