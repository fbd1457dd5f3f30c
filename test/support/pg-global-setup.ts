import type { TestProject } from 'vitest/node';
import { pgAvailable, startPgServer } from './pg-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Port of the run's shared PostgreSQL server on 127.0.0.1, or null when PostgreSQL is not installed. */
    resqPgPort: number | null;
  }
}

/** Room for every file running at once to hold its pools on the shared server. */
const SHARED_MAX_CONNECTIONS = 400;

/**
 * Vitest's global setup: one PostgreSQL server for the whole run, its port handed to the test
 * files through `provide` (read by sharedPgServer in pg-shared.ts); stopped when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!pgAvailable()) {
    project.provide('resqPgPort', null);
    return async () => undefined;
  }
  const pg = await startPgServer({ maxConnections: SHARED_MAX_CONNECTIONS });
  project.provide('resqPgPort', pg.port);
  return () => pg.stop();
}
