import pg from 'pg';
import { sleep } from '../../clock.js';
import { ResqError } from '../../errors.js';
import { maskLocation } from '../location.js';
import { DatabaseWaitError, type DbWait } from '../db-wait.js';

/**
 * int8 (count(*), BIGINT, BIGSERIAL) and numeric (sum of BIGINT) as numbers: every such value
 * resq stores (ms timestamps, byte sizes, counts) is far below 2^53. Set on resq's own pools
 * only, not pg's process-wide parsers a library user's code may rely on.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 || oid === 1700 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** A client inside one transaction. */
export type Tx = pg.PoolClient;

/** The database could not be reached or refused us: said with the URL's password masked. */
export class PostgresConnectError extends ResqError {
  override readonly code: string = 'RESQ_DATABASE';
  /** The driver's or server's code of the failure (`ECONNREFUSED`, `57P03`, …), when it had one. */
  readonly reason: string | null;
  constructor(message: string, reason: string | null) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Failures worth waiting out, by code: a transaction the server gave up on for concurrency
 * (serialization failure, deadlock, lock not available), a server starting up, shutting down
 * or shut down by an administrator, a connection lost, refused, reset or timed out.
 */
const TRANSIENT = new Set([
  '40001', '40P01', '55P03', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004', '25P03',
  'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED',
]);

/** Messages node-postgres gives a lost or timed-out connection without a code. */
const LOST = /Connection terminated|Query read timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|not queryable/i;

/** The code of a failure worth waiting out (see {@link TRANSIENT}), or null. */
export function transientReason(e: unknown): string | null {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  if (TRANSIENT.has(code)) return code;
  const msg = e instanceof Error ? e.message : '';
  if (!code && LOST.test(msg)) return msg.toLowerCase().includes('timeout') ? 'timeout' : 'connection lost';
  // Thrown again by resq itself with the driver's reason kept (the pool's connect).
  if (e instanceof PostgresConnectError && e.reason && TRANSIENT.has(e.reason)) return e.reason;
  return null;
}

/** Whether the error is of a lost, refused or timed-out connection (not a concurrency abort): the client is dropped. */
function isConnectionLoss(e: unknown): boolean {
  const r = transientReason(e);
  return r !== null && !r.startsWith('40') && r !== '55P03';
}

/**
 * How soon a connection that stopped answering is noticed: within the lease (at least 5 s).
 * A black-holed connection (bytes held both ways, the socket open) would otherwise wait for
 * TCP's own retransmission timeout — a quarter of an hour — while the worker's leases run out.
 */
export function connectionBoundMs(leaseMs: number): number {
  return Math.max(5_000, leaseMs);
}

/**
 * A client that sends every statement unnamed: behind a transaction pooler the next
 * transaction may run on a server connection where a name is already taken, or was never
 * prepared. Statements are still sent with their parameters apart (the extended protocol).
 */
class UnnamedClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config] = args;
    if (config && typeof config === 'object' && 'name' in config) {
      const { name: _name, ...rest } = config as pg.QueryConfig;
      args[0] = rest;
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

/** The bound of each pool behind a transaction pooler: its transactions set their own idle timeout (see {@link beginSql}). */
const poolerBound = new WeakMap<pg.Pool, number>();

/**
 * A pool for one database URL; sized to the work (a worker's claims, transitions and reads).
 * Timeouts tied to the lease (see docs/internals.md, "Several machines"): TCP keepalive from a third of
 * the bound, a connect and every statement given up client-side after the bound, and on the
 * server a transaction left idle (its client cut off mid-transaction, holding row locks) and
 * unacknowledged data (tcp_user_timeout) ended after the bound, so the locks of a worker cut
 * off never hold the others up for longer. `pooler` (a transaction pooler in between): no
 * startup parameters (PgBouncer refuses them), no named statements, the idle timeout set
 * in each transaction instead (tcp_user_timeout would only watch the pooler's socket).
 */
export function makePool(url: string, o: { max?: number; leaseMs?: number; pooler?: boolean } = {}): pg.Pool {
  const bound = connectionBoundMs(o.leaseMs ?? 30_000);
  const pool = new pg.Pool({
    connectionString: url,
    max: o.max ?? 10,
    idleTimeoutMillis: 10_000,
    types,
    keepAlive: true,
    keepAliveInitialDelayMillis: Math.max(1_000, Math.floor(bound / 3)),
    connectionTimeoutMillis: bound,
    query_timeout: bound,
    ...(o.pooler ? { Client: UnnamedClient } : { idle_in_transaction_session_timeout: bound, options: `-c tcp_user_timeout=${bound}` }),
  });
  if (o.pooler) poolerBound.set(pool, bound);
  // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return pool;
}

/**
 * The statement that opens a transaction on a client of `pool`: BEGIN, and behind a
 * transaction pooler the idle-in-transaction timeout for this transaction only (SET LOCAL:
 * nothing stays on the server connection for the pooler's next client).
 */
export function beginSql(pool: pg.Pool): string {
  const bound = poolerBound.get(pool);
  return bound === undefined ? 'BEGIN' : `BEGIN; SET LOCAL idle_in_transaction_session_timeout = ${bound}`;
}

/**
 * Takes a client from the pool with an error listener for as long as it is out: the pool
 * removes its own on checkout, and a connection reset between two statements of a
 * transaction would otherwise be an unhandled `error` event (a crashed worker).
 */
export async function checkout(pool: pg.Pool): Promise<{ client: pg.PoolClient; done: (err?: unknown) => void }> {
  const client = await pool.connect();
  let broken: unknown = null;
  const onError = (e: unknown): void => {
    broken = e;
  };
  client.on('error', onError);
  let released = false;
  return {
    client,
    done: (err?: unknown) => {
      if (released) return;
      released = true;
      client.removeListener('error', onError);
      // A broken connection is dropped, not handed back to the pool.
      const lost = err !== undefined && err !== null ? isConnectionLoss(err) : broken !== null;
      client.release(lost ? ((err ?? broken) as Error) : undefined);
    },
  };
}

/**
 * Runs `fn` in one transaction (READ COMMITTED; the claim takes row locks of its own), again
 * whole when it failed in passing (see {@link transientReason}), waited out by `wait` (its
 * bound, said once). A connection lost during COMMIT leaves the outcome unknown: the
 * transaction's id, read with BEGIN, is looked up once the database answers again
 * (txid_status) — committed: done, its result handed back; aborted: run again. So a
 * transaction is never applied twice (a decision recorded twice) nor lost.
 */
export async function withTx<T>(pool: pg.Pool, fn: (c: Tx) => Promise<T>, wait: DbWait): Promise<T> {
  return wait.run(async () => {
    const { client: c, done } = await checkout(pool);
    let xid: string | null = null;
    let out: T;
    try {
      const begun = (await c.query(`${beginSql(pool)}; SELECT txid_current()::text AS x`)) as unknown as pg.QueryResult<{ x: string }>[];
      xid = begun.at(-1)!.rows[0]!.x;
      out = await fn(c);
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {});
      done(e);
      throw e;
    }
    try {
      await c.query('COMMIT');
      done();
      return out;
    } catch (e) {
      done(e);
      if (!isConnectionLoss(e)) throw e;
      if ((await commitOutcome(pool, xid, wait)) === 'committed') return out;
      throw e;
    }
  }, transientReason);
}

