import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { InputError } from '../../src/errors.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { parsePgTarget, poolerHint } from '../../src/store/postgres/pooler.js';
import { startPgServer, type PgServer } from '../support/pg-server.js';
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer.js';
import { storeContract } from './contract.js';
import { migratedTemplate } from '../support/pg-template.js';
import { countsContract } from './counts-contract.js';
import { outboxContract } from './outbox-contract.js';

// Issue 37, point 8: resq through a real PgBouncer 1.18 in transaction pooling, in front of a
// real PostgreSQL. Few server connections, so clients' transactions share them.

describe('parsePgTarget: the URL parameters that say a pooler is in between', () => {
  it('pooler=transaction and direct=HOST:PORT are read and taken out of the URL the driver gets; the password stays where it was', () => {
    const t = parsePgTarget('postgres://u:s3cret@bouncer:6432/resq?pooler=transaction&direct=db.internal:5433&sslmode=require');
    expect(t).toEqual({
      url: 'postgres://u:s3cret@bouncer:6432/resq?sslmode=require',
      pooler: true,
      directUrl: 'postgres://u:s3cret@db.internal:5433/resq?sslmode=require',
    });
    expect(parsePgTarget('postgres://u@bouncer/resq?pooler=transaction&direct=[::1]').directUrl).toBe('postgres://u@[::1]:5432/resq');
    expect(parsePgTarget('postgres://u@db/resq')).toEqual({ url: 'postgres://u@db/resq', pooler: false, directUrl: null });
    expect(parsePgTarget('postgres://u@db/resq?pooler=session').pooler).toBe(false);
  });

  it('a pooler or direct value it does not know is one line of bad input naming the parameter, not the URL', () => {
    for (const [url, said] of [
      ['postgres://u:pw@h/db?pooler=statement', /^--db: pooler=statement is not a pooling mode resq knows/],
      ['postgres://u:pw@h/db?pooler=transaction&direct=postgres://u:pw@x/db', /^--db: direct=postgres:\/\/u:pw@x\/db is not HOST or HOST:PORT/],
      ['postgres://u:pw@h/db?direct=h:99999', /^--db: direct=h:99999 is not HOST/],
      ['postgres://u:pw@h/db?pooler=%1b[2J', /^--db: pooler=\\x1b\[2J is not/],
    ] as const) {
      const e = (() => {
        try {
          parsePgTarget(url);
        } catch (err) {
          return err;
        }
        return null;
      })();
      expect(e, url).toBeInstanceOf(InputError);
      expect((e as Error).message).toMatch(said);
      expect((e as Error).message).not.toContain('\n');
    }
  });

  it('poolerHint answers the errors a transaction pooler causes and nothing else', () => {
    expect(poolerHint(Object.assign(new Error('prepared statement "resq_8" already exists'), { code: '42P05' }))).toContain('?pooler=transaction');
    expect(poolerHint(Object.assign(new Error('prepared statement "resq_3" does not exist'), { code: '26000' }))).toContain('?pooler=transaction');
    expect(poolerHint(Object.assign(new Error('unsupported startup parameter: options'), { code: '08P01' }))).toContain('?pooler=transaction');
    expect(poolerHint(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeNull();
    expect(poolerHint('text')).toBeNull();
  });
});

let server: PgServer;
/** Debian's default set-up: a startup parameter it does not know ends the login. */
let bouncer: PgBouncer;
/** Set up as in the audit: the timeouts' startup parameters let through unapplied, so named statements are what breaks. */
let lenient: PgBouncer;
let n = 0;
beforeAll(async () => {
  server = await startPgServer();
  [bouncer, lenient] = await Promise.all([
    startPgBouncer(server, { poolSize: 2 }),
    startPgBouncer(server, { poolSize: 2, ignoreStartupParameters: ['idle_in_transaction_session_timeout', 'options'] }),
  ]);
}, 120_000);
afterAll(async () => {
  await bouncer?.stop();
  await lenient?.stop();
  await server?.stop();
});

/** A fresh database, and its URL through `via` with resq's parameters (by default LISTEN direct). */
async function pooled(name: string, params = `pooler=transaction&direct=127.0.0.1:${server.port}`, via: PgBouncer = bouncer): Promise<string> {
  await server.createDatabase(name);
  return `${via.urlOf(name)}?${params}`;
}

/** A copy of a database migrated once (directly, not through the pooler), through the pooler: the contracts' stores. */
let template: Promise<string> | null = null;
async function pooledCopy(name: string): Promise<string> {
  template ??= migratedTemplate(server, 'pooled_template');
  await server.createDatabase(name, await template);
  return `${bouncer.urlOf(name)}?pooler=transaction&direct=127.0.0.1:${server.port}`;
}

// The whole store contract through the pooler: every operation, two server connections shared
// (migrating through the pooler is what the tests below do, each on an empty database).
storeContract('postgres behind PgBouncer', async () => PostgresStore.open(await pooledCopy(`pooled_${n++}`)));
countsContract('postgres behind PgBouncer', async () => PostgresStore.open(await pooledCopy(`pooled_${n++}`)));
outboxContract('postgres behind PgBouncer', async () => PostgresStore.open(await pooledCopy(`pooled_${n++}`)));

/** Loads a batch of `count` items and registers a worker on it. */
async function loaded(store: PostgresStore, count: number): Promise<{ workerId: string }> {
  const loader = await store.beginBatchLoad({ id: 'b1', name: 'pooled', kind: 'runs', sourcePath: '/q.csv', sourceSha256: 'abc', baseUrl: null, settings: { concurrency: 4 } as never, policy: null });
  for (let seq = 0; seq < count; seq++) await loader.add({ id: `i${seq}`, seq, line: seq + 2, question: `q ${seq}`, threadKey: null, meta: {} });
  await loader.commit([], 'abc');
  const w = await store.registerWorker('b1', { host: 'h', pid: 1 });
  return { workerId: w.id };
}

/** Claims and heartbeats from several stores at once, each claim a prepared statement on a direct connection. */
async function claimAll(stores: readonly PostgresStore[], workerId: string): Promise<string[]> {
  const claimed: string[] = [];
  await Promise.all(
    stores.map(async (s) => {
      for (let round = 0; round < 6; round++) {
        const c = await s.claimItems('b1', { workerId, leaseMs: 60_000, max: 1, cap: 100, afterSeq: -1 });
        claimed.push(...c.items.map((i) => i.id));
        await s.heartbeat({ workerId, leaseMs: 60_000 });
      }
    }),
  );
  return claimed;
}

describe('PostgresStore behind PgBouncer in transaction pooling', () => {
  it('with ?pooler=transaction, four stores claiming at once over two server connections each claim distinct items (today\'s main: prepared statement "resq_N" already exists)', async () => {
    for (const [name, via] of [['claims_race_lenient', lenient], ['claims_race_default', bouncer]] as const) {
      const url = await pooled(name, 'pooler=transaction', via);
      const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open(url, { poolSize: 3 })));
      try {
        const { workerId } = await loaded(stores[0]!, 24);
        const claimed = await claimAll(stores, workerId);
        expect(claimed, name).toHaveLength(24);
        expect(new Set(claimed).size, name).toBe(24);
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    }
  }, 60_000);

  it('without the parameter the same work meets the pooler: named statements collide (42P05/26000), or the default set-up refuses the startup parameters; poolerHint names both', async () => {
    for (const [name, via, code] of [['unmarked_lenient', lenient, /^(42P05|26000)$/], ['unmarked_default', bouncer, /^08P01$/]] as const) {
      const url = await pooled(name, '', via);
      const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.open(url, { poolSize: 3 })));
      try {
        const e = await loaded(stores[0]!, 24).then(({ workerId }) => claimAll(stores, workerId)).then(() => null, (err: unknown) => err);
        expect(e, name).toBeInstanceOf(Error);
        expect(String((e as { code?: unknown }).code), `${name}: ${String(e)}`).toMatch(code);
        expect(poolerHint(e), name).not.toBeNull();
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    }
  }, 60_000);

  it('the session state a pooler would carry to the next client stays in its transaction: no prepared statement, advisory lock or setting left on its server connections', async () => {
    const url = await pooled('session_state', 'pooler=transaction');
    // Open (migrations under their lock), load, claim, heartbeat: the kinds of transaction resq runs.
    const store = await PostgresStore.open(url, { poolSize: 2 });
    try {
      const { workerId } = await loaded(store, 6);
      await claimAll([store, store], workerId);
    } finally {
      await store.close();
    }
    const admin = new pg.Client({ connectionString: server.url.replace(/\/postgres$/, '/session_state') });
    const through = new pg.Client({ connectionString: bouncer.urlOf('session_state') });
    await Promise.all([admin.connect(), through.connect()]);
    try {
      expect((await admin.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'`)).rows[0].n).toBe(0);
      // Through the pooler: its two server connections, the ones resq's transactions ran on.
      for (let i = 0; i < 4; i++) {
        expect((await through.query('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0].n).toBe(0);
        expect((await through.query(`SELECT current_setting('idle_in_transaction_session_timeout') AS v`)).rows[0].v).toBe('0');
      }
    } finally {
      await Promise.all([admin.end(), through.end()]);
    }
  }, 60_000);

  it('a transaction left idle behind the pooler is ended by the server after the bound (SET LOCAL in its BEGIN), its row locks freed', async () => {
    // Timed out twice in ~12 full runs, never alone: a failure names the step it was in.
    let step = 'creating the database';
    onTestFailed(() => console.error(`idle-transaction case: failed while ${step}`));
    const url = await pooled('idle_tx', 'pooler=transaction');
    step = 'opening the store';
    const store = await PostgresStore.open(url, { poolSize: 1, leaseMs: 1 });
    try {
      step = 'loading the batch';
      await loaded(store, 1);
      step = 'beginning the append';
      const loader = await store.beginBatchAppend('b1');
      step = 'connecting the second writer';
      // The append holds the batch row in an open transaction and sends nothing more: the
      // server ends it after the bound (5 s, the least), so another writer gets the row.
      const admin = new pg.Client({ connectionString: server.url.replace(/\/postgres$/, '/idle_tx') });
      await admin.connect();
      try {
        await admin.query(`SET lock_timeout = '20s'`);
        step = "the second writer's update (the server ending the idle transaction)";
        // Without the timeout this waits for the lock until lock_timeout refuses it.
        await admin.query(`UPDATE batches SET updated_at = 'x' WHERE id = 'b1'`);
        expect((await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'idle in transaction' AND datname = 'idle_tx'`)).rows[0].n).toBe(0);
      } finally {
        step = "ending the second writer's connection";
        await admin.end();
      }
      step = "rolling back the append whose session the server ended";
      await loader.rollback().catch(() => {});
    } finally {
      step = 'closing the store';
      await store.close();
    }
  }, 60_000);

  it('answers: through ?direct= a person\'s answer wakes the listener at once; without it nothing listens through the pooler, said once', async () => {
    const said: string[] = [];
    const direct = await PostgresStore.open(await pooled('answers_direct'), { onWait: (m) => said.push(m) });
    try {
      let woke = 0;
      const stop = direct.onAnswered('b1', () => woke++);
      await direct.listening();
      const other = new pg.Client({ connectionString: bouncer.urlOf('answers_direct') });
      await other.connect();
      await other.query(`SELECT pg_notify('resq_answered', 'b1')`);
      await other.end();
      await expect.poll(() => woke, { timeout: 10_000 }).toBe(1);
      stop();
      expect(said).toEqual([]);
    } finally {
      await direct.close();
    }
    const polling = await PostgresStore.open(await pooled('answers_polling', 'pooler=transaction'), { onWait: (m) => said.push(m) });
    try {
      const stops = [polling.onAnswered('b1', () => {}), polling.onAnswered('b2', () => {})];
      await polling.listening();
      for (const stop of stops) stop();
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/^the database postgres:\/\/postgres@127\.0\.0\.1:\d+\/answers_polling\?pooler=transaction is behind a transaction pooler and no direct=HOST:PORT was given: answers from other machines are found by polling, not at once$/);
    } finally {
      await polling.close();
    }
  }, 60_000);
});
