import { afterAll, beforeAll } from 'vitest';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { sharedPgServer, type SharedPg } from '../support/pg-shared.js';
import { webReadsContract } from './item-pages-contract.js';

/** The web projections' contract on the PostgreSQL adapter: a real server, a fresh database per test. */
let pg: SharedPg;
let n = 0;
beforeAll(async () => {
  pg = await sharedPgServer();
}, 120_000);
afterAll(async () => pg?.stop());

webReadsContract('postgres', async () => PostgresStore.open(await pg.createDatabase(`web_${n++}`)));
