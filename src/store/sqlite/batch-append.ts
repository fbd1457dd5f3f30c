import { type StoredRow, changedRow } from '../changed-row.js';
import type { BatchAppender, ChangedRow, NewItem } from '../shapes.js';
import { nowIso } from './database.js';
import type { Repos } from './repos.js';

/**
 * Starts appending a grown question set to a batch: one IMMEDIATE transaction (other
 * writers wait) while the file streams; commit or rollback ends it.
 */
export function beginBatchAppend(r: Repos, batchId: string): BatchAppender {
  const db = r.db;
  db.exec('BEGIN IMMEDIATE');
  let next: number;
  try {
    next = db.prepare('SELECT coalesce(max(seq), -1) + 1 FROM items WHERE batch_id = ?').pluck().get(batchId) as number;
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
  const find = db.prepare('SELECT line, question, thread_key AS threadKey, meta FROM items WHERE batch_id = ? AND id = ?');
  const now = nowIso();
  let kept = 0;
  let appended = 0;
  return {
    addColumns: async (cols) => {
      const changed: ChangedRow[] = [];
      const fresh: NewItem[] = [];
      for (let k = 0; k < cols.ids.length; k++) {
        const stored = find.get(batchId, cols.ids[k]) as StoredRow | undefined;
        if (!stored) {
          fresh.push({ id: cols.ids[k]!, seq: next++, line: cols.lines[k]!, question: cols.questions[k]!, threadKey: cols.threads[k] ?? null, meta: cols.metas[k]! });
          continue;
        }
        kept++;
        const c = changedRow(stored, cols, k);
        if (c) changed.push(c);
      }
      if (fresh.length > 0) {
        if (r.items.insertNew(batchId, fresh, now).length > 0) throw new Error('batch append: an id given twice (ids must be unique among the rows given)');
        appended += fresh.length;
      }
      return changed;
    },
    tally: () => ({ kept, appended }),
    commit: async (invalid, sourceSha256) => {
      db.prepare('UPDATE batches SET total_items = total_items + ?, invalid_rows = ?, source_sha256 = ?, updated_at = ? WHERE id = ?').run(
        appended,
        JSON.stringify(invalid),
        sourceSha256,
        nowIso(),
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
