import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';
import { webReadsContract } from './item-pages-contract.js';

/** The web projections' contract on the SQLite adapter: a fresh database file per test. */
const dir = tempDir('resq-item-pages-');
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

webReadsContract('sqlite', async () => SqliteStore.open(join(dir, `store-${n++}.db`)));
