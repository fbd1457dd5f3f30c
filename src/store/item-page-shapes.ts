import type { ItemState } from './types.js';

/** Shapes of the store's read projections for the web view (`resq serve`). */

/** What a scorer version said of an item, as a page filters by it: `unscored` is a completed item it neither passed nor failed. */
export interface VerdictFilter {
  scorer: string;
  version: string;
  is: 'passed' | 'failed' | 'unscored';
}

/** Orders an item page can take; each is walked by a keyset cursor over an index. */
export type ItemSort = 'seq' | 'id' | 'updated';

/** Which items a page of the web view's table shows: every condition given must hold. */
export interface ItemPageQuery {
  states?: readonly ItemState[];
  /** One meta field that must equal this text (a number or boolean compares as its JSON text). */
  meta?: { key: string; value: string };
  /** Case-insensitive text found in the id, question or answer. */
  text?: string;
  /** The items a scorer version passed, failed, or left unscored (completed, with no pass or fail of it). */
  verdict?: VerdictFilter;
  /** @default 'seq' (file order); 'updated' lists items that have started, by their latest change */
  sort?: ItemSort;
  /** Newest / last first. @default false */
  desc?: boolean;
  /** The `next` of the previous page; null or absent: the first page. */
  after?: string | null;
  /** The `prev` of the following page: the items just before it, in the same order (`after` is then not read). */
  before?: string | null;
  /** Items on a page (1–500). */
  limit: number;
}

/** One row of the items table: short cuts of the long texts. */
export interface ItemSummary {
  id: string;
  seq: number;
  state: ItemState;
  /** The first 200 characters. */
  question: string;
  /** The first 200 characters of the answer, or null. */
  answer: string | null;
  runStatus: string | null;
  /** The first 200 characters of the error, or null. */
  error: string | null;
  holdReason: string | null;
  meta: Record<string, unknown>;
  step: number;
  updatedAt: string;
  finishedAt: string | null;
}

/** A page of items and the cursors of the next one (null: this was the last) and of the one before (null: this was the first). */
export interface ItemPage {
  items: ItemSummary[];
  next: string | null;
  prev: string | null;
}

/** A held item waiting for a person, as the batch page's queue shows it. */
export interface HeldItem {
  id: string;
  question: string;
  tool: string | null;
  holdReason: string | null;
  updatedAt: string;
}

/** What the live batch page adds to the store's overview. */
export interface BatchLive {
  /** Runs in flight over every worker. */
  inFlight: number;
  /** The adaptive cap when lowered (HTTP 429), else null. */
  capLimit: number | null;
  /** The first held items in file order. */
  held: HeldItem[];
  /** The first and last finish of the batch's items (from an index: no count), for rate and ETA. */
  span: { first: string | null; last: string | null };
}

/** Runs admitted and finished in one minute (UTC, `YYYY-MM-DDTHH:MM`). */
export interface RunMinute {
  minute: string;
  admitted: number;
  finished: number;
}

/** Keyset cursor of an item page: the sort value and seq of the last row shown. */
export interface PageCursor {
  v: string | number;
  seq: number;
}

/** Encodes a cursor as URL-safe text. */
export function encodeCursor(c: PageCursor): string {
  return Buffer.from(JSON.stringify([c.v, c.seq]), 'utf8').toString('base64url');
}

/** Decodes a cursor; null when it is not one this store made. */
export function decodeCursor(s: string): PageCursor | null {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(v) || v.length !== 2) return null;
    const [a, seq] = v as [unknown, unknown];
    if ((typeof a !== 'string' && typeof a !== 'number') || typeof seq !== 'number' || !Number.isInteger(seq)) return null;
    return { v: a, seq };
  } catch {
    return null;
  }
}

/** Cuts text to `n` characters (null stays null). */
export function cutText(s: string | null, n = 200): string | null {
  return s === null ? null : s.length > n ? `${s.slice(0, n)}…` : s;
}
