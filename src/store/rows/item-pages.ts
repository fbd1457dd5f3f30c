import type { ItemState } from '../types.js';
import { cutText, encodeCursor, type ItemPage, type ItemPageQuery, type ItemSummary } from '../item-page-shapes.js';

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

/** The next page's cursor from the rows read (one more than the page when there is a next page). */
export function pageOf(rows: SummaryRow[], q: ItemPageQuery): ItemPage {
  const more = rows.length > q.limit;
  const shown = more ? rows.slice(0, q.limit) : rows;
  const last = shown.at(-1);
  const sort = q.sort ?? 'seq';
  const next = more && last ? encodeCursor({ v: sort === 'seq' ? Number(last.seq) : sort === 'id' ? last.id : last.updated_at, seq: Number(last.seq) }) : null;
  return { items: shown.map(summaryFromRow), next };
}



/** Columns of a table row: long texts cut in SQL, so a page never reads whole answers. */
export const SUMMARY_COLS = `id, seq, state, substr(question, 1, 201) AS question, substr(text, 1, 201) AS answer, run_status,
  substr(error, 1, 201) AS error, hold_reason, meta, step, updated_at, finished_at`;
