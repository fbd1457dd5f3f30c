import type { ChangedRow, NewItemColumns } from '../shapes.js';

/** The stored fields a grown question set's row is compared with. */
export interface StoredRow {
  line: number;
  question: string;
  threadKey: string | null;
  /** As stored: JSON text. */
  meta: string;
}

/** The first field in which row `k` of `cols` differs from the stored row; null when none does. Pure. */
export function changedRow(stored: StoredRow, cols: NewItemColumns, k: number): ChangedRow | null {
  const field =
    stored.question !== cols.questions[k] ? 'question' : (stored.threadKey ?? null) !== (cols.threads[k] ?? null) ? 'thread' : stored.meta !== cols.metas[k] ? 'meta' : null;
  if (field === null) return null;
  return { id: cols.ids[k]!, line: cols.lines[k]!, storedLine: stored.line, field, storedMeta: stored.meta, meta: cols.metas[k]! };
}
