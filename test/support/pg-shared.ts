import { inject } from 'vitest';
import { pgClientSide, startPgServer, type PgClientSide } from './pg-server.js';

/**
 * The suite's one PostgreSQL server, shared by the test files that only need databases on it
 * (test/support/pg-global-setup.ts starts it once per `vitest run`). Each file creates
 * databases of its own there, under names no other file uses. A file that halts, restarts or
 * partitions its server starts its own with startPgServer instead.
 */
export interface SharedPg extends PgClientSide {
  /** Ends this file's use of the server: a no-op on the shared one (the run stops it). */
  stop(): Promise<void>;
}

/**
 * The shared server when the run started one (vitest's `provide`), else a server of this
 * file's own (a run without the global setup), stopped by `stop()`.
 */
export async function sharedPgServer(): Promise<SharedPg> {
  const port = inject('resqPgPort');
  if (port) return { ...pgClientSide(port), stop: async () => undefined };
  const own = await startPgServer();
  return { url: own.url, port: own.port, createDatabase: own.createDatabase, psql: own.psql, stop: own.stop };
}
