import { type StoredRow, changedRow } from './changed-row.js';
import type { ChangedRow, NewItem, NewItemColumns } from '../shapes.js';

/**
 * The pure piece of appending a grown question set to a batch, shared by both adapters: which
 * rows are new (numbered on from the batch's last seq), which the batch has (kept), and which
 * of those changed. The adapter looks the stored rows up (one by one or in one query) and
 * inserts the fresh ones. No I/O here.
 */
export interface AppendPlan {
  /** Rows the batch does not have, numbered in file order from the batch's next seq. */
  fresh: NewItem[];
  /** Rows the batch has whose question, thread or meta differs from what is stored. */
  changed: ChangedRow[];
  /** How many rows the batch has (changed or not). */
  kept: number;
  /** The seq the next fresh row gets. */
  next: number;
}

/** Splits `cols` into fresh, kept and changed rows; `stored(id)` is the batch's row of that id, if any. */
export function planAppend(cols: NewItemColumns, stored: (id: string) => StoredRow | undefined, nextSeq: number): AppendPlan {
  const fresh: NewItem[] = [];
  const changed: ChangedRow[] = [];
  let kept = 0;
  let next = nextSeq;
  for (let k = 0; k < cols.ids.length; k++) {
    const s = stored(cols.ids[k]!);
    if (!s) {
      fresh.push({ id: cols.ids[k]!, seq: next++, line: cols.lines[k]!, question: cols.questions[k]!, threadKey: cols.threads[k] ?? null, meta: cols.metas[k]!, expectedJson: cols.expecteds?.[k] ?? null });
      continue;
    }
    kept++;
    const c = changedRow(s, cols, k);
    if (c) changed.push(c);
  }
  return { fresh, changed, kept, next };
}

/** The error of an append whose rows give one id twice (the insert refused a fresh row). */
export function duplicateInAppend(): Error {
  return new Error('batch append: an id given twice (ids must be unique among the rows given)');
}
