import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePg, pgMigrations } from '../../src/store/postgres/migrations.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { startPgServer, type PgServer } from '../support/pg-server.js';

let server: PgServer;
beforeAll(async () => {
  server = await startPgServer();
}, 120_000);
afterAll(async () => server?.stop());

async function client(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

describe('PostgreSQL migrations', () => {
  it('migrate a blank database once, and again changes nothing', async () => {
    const url = await server.createDatabase('mig_blank');
    const c = await client(url);
    try {
      expect(await migratePg(c)).toEqual(pgMigrations.map((m) => m.name));
      expect(await migratePg(c)).toEqual([]);
      const tables = (await c.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`)).rows.map((r) => r.table_name);
      expect(tables).toEqual(['_migrations', 'batches', 'decisions', 'file_copies', 'files', 'items', 'model_batches', 'model_runs', 'runs', 'threads', 'workers']);
    } finally {
      await c.end();
    }
  });

  it('workers opening a fresh database together migrate it once (advisory lock)', async () => {
    const url = await server.createDatabase('mig_race');
    const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open(url)));
    const c = await client(url);
    try {
      const applied = (await c.query('SELECT name FROM _migrations')).rows.map((r) => r.name);
      expect(applied).toEqual(pgMigrations.map((m) => m.name));
    } finally {
      await c.end();
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('a later migration applies on top of an existing schema, and a failing one leaves nothing behind', async () => {
    const url = await server.createDatabase('mig_next');
    const c = await client(url);
    try {
      await migratePg(c);
      const next = [...pgMigrations, { name: '999_probe', sql: 'ALTER TABLE batches ADD COLUMN probe TEXT' }];
      expect(await migratePg(c, next)).toEqual(['999_probe']);
      const broken = [...next, { name: '1000_broken', sql: 'ALTER TABLE batches ADD COLUMN x TEXT; SELECT nope FROM nowhere' }];
      await expect(migratePg(c, broken)).rejects.toThrow();
      const cols = (await c.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'batches' AND column_name IN ('probe', 'x')`)).rows.map((r) => r.column_name);
      expect(cols).toEqual(['probe']);
    } finally {
      await c.end();
    }
  });

  it('008 adds the error code columns on top of the schema before it, keeping its rows', async () => {
    const url = await server.createDatabase('mig_002');
    const c = await client(url);
    try {
      const before = pgMigrations.findIndex((m) => m.name.startsWith('008_'));
      await migratePg(c, pgMigrations.slice(0, before));
      await c.query("INSERT INTO batches (id, name, source_path, source_sha256, created_at, updated_at) VALUES ('b1', 'old', '/q.csv', 'abc', 'now', 'now')");
      await c.query("INSERT INTO items (batch_id, id, seq, line, question, state, error, updated_at) VALUES ('b1', 'a', 0, 2, 'q?', 'failed', 'run r1 ended with status failed', 'now')");
      expect(await migratePg(c)).toEqual(pgMigrations.slice(before).map((m) => m.name));
      const cols = (await c.query(`SELECT table_name || '.' || column_name AS c FROM information_schema.columns WHERE column_name IN ('error_code', 'error') AND table_name IN ('items', 'runs') ORDER BY 1`)).rows.map((r) => r.c);
      expect(cols).toEqual(['items.error', 'items.error_code', 'runs.error', 'runs.error_code']);
    } finally {
      await c.end();
    }
    const store = await PostgresStore.open(url);
    try {
      expect(await store.getItem('b1', 'a')).toMatchObject({ error: 'run r1 ended with status failed', errorCode: null });
    } finally {
      await store.close();
    }
  });

  it('a wrong password is said without the password', async () => {
    const url = server.url.replace('postgres@', 'postgres:hunter2@').replace(/\/postgres$/, '/no_such_db');
    await expect(PostgresStore.open(url)).rejects.toThrow(/cannot use the database postgres:\/\/postgres:\*\*\*@/);
    await expect(PostgresStore.open(url)).rejects.not.toThrow(/hunter2/);
  });
});
