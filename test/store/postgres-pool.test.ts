import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseWaitError, DbWait } from '../../src/store/db-wait.js';
import { beginSql, makePool, transientReason, withTx } from '../../src/store/postgres/pool.js';
import { prepared } from '../../src/store/postgres/sql.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { startPgServer, type PgServer } from '../support/pg-server.js';
import { startTcpProxy } from '../support/tcp-proxy.js';

// The PostgreSQL adapter's connections under the faults of a network and a restarting server
// (issue 28, point 3): a real server, its connections ended under the statements.

let server: PgServer;
let n = 0;
beforeAll(async () => {
  server = await startPgServer();
}, 120_000);
afterAll(async () => server?.stop());

async function terminate(url: string, appName: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    return (await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [appName])).rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

describe('PostgreSQL pool: a database that drops, refuses and restarts connections is waited on', () => {
  it('a connection reset between two statements of a transaction is no unhandled error: the transaction runs again whole, once committed', async () => {
    const url = await server.createDatabase(`pool_${n++}`);
    const pool = makePool(`${url}?application_name=resq-reset-test`);
    const said: string[] = [];
    const wait = new DbWait('db', { onWait: (m) => said.push(m) });
    try {
      await pool.query('CREATE TABLE t (id INT PRIMARY KEY, tries INT)');
      let attempts = 0;
      const out = await withTx(
        pool,
        async (c) => {
          attempts++;
          await c.query('INSERT INTO t (id, tries) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET tries = excluded.tries', [attempts]);
          if (attempts === 1) {
            // The connection is ended by the server while the transaction is open, between two
            // statements: the client's socket errors with no query running (the crash of issue 28).
            expect(await terminate(url, 'resq-reset-test')).toBeGreaterThan(0);
            await new Promise((r) => setTimeout(r, 200));
          }
          await c.query('UPDATE t SET tries = tries + 100 WHERE id = 1');
          return attempts;
        },
        wait,
      );
      expect(out).toBe(2);
      expect((await pool.query('SELECT tries FROM t')).rows).toEqual([{ tries: 102 }]);
      expect(said).toHaveLength(1);
    } finally {
      await pool.end();
    }
  });

  it('reads and transitions wait out a server that is down, said once with the bound; past the bound, one plain error', async () => {
    const url = await server.createDatabase(`pool_${n++}`);
    const said: string[] = [];
    const store = await PostgresStore.open(url, { onWait: (m) => said.push(m), waitMs: 60_000 });
    const short = await PostgresStore.open(url, { waitMs: 1_500 });
    try {
      await server.halt();
      const read = store.listBatches();
      const failed = short.listBatches().catch((e: unknown) => e);
      const err = await failed;
      expect(err).toBeInstanceOf(DatabaseWaitError);
      expect((err as Error).message).toMatch(/failed for 2 s \((ECONNREFUSED|57P01|connection lost)/);
      expect((err as Error).message).not.toContain('internal error');
      await server.resume();
      expect(await read).toEqual([]);
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/^the database postgres:\/\/.* failed \(.*\): waiting for it up to 60 s$/);
    } finally {
      await store.close();
      await short.close();
    }
  });

  it('a COMMIT whose answer is lost (the server committed, the network failed) is looked up by its transaction id, not run again', async () => {
    const url = await server.createDatabase(`pool_${n++}`);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const proxy = await startTcpProxy(server.port);
    // The smallest bound (5 s): the lost answer is given up on after it.
    const pool = makePool(proxy.urlFor(url), { leaseMs: 100 });
    try {
      await admin.query('CREATE TABLE t (id INT PRIMARY KEY)');
      let runs = 0;
      const done = withTx(
        pool,
        async (c) => {
          runs++;
          await c.query('INSERT INTO t (id) VALUES ($1)', [runs]);
          // From here the server's answers are held: COMMIT goes out and is applied, its answer never comes.
          proxy.deaf();
          return runs;
        },
        new DbWait('db'),
      );
      // The client gives the COMMIT up and connects again to look the transaction up: let that through.
      await proxy.until((c) => c.accepted >= 2, 30_000);
      proxy.heal({ drop: true });
      expect(await done).toBe(1);
      expect(runs).toBe(1);
      expect((await admin.query('SELECT id FROM t')).rows).toEqual([{ id: 1 }]);
    } finally {
      await pool.end();
      await proxy.close();
      await admin.end();
    }
  });

  it('names the failures it waits out, and no others', () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code });
    expect(['ECONNRESET', 'ECONNREFUSED', '57P01', '57P03', '40001', '40P01', '08006'].map((c) => transientReason(coded(c)))).toEqual([
      'ECONNRESET', 'ECONNREFUSED', '57P01', '57P03', '40001', '40P01', '08006',
    ]);
    expect(transientReason(new Error('Connection terminated unexpectedly'))).toBe('connection lost');
    expect(transientReason(new Error('Query read timeout'))).toBe('timeout');
    expect(transientReason(coded('23505'))).toBeNull();
    expect(transientReason(coded('42601'))).toBeNull();
  });
});

describe('PostgreSQL pool: named statements on a direct connection, none behind a transaction pooler', () => {
  it('a hot statement is prepared by name on a direct connection and sent unnamed by a pooler pool; BEGIN sets the idle timeout locally there', async () => {
    const url = await server.createDatabase(`pool_${n++}`);
    const listed = async (pool: pg.Pool): Promise<string[]> => {
      await prepared.scalar(pool, 'SELECT 41 + 1');
      return (await pool.query<{ name: string }>('SELECT name FROM pg_prepared_statements')).rows.map((r) => r.name);
    };
    const direct = makePool(url, { max: 1 });
    const pooler = makePool(url, { max: 1, pooler: true, leaseMs: 7_000 });
    try {
      expect(await listed(direct)).toEqual([expect.stringMatching(/^resq_\d+$/)]);
      expect(await listed(pooler)).toEqual([]);
      expect(beginSql(direct)).toBe('BEGIN');
      expect(beginSql(pooler)).toBe('BEGIN; SET LOCAL idle_in_transaction_session_timeout = 7000');
      // The setting holds inside the transaction and is gone after it: nothing left for the pooler's next client.
      const inside = await withTx(pooler, async (c) => (await c.query(`SELECT current_setting('idle_in_transaction_session_timeout') AS v`)).rows[0].v, new DbWait('db'));
      expect(inside).toBe('7s');
      expect((await pooler.query(`SELECT current_setting('idle_in_transaction_session_timeout') AS v`)).rows[0].v).toBe('0');
    } finally {
      await Promise.all([direct.end(), pooler.end()]);
    }
  });
});
