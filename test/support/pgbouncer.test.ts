import pg from 'pg';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startPgServer } from './pg-server.js';
import { startPgBouncer } from './pgbouncer.js';

/** The throwaway PgBouncer the pooler tests run through. */
describe('startPgBouncer', () => {
  it('starts a transaction pooler in front of the server: two clients share its one server connection, session state crosses between them; stop ends it', async () => {
    const server = await startPgServer();
    try {
      const bouncer = await startPgBouncer(server, { poolSize: 1 });
      let stopped = false;
      try {
        expect(bouncer.urlOf('postgres')).toBe(`postgres://postgres@127.0.0.1:${bouncer.port}/postgres`);
        const [a, b] = [new pg.Client({ connectionString: bouncer.urlOf('postgres') }), new pg.Client({ connectionString: bouncer.urlOf('postgres') })];
        await Promise.all([a.connect(), b.connect()]);
        try {
          // Transaction pooling, shown: a name a prepares outside a transaction is there for b.
          await a.query('PREPARE probe AS SELECT 1');
          const seen = (await b.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = 'probe'`)).rows[0].n;
          expect(seen).toBe(1);
          expect((await a.query('SELECT pg_backend_pid() AS p')).rows[0].p).toBe((await b.query('SELECT pg_backend_pid() AS p')).rows[0].p);
          await a.query('DEALLOCATE probe');
        } finally {
          await Promise.all([a.end(), b.end()]);
        }
        expect(bouncer.log()).toContain('process up: PgBouncer');
        await bouncer.stop();
        stopped = true;
        const c = new pg.Client({ connectionString: bouncer.urlOf('postgres') });
        await expect(c.connect()).rejects.toThrow();
      } finally {
        if (!stopped) await bouncer.stop();
      }
    } finally {
      await server.stop();
    }
    expect(existsSync(server.dataDir)).toBe(false);
  }, 60_000);
});
