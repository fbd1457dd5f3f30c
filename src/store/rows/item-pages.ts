import type { ItemState } from '../types.js';
import { cutText, decodeCursor, encodeCursor, type ItemPage, type ItemPageQuery, type ItemSummary } from '../item-page-shapes.js';

/** Rows of the web view's item table as both adapters read them, and their pages. */

/** An items-table row as SELECTed by either adapter (long texts cut to 201 characters). */
export interface SummaryRow {
  id: string;
  seq: number;
  state: ItemState;
  question: string;
  answer: string | null;
  run_status: string | null;
  error: string | null;
  hold_reason: string | null;
  meta: string;
  step: number;
  updated_at: string;
  finished_at: string | null;
}

/** Maps a table row of either adapter to its summary. */
export function summaryFromRow(r: SummaryRow): ItemSummary {
  return {
    id: r.id,
    seq: Number(r.seq),
    state: r.state,
    question: cutText(r.question)!,
    answer: cutText(r.answer),
    runStatus: r.run_status,
    error: cutText(r.error),
    holdReason: r.hold_reason,
    meta: JSON.parse(r.meta) as Record<string, unknown>,
    step: Number(r.step),
    updatedAt: r.updated_at,
    finishedAt: r.finished_at,
  };
}

/** The sort column of each order. */
export const SORT_COLUMN = { seq: 'seq', id: 'id', updated: 'updated_at' } as const;

/** Whether a query asks for the page before a cursor (one this store made). */
const backwards = (q: ItemPageQuery): boolean => Boolean(q.before && decodeCursor(q.before));

/** The query an adapter reads: a page before a cursor is read from it the other way round ({@link pageOf} turns it back). */
export function readQuery(q: ItemPageQuery): ItemPageQuery {
  return backwards(q) ? { ...q, desc: !q.desc, after: q.before ?? null, before: null } : { ...q, before: null };
}

/** The page of the rows an adapter read for {@link readQuery}`(q)` (one more than the page when there are more that way), with both cursors. */
export function pageOf(rows: SummaryRow[], q: ItemPageQuery): ItemPage {
  const more = rows.length > q.limit;
  const read = more ? rows.slice(0, q.limit) : rows;
  const sort = q.sort ?? 'seq';
  const cursor = (r: SummaryRow | undefined): string | null =>
    r ? encodeCursor({ v: sort === 'seq' ? Number(r.seq) : sort === 'id' ? r.id : r.updated_at, seq: Number(r.seq) }) : null;
  if (backwards(q)) {
    const shown = [...read].reverse();
    return { items: shown.map(summaryFromRow), next: cursor(shown.at(-1)), prev: more ? cursor(shown[0]) : null };
  }
  const after = Boolean(q.after && decodeCursor(q.after));
  return { items: read.map(summaryFromRow), next: more ? cursor(read.at(-1)) : null, prev: after ? cursor(read[0]) : null };
}

/** Columns of a table row: long texts cut in SQL, so a page never reads whole answers. */
export const SUMMARY_COLS = `id, seq, state, substr(question, 1, 201) AS question, substr(text, 1, 201) AS answer, run_status,
  substr(error, 1, 201) AS error, hold_reason, meta, step, updated_at, finished_at`;
