/**
 * Whether an error came from the database rather than from the item's work (a SQLite or
 * PostgreSQL error that the adapter did not retry away): the worker stops and the item is
 * left as stored, never recorded as the item's `error`.
 */
export function isStoreFault(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'SqliteError') return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return true;
  // node-postgres errors carry the server's severity and a five-character SQLSTATE.
  const pg = err as { severity?: unknown; routine?: unknown };
  return typeof pg.severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}
