import pg from 'pg';
import { sleep } from '../../clock.js';
import { ResqError } from '../../errors.js';
import { maskLocation } from '../location.js';

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
 * Run it again: a transaction the server gave up on for concurrency (serialization failure,
 * deadlock, lock not available), or a connection lost or refused while the server restarts
 * (admin shutdown, connection failures, a reset socket). A busy or restarting database is
 * waited on, never an item's failure.
 */
const RETRY = new Set(['40001', '40P01', '55P03', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE']);

function isRetryable(e: unknown): boolean {
  return RETRY.has(String((e as { code?: unknown } | null)?.code ?? ''));
}

/** A pool for one database URL; sized to the work (a worker's claims, transitions and reads). */
export function makePool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 10_000, types });
  // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return pool;
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

/** Whether the error is of a lost or refused connection (not a concurrency abort). */
function isConnectionLoss(e: unknown): boolean {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  return code.startsWith('08') || code.startsWith('57P') || code.startsWith('E');
}

/**
 * Runs `fn` in one transaction (READ COMMITTED; the claim takes row locks of its own), and
 * again when the server aborted it for a deadlock or a serialization failure, or the
 * connection was lost before COMMIT was sent: a busy or restarting database is waited on,
 * never an item's failure. A connection lost during COMMIT is not retried (the commit may
 * have happened; running the change twice could record a decision twice): it is thrown.
 */
export async function withTx<T>(pool: pg.Pool, fn: (c: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let c: pg.PoolClient | null = null;
    let committing = false;
    try {
      c = await pool.connect();
      await c.query('BEGIN');
      const out = await fn(c);
      committing = true;
      await c.query('COMMIT');
      c.release();
      return out;
    } catch (e) {
      if (c) {
        await c.query('ROLLBACK').catch(() => {});
        // A broken connection is dropped, not returned to the pool.
        c.release(isConnectionLoss(e) ? (e as Error) : undefined);
      }
      if (!isRetryable(e) || attempt >= 20 || (committing && isConnectionLoss(e))) throw e;
      await sleep(Math.floor(Math.random() * Math.min(500, 5 * 2 ** attempt)));
    }
  }
}
