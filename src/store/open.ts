import { isPostgresUrl } from './location.js';
import type { Store } from './port.js';

export { isPostgresUrl, maskLocation } from './location.js';

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
