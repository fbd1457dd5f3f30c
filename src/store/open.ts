import type { Store } from './port.js';

/** Whether a `--db` value names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** A location safe to print: the password of a URL is masked. */
export function maskLocation(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    const u = new URL(location);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return location.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}

/**
 * Opens the store a `--db` value names: a `postgres://` URL selects the PostgreSQL
 * adapter, anything else is a SQLite file (created and migrated when needed). Adapters
 * load only when chosen, so a SQLite user never loads the PostgreSQL client.
 */
export async function openStore(location: string, opts: { readonly?: boolean } = {}): Promise<Store> {
  if (isPostgresUrl(location)) {
    const { PostgresStore } = await import('./postgres/postgres-store.js');
    return PostgresStore.open(location);
  }
  const { SqliteStore } = await import('./sqlite/sqlite-store.js');
  return SqliteStore.open(location, opts);
}
