import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';
import { storeContract } from './contract.js';
import { countsContract } from './counts-contract.js';
import { fileClaimsContract } from './file-claims-contract.js';
import { threadWaitsContract } from './thread-waits-contract.js';
import { outboxContract } from './outbox-contract.js';
import { webSessionsContract } from './web-sessions-contract.js';
import { forecastsContract } from './forecasts-contract.js';
import { scoresContract } from './scores-contract.js';
import { budgetGroupContract } from './budget-group-contract.js';

/** The store contract on the SQLite adapter: a fresh database file per test. */
const dir = tempDir('resq-contract-');
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

storeContract('sqlite', async () => SqliteStore.open(join(dir, `store-${n++}.db`)));
countsContract('sqlite', async () => SqliteStore.open(join(dir, `store-${n++}.db`)));
threadWaitsContract('sqlite', async () => SqliteStore.open(join(dir, `store-${n++}.db`)));
outboxContract('sqlite', async () => SqliteStore.open(join(dir, `store-${n++}.db`)));
fileClaimsContract('sqlite', async () => SqliteStore.open(join(dir, `store-${n++}.db`)));
webSessionsContract('sqlite', async () => join(dir, `store-${n++}.db`), async (path) => SqliteStore.open(path));
forecastsContract('sqlite', async () => SqliteStore.open(join(dir, `store-${n++}.db`)));
scoresContract('sqlite', async () => SqliteStore.open(join(dir, `store-${n++}.db`)));
budgetGroupContract('sqlite', async () => SqliteStore.open(join(dir, `store-${n++}.db`)));
