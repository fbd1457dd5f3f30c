import type { Queryable } from './pool.js';
import { isoNow } from '../../clock.js';
import type pg from 'pg';
import { UNFINISHED_STATES, sqlStates } from '../item-states.js';
import { itemFromRow, type ItemRow } from '../rows.js';
import type { ItemRecord } from '../types.js';

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

/** Current time as ISO 8601, the one timestamp format in the database. */
export function nowIso(): string {
  return isoNow();
}

/** One item, locked for the rest of the transaction when `lock`. */
export async function getItem(c: Queryable, batchId: string, id: string, lock = false): Promise<ItemRecord | null> {
  const r = await one<ItemRow>(c, `SELECT * FROM items WHERE batch_id = $1 AND id = $2${lock ? ' FOR NO KEY UPDATE' : ''}`, [batchId, id]);
  return r ? itemFromRow(r) : null;
}

/** Columns a transition may change. */
export type ItemPatch = Partial<Record<
  'state' | 'step' | 'pending_key' | 'pending_answer' | 'run_id' | 'thread_id' | 'run_status' | 'text' | 'error' | 'error_code' |
  'hold_reason' | 'started_at' | 'finished_at' | 'owner' | 'lease_until' | 'attempt', unknown>>;

/** Updates columns of one item (objects stored as JSON text), stamping updated_at; returns the item as it is now. */
export async function updateItem(c: pg.ClientBase, batchId: string, id: string, patch: ItemPatch): Promise<ItemRecord> {
  const cols = Object.keys(patch);
  const values = cols.map((k) => {
    const v = patch[k as keyof ItemPatch];
    return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
  });
  const sets = cols.map((k, i) => `${k} = $${i + 1}`).join(', ');
  const n = cols.length;
  const r = await c.query<ItemRow>(
    `UPDATE items SET ${sets}${n ? ', ' : ''}updated_at = $${n + 1} WHERE batch_id = $${n + 2} AND id = $${n + 3} RETURNING *`,
    [...values, nowIso(), batchId, id],
  );
  if (r.rowCount !== 1) throw new Error(`item ${batchId}/${id} not found`);
  return itemFromRow(r.rows[0]!);
}

/** States before the end of an item's life (a thread's later items wait for these). */
export const UNFINISHED = sqlStates(UNFINISHED_STATES);

/** Whether an earlier item of the thread is not yet finished. */
export async function hasUnfinishedBefore(c: pg.ClientBase, batchId: string, threadKey: string, seq: number): Promise<boolean> {
  return (await one(c, `SELECT 1 FROM items WHERE batch_id = $1 AND thread_key = $2 AND seq < $3 AND state IN ${UNFINISHED} LIMIT 1`, [batchId, threadKey, seq])) !== null;
}
