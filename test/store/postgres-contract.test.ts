import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type BatchStore } from '../../src/store/index.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { startPgServer, type PgServer } from '../support/pg-server.js';
import { storeContract } from './contract.js';
import { countsContract } from './counts-contract.js';
import { outboxContract } from './outbox-contract.js';

/** The store contract on the PostgreSQL adapter: a real server, a fresh database per test. */
let pg: PgServer;
let n = 0;
beforeAll(async () => {
  pg = await startPgServer();
}, 120_000);
afterAll(async () => pg?.stop());

storeContract('postgres', async () => PostgresStore.open(await pg.createDatabase(`contract_${n++}`)));
countsContract('postgres', async () => PostgresStore.open(await pg.createDatabase(`contract_${n++}`)));
outboxContract('postgres', async () => PostgresStore.open(await pg.createDatabase(`contract_${n++}`)));

// openStore on a postgres:// URL hands back the PostgreSQL adapter with every role (the
// contract checks the members), the answers listener included; a role-typed view of it works.
it('openStore gives the PostgreSQL adapter, answers listener included, usable through one role', async () => {
  const store = await openStore(await pg.createDatabase('port_roles'));
  try {
    expect(store).toBeInstanceOf(PostgresStore);
    expect(typeof store.onAnswered).toBe('function');
    const batches: BatchStore = store;
    expect(await batches.findBatch('no-such-batch')).toBeNull();
  } finally {
    await store.close();
  }
}, 60_000);

