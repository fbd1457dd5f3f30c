import type { Queryable } from './pool.js';
import { type Clock, isoNow } from '../../clock.js';
import type pg from 'pg';

/** Rows of a query. */
export async function all<T>(c: Queryable, text: string, params: unknown[] = []): Promise<T[]> {
  return (await c.query(text, params)).rows as T[];
}

/** The first row of a query, or null. */
export async function one<T>(c: Queryable, text: string, params: unknown[] = []): Promise<T | null> {
  return ((await c.query(text, params)).rows[0] as T | undefined) ?? null;
}

/** The first column of the first row. */
export async function scalar<T>(c: Queryable, text: string, params: unknown[] = []): Promise<T> {
  const r = await c.query({ text, values: params, rowMode: 'array' });
  return r.rows[0]?.[0] as T;
}

/**
 * Ends a client's transaction once (COMMIT or ROLLBACK) and gives the client back to its
 * pool; later calls do nothing, so an error path and a caller's rollback cannot end it twice.
 */
export function transactionEnd(c: pg.PoolClient): (sql: 'COMMIT' | 'ROLLBACK') => Promise<void> {
  let open = true;
  return async (sql) => {
    if (!open) return;
    open = false;
    try {
      await c.query(sql);
    } finally {
      c.release();
    }
  };
}

/** Current time as ISO 8601, the one timestamp format in the database (the store's clock when given). */
export function nowIso(clock?: Clock): string {
  return isoNow(clock);
}

/** The integer key of a batch inside a statement (`param` its text id): one index lookup, no round trip. */
export const BATCH_NUM = (param: string): string => `(SELECT num FROM batches WHERE id = ${param})`;
