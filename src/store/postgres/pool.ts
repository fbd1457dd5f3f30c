import pg from 'pg';
import { ResqError } from '../../errors.js';
import { maskLocation } from '../open.js';

// int8 (count(*), BIGINT, BIGSERIAL) and numeric (sum of BIGINT) as numbers: every such
// value resq stores (ms timestamps, byte sizes, counts) is far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/** A client inside one transaction. */
export type Tx = pg.PoolClient;

/** The database could not be reached or refused us: said with the URL's password masked. */
export class PostgresConnectError extends ResqError {
  override readonly code: string = 'RESQ_DATABASE';
}

/** SQLSTATEs of a transaction the server gave up on for concurrency: run it again. */
const RETRY = new Set(['40001', '40P01', '55P03']);

function isRetryable(e: unknown): boolean {
  return RETRY.has(String((e as { code?: unknown } | null)?.code ?? ''));
}

/** A pool for one database URL; sized to the work (a worker's claims, transitions and reads). */
export function makePool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 10_000 });
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
  return new PostgresConnectError(`cannot use the database ${masked}: ${msg}`, { cause: undefined });
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
 * Runs `fn` in one transaction (READ COMMITTED; the claim takes row locks of its own), and
 * again when the server aborted it for a deadlock or a serialization failure: a busy
 * database is waited on, never an item's failure.
 */
export async function withTx<T>(pool: pg.Pool, fn: (c: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      const out = await fn(c);
      await c.query('COMMIT');
      return out;
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {});
      if (!isRetryable(e) || attempt >= 20) throw e;
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * Math.min(500, 5 * 2 ** attempt))));
    } finally {
      c.release();
    }
  }
}
