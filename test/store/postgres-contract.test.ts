import { afterAll, beforeAll } from 'vitest';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { startPgServer, type PgServer } from '../support/pg-server.js';
import { storeContract } from './contract.js';
import { countsContract } from './counts-contract.js';

/** The store contract on the PostgreSQL adapter: a real server, a fresh database per test. */
let pg: PgServer;
let n = 0;
beforeAll(async () => {
  pg = await startPgServer();
}, 120_000);
afterAll(async () => pg?.stop());

storeContract('postgres', async () => PostgresStore.open(await pg.createDatabase(`contract_${n++}`)));
countsContract('postgres', async () => PostgresStore.open(await pg.createDatabase(`contract_${n++}`)));
