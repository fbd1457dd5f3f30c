import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { PgClientSide } from './pg-server.js';

/**
 * A database the PostgreSQL adapter migrated once, closed, for `createDatabase(name, template)`
 * to copy: a suite that opens a fresh store per test then runs no migrations per test (~0.2 s
 * each). Suites that test migrating keep creating empty databases.
 */
export async function migratedTemplate(server: Pick<PgClientSide, 'createDatabase'>, name: string): Promise<string> {
  const store = await PostgresStore.open(await server.createDatabase(name));
  await store.close();
  return name;
}
