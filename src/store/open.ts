import { type Clock, systemClock } from '../clock.js';
import { isPostgresUrl, maskLocation } from './location.js';
import { DEFAULT_DB_WAIT_MS } from './db-wait.js';
import type { Store } from './port.js';

export { isPostgresUrl, maskLocation } from './location.js';

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** SQLite: open the file read-only. @default false */
  readonly?: boolean;
  /**
   * PostgreSQL: how long to wait for a server that is starting up, restarting or not yet
   * accepting connections, before giving up with the bound in the message. @default 60000
   */
  waitMs?: number;
  /** Told once, in a line for a person, when the server is not ready and the open waits. */
  onWait?: (message: string) => void;
  /** Time: the wait for a server, and the store's leases and heartbeats. @default systemClock */
  clock?: Clock;
  /** PostgreSQL: the lease this process's workers claim with, which its connection timeouts are tied to. @default the runner's */
  leaseMs?: number;
}

/** Default bound on waiting for a PostgreSQL server that is starting up or restarting (and on any later outage: db-wait.ts). */
export { DEFAULT_DB_WAIT_MS } from './db-wait.js';

/** Codes of a server not (yet) taking connections: starting up, shutting down, restarting, refused, reset. */
const NOT_READY = new Set(['57P03', '57P01', '57P02', '08001', '08006', 'ECONNREFUSED', 'ECONNRESET']);
/** Pause between two tries while the server is not ready. */
const RETRY_EVERY_MS = 500;

/**
 * Opens the store a `--db` value names: a `postgres://` URL selects the PostgreSQL
 * adapter, anything else is a SQLite file (created and migrated when needed). Adapters
 * load only when chosen, so a SQLite user never loads the PostgreSQL client. A PostgreSQL
 * server that is starting up or restarting is waited on (said once through `onWait`), up to
 * `waitMs`; past it, the error says how long it waited.
 */
export async function openStore(location: string, opts: OpenStoreOptions = {}): Promise<Store> {
  if (isPostgresUrl(location)) {
    const [{ PostgresStore }, { PostgresConnectError }] = await Promise.all([import('./postgres/postgres-store.js'), import('./postgres/pool.js')]);
    const clock = opts.clock ?? systemClock;
    const waitMs = opts.waitMs ?? DEFAULT_DB_WAIT_MS;
    const start = clock.now();
    let said = false;
    for (;;) {
      try {
        return await PostgresStore.open(location, {
          clock,
          waitMs,
          ...(opts.onWait ? { onWait: opts.onWait } : {}),
          ...(opts.leaseMs !== undefined ? { leaseMs: opts.leaseMs } : {}),
        });
      } catch (e) {
        if (!(e instanceof PostgresConnectError) || !NOT_READY.has(e.reason ?? '')) throw e;
        const waited = clock.now() - start;
        const bound = `${Math.round(waitMs / 1000)} s`;
        if (waited >= waitMs)
          throw new PostgresConnectError(`${e.message} (waited ${bound} for the server to accept connections; is it running?)`, e.reason);
        if (!said) opts.onWait?.(`the database ${maskLocation(location)} is not accepting connections (${e.reason}: starting up or restarting?): waiting up to ${bound}`);
        said = true;
        await clock.sleep(Math.min(RETRY_EVERY_MS, waitMs - waited));
      }
    }
  }
  const { SqliteStore } = await import('./sqlite/sqlite-store.js');
  return SqliteStore.open(location, { readonly: opts.readonly ?? false, clock: opts.clock ?? systemClock, waitMs: opts.waitMs ?? DEFAULT_DB_WAIT_MS, ...(opts.onWait ? { onWait: opts.onWait } : {}) });
}