/** Whether a transaction whose COMMIT got no answer was committed, once the database answers. */
async function commitOutcome(pool: pg.Pool, xid: string | null, wait: DbWait): Promise<'committed' | 'aborted'> {
  if (xid === null) return 'aborted';
  for (let looks = 0; ; looks++) {
    const status = await wait.run(async () => (await pool.query<{ s: string | null }>('SELECT txid_status($1::bigint) AS s', [xid])).rows[0]?.s ?? null, transientReason);
    if (status === 'committed') return 'committed';
    if (status !== 'in progress') return 'aborted';
    // Still running on the server (it has not yet seen the connection go): look again shortly.
    if (looks >= 600) throw new DatabaseWaitError(`the database kept a transaction in progress after its connection was lost (transaction ${xid})`, 'in progress');
    await sleep(100);
  }
}

/** Rewrites a connection failure so no password reaches a message. */
export function connectError(url: string, e: unknown): Error {
  const masked = maskLocation(url);
  const password = safePassword(url);
  let msg = e instanceof Error ? e.message : String(e);
  if (password) msg = msg.split(password).join('***');
  const code = (e as { code?: unknown } | null)?.code;
  return new PostgresConnectError(`cannot use the database ${masked}: ${msg}`, typeof code === 'string' ? code : null);
}

