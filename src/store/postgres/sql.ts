import type { Queryable } from './pool.js';
import type pg from 'pg';

const names = new Map<string, string>();

/**
 * Marks a statement every run sends (a claim's, a transition's): prepared once per connection
 * under a name of its own, so the server parses and plans it once, not on every run. The text
 * is returned as it is; the few shapes a statement takes (the columns a transition sets) each
 * get a name.
 */
export function hot(text: string): string {
  if (!names.has(text)) names.set(text, `resq_${names.size}`);
  return text;
}

/** A statement as sent: by its name when it is {@link hot}. */
function statement(text: string, values: unknown[], rowMode?: 'array'): pg.QueryConfig {
  const name = names.get(text);
  return { ...(name ? { name } : {}), text, values, ...(rowMode ? { rowMode } : {}) };
}

/** Rows of a query. */
export async function all<T>(c: Queryable, text: string, params: unknown[] = []): Promise<T[]> {
  return (await c.query(statement(text, params))).rows as T[];
}

/** The first row of a query, or null. */
export async function one<T>(c: Queryable, text: string, params: unknown[] = []): Promise<T | null> {
  return ((await c.query(statement(text, params))).rows[0] as T | undefined) ?? null;
}

/** The first column of the first row. */
export async function scalar<T>(c: Queryable, text: string, params: unknown[] = []): Promise<T> {
  const r = await c.query(statement(text, params, 'array'));
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

/** The integer key of a batch inside a statement (`param` its text id): common/batch-num.ts, as the SQLite adapter's. */
export { batchNumOf as BATCH_NUM } from '../common/batch-num.js';

/**
 * The statements of a claim and of a transition, each {@link hot}: prepared once per
 * connection. Their texts are constant (or take one of a few shapes): claims.ts,
 * transitions.ts and flights.ts send theirs through these.
 */
export const prepared = {
  all: <T>(c: Queryable, text: string, params: unknown[] = []): Promise<T[]> => all<T>(c, hot(text), params),
  one: <T>(c: Queryable, text: string, params: unknown[] = []): Promise<T | null> => one<T>(c, hot(text), params),
  scalar: <T>(c: Queryable, text: string, params: unknown[] = []): Promise<T> => scalar<T>(c, hot(text), params),
  exec: <T extends pg.QueryResultRow = pg.QueryResultRow>(c: Queryable, text: string, params: unknown[] = []): Promise<pg.QueryResult<T>> =>
    c.query<T>(statement(hot(text), params)),
};
