import type { StoredRow } from '../common/changed-row.js';
import { duplicateInAppend, planAppend } from '../common/append-plan.js';
import type { BatchAppender, NewItemColumns } from '../shapes.js';
import { isoNow } from '../../clock.js';
import type { SqliteContext } from './database.js';
import { batchNumOf } from './statement-cache.js';
import { insertItems } from './batch-load.js';

/**
 * Starts appending a grown question set to a batch: one IMMEDIATE transaction (other
 * writers wait) while the file streams; commit or rollback ends it.
 */
export function beginBatchAppend(cx: SqliteContext, batchId: string): BatchAppender {
  const db = cx.db;
  db.exec('BEGIN IMMEDIATE');
  let next: number;
  try {
    next = db.prepare(`SELECT coalesce(max(seq), -1) + 1 FROM items INDEXED BY items_for_claim WHERE batch_num = ${batchNumOf()}`).pluck().get(batchId) as number;
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
  const find = db.prepare(`SELECT line, question, thread_key AS threadKey, meta FROM items WHERE batch_num = ${batchNumOf()} AND id = ?`);
  const now = isoNow(cx.clock);
  let kept = 0;
  let appended = 0;
  return {
    addColumns: async (cols) => {
      const plan = planAppend(cols, (id) => find.get(batchId, id) as StoredRow | undefined, next);
      next = plan.next;
      kept += plan.kept;
      if (plan.fresh.length > 0) {
        if (insertItems(cx, batchId, plan.fresh, now).length > 0) throw duplicateInAppend();
        appended += plan.fresh.length;
      }
      return plan.changed;
    },
    tally: () => ({ kept, appended }),
    commit: async (invalid, sourceSha256) => {
      db.prepare('UPDATE batches SET total_items = total_items + ?, invalid_rows = ?, source_sha256 = ?, updated_at = ? WHERE id = ?').run(
        appended,
        JSON.stringify(invalid),
        sourceSha256,
        isoNow(cx.clock),
        batchId,
      );
      db.exec('COMMIT');
      return { kept, appended };
    },
    rollback: async () => {
      if (db.inTransaction) db.exec('ROLLBACK');
    },
  };
}

/**
 * Appends rows to a batch in one write of the store's write group (a judging made as each
 * answer completes, while the batch's workers run): rows the batch has are kept as they are.
 * Returns how many were new.
 */
export function appendItems(cx: SqliteContext, batchId: string, cols: NewItemColumns): { appended: number } {
  if (cx.stmt.get('SELECT 1 FROM batches WHERE id = ?').pluck().get(batchId) === undefined) throw new Error(`batch ${batchId} not found`);
  const next = cx.stmt.get(`SELECT coalesce(max(seq), -1) + 1 FROM items INDEXED BY items_for_claim WHERE batch_num = ${batchNumOf()}`).pluck().get(batchId) as number;
  const find = cx.stmt.get(`SELECT line, question, thread_key AS threadKey, meta FROM items WHERE batch_num = ${batchNumOf()} AND id = ?`);
  const plan = planAppend(cols, (id) => find.get(batchId, id) as StoredRow | undefined, next);
  if (plan.fresh.length === 0) return { appended: 0 };
  const now = isoNow(cx.clock);
  if (insertItems(cx, batchId, plan.fresh, now).length > 0) throw duplicateInAppend();
  cx.stmt.get('UPDATE batches SET total_items = total_items + ?, updated_at = ? WHERE id = ?').run(plan.fresh.length, now, batchId);
  return { appended: plan.fresh.length };
}