function safePassword(url: string): string | null {
  try {
    const p = decodeURIComponent(new URL(url).password);
    return p || null;
  } catch {
    return null;
  }
}

/**
 * A pool whose every statement waits out failures in passing (see {@link transientReason}):
 * what the store's reads and single-statement writes run on. A statement is run again whole;
 * each of them may be (reads, and writes that set values).
 */
export function waitingQueries(pool: pg.Pool, wait: DbWait): Queryable {
  const query = ((...args: unknown[]) => wait.run(() => (pool.query as (...a: unknown[]) => Promise<unknown>)(...args), transientReason)) as pg.Pool['query'];
  return { query };
}

/** What the store's reads need of a connection: a query. */
export type Queryable = Pick<pg.Pool, 'query'>;
// ---- a connection of its own for LISTEN

/** The channel a person's answer is announced on (payload: the batch id). */
export const ANSWERED_CHANNEL = 'resq_answered';

/** How long to wait before listening again after the connection broke (the runner polls meanwhile). */
const RECONNECT_MS = 2000;

/**
 * One connection of its own (not the pool's) LISTENing on `resq_answered`, shared by every
 * batch the store watches: a person's answer (`resq answer` on any machine) wakes the worker
 * at once. One connect at a time however many subscribe; a broken connection is an event,
 * never an unhandled error, and is replaced while anyone listens; the last unsubscribe and
 * close end it. A missed notification only delays the pick-up to the runner's regular poll.
 */
export class AnswersListener {
  readonly #url: string;
  readonly #subs = new Map<string, Set<() => void>>();
  #client: pg.Client | null = null;
  #connecting: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(url: string) {
    this.#url = url;
  }

  /** Calls `cb` when an item of `batchId` is answered; returns what stops it. */
  subscribe(batchId: string, cb: () => void): () => void {
    let set = this.#subs.get(batchId);
    if (!set) this.#subs.set(batchId, (set = new Set()));
    set.add(cb);
    this.#ensure();
    return () => {
      set.delete(cb);
      if (set.size === 0) this.#subs.delete(batchId);
      if (this.#subs.size === 0) void this.#disconnect();
    };
  }

  /** Resolves once the connection is listening (tests wait on it before answering). */
  async ready(): Promise<void> {
    await this.#connecting;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#subs.clear();
    await this.#disconnect();
  }

  #ensure(): void {
    if (this.#client || this.#connecting || this.#closed) return;
    this.#connecting = this.#connect().finally(() => {
      this.#connecting = null;
    });
  }

  async #connect(): Promise<void> {
    const c = new pg.Client({ connectionString: this.#url, application_name: 'resq-listen' });
    c.on('notification', (m) => {
      if (m.channel !== ANSWERED_CHANNEL || !m.payload) return;
      for (const cb of this.#subs.get(m.payload) ?? []) cb();
    });
    c.on('error', () => this.#broken(c));
    c.on('end', () => this.#broken(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${ANSWERED_CHANNEL}`);
    } catch {
      this.#broken(c);
      return;
    }
    if (this.#closed || this.#subs.size === 0) {
      await c.end().catch(() => {});
      return;
    }
    this.#client = c;
  }

  /** The connection broke: forget it and listen again a little later, while anyone listens. */
  #broken(c: pg.Client): void {
    if (this.#client === c) this.#client = null;
    c.end().catch(() => {});
    if (this.#closed || this.#subs.size === 0 || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#subs.size > 0) this.#ensure();
    }, RECONNECT_MS);
    this.#timer.unref();
  }

  async #disconnect(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#connecting;
    const c = this.#client;
    this.#client = null;
    if (c) await c.end().catch(() => {});
  }
}
