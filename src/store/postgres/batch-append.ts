import type pg from 'pg';
import { type Clock, isoNow, systemClock } from '../../clock.js';
import type { StoredRow } from '../common/changed-row.js';
import { duplicateInAppend, planAppend } from '../common/append-plan.js';
import type { BatchAppender, NewItemColumns } from '../shapes.js';
import { insertItems } from './batch-load.js';
import { beginSql } from './pool.js';
import { transactionEnd } from './sql.js';

/**
 * Starts appending a grown question set to a batch on a client of its own: one
 * transaction holding the batch's row, so two appends of one batch run one after the other.
 */
export async function beginBatchAppend(pool: pg.Pool, batchId: string, clock: Clock = systemClock): Promise<BatchAppender> {
  const c = await pool.connect();
  // A reset between two statements is the next statement's error, not an unhandled event.
  c.on('error', () => {});
  const end = transactionEnd(c);
  let next: number;
  let num: number;
  try {
    await c.query(beginSql(pool));
    num = Number((await c.query<{ num: number }>('SELECT num FROM batches WHERE id = $1 FOR UPDATE', [batchId])).rows[0]?.num);
    // index items_seq
    const r = await c.query<{ next: number }>('SELECT coalesce(max(seq), -1) + 1 AS next FROM items WHERE batch_num = $1', [num]);
    next = Number(r.rows[0]!.next);
  } catch (e) {
    await end('ROLLBACK');
    throw e;
  }
  const now = isoNow(clock);
  let kept = 0;
  let appended = 0;
  return {
    addColumns: async (cols) => {
      const found = await c.query<StoredRow & { id: string }>(
        // index items_by_id
        'SELECT id, line, question, thread_key AS "threadKey", meta FROM items WHERE batch_num = $1 AND id = ANY($2::text[])',
        [num, cols.ids],
      );
      const stored = new Map(found.rows.map((row) => [row.id, row]));
      const plan = planAppend(cols, (id) => stored.get(id), next);
      next = plan.next;
      kept += plan.kept;
      if (plan.fresh.length > 0) {
        if ((await insertItems(c, num, plan.fresh, now)).length > 0) throw duplicateInAppend();
        appended += plan.fresh.length;
      }
      return plan.changed;
    },
    tally: () => ({ kept, appended }),
    commit: async (invalid, sourceSha256) => {
      await c.query('UPDATE batches SET total_items = total_items + $1, invalid_rows = $2, source_sha256 = $3, updated_at = $4 WHERE id = $5', [
        appended,
        JSON.stringify(invalid),
        sourceSha256,
        isoNow(clock),
        batchId,
      ]);
      await end('COMMIT');
      return { kept, appended };
    },
    rollback: async () => end('ROLLBACK'),
  };
}

/**
 * Appends rows to a batch in one transaction holding the batch's row (a judging made as each
 * answer completes, while the batch's workers run): rows the batch has are kept as they are.
 * Returns how many were new.
 */
export async function appendItems(c: pg.ClientBase, batchId: string, cols: NewItemColumns, clock: Clock = systemClock): Promise<{ appended: number }> {
  // Appends of the batch take turns on its row; its workers' writes (rows that reference it take a
  // key-share lock) are not held up by it, as they would be by FOR UPDATE.
  const row = (await c.query<{ num: number }>('SELECT num FROM batches WHERE id = $1 FOR NO KEY UPDATE', [batchId])).rows[0];
  if (!row) throw new Error(`batch ${batchId} not found`);
  const num = Number(row.num);
  // index items_seq
  const next = Number((await c.query<{ next: number }>('SELECT coalesce(max(seq), -1) + 1 AS next FROM items WHERE batch_num = $1', [num])).rows[0]!.next);
  // index items_by_id
  const found = await c.query<StoredRow & { id: string }>('SELECT id, line, question, thread_key AS "threadKey", meta FROM items WHERE batch_num = $1 AND id = ANY($2::text[])', [num, cols.ids]);
  const stored = new Map(found.rows.map((row) => [row.id, row]));
  const plan = planAppend(cols, (id) => stored.get(id), next);
  if (plan.fresh.length === 0) return { appended: 0 };
  const now = isoNow(clock);
  if ((await insertItems(c, num, plan.fresh, now)).length > 0) throw duplicateInAppend();
  await c.query('UPDATE batches SET total_items = total_items + $1, updated_at = $2 WHERE id = $3', [plan.fresh.length, now, batchId]);
  return { appended: plan.fresh.length };
}
