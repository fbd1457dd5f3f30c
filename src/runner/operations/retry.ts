import { InputError } from '../../errors.js';
import { TERMINAL_STATES } from '../../store/item-states.js';
import type { BatchRecord, ItemState, ReadStore, TransitionStore } from '../../store/index.js';

/** Which finished items a retry takes. */
export interface RetrySelection {
  /** Items whose run failed. */
  failed?: boolean;
  /** Items that ended in error (refused requests). */
  errored?: boolean;
  /** Items that were cancelled (undoing a mistaken cancel). */
  cancelled?: boolean;
  /** These items, whatever they ended in (with no state flag), else only those in the states flagged. */
  items?: readonly string[] | null;
}

/** Which finished states a retry takes: the ones flagged; else every finished state for named items, else failed and errored. */
export function retryStates(s: RetrySelection): ItemState[] {
  const states: ItemState[] = [];
  if (s.failed) states.push('failed');
  if (s.errored) states.push('error');
  if (s.cancelled) states.push('cancelled');
  if (states.length > 0) return states;
  return s.items?.length ? [...TERMINAL_STATES] : ['failed', 'error'];
}

/** A state a retry may take items from, as the page and `resq retry` name them. */
export type RetryState = 'failed' | 'error' | 'cancelled';

/**
 * The selection of `resq retry` and of the page's retry, from the states asked for and the
 * items named: no state asked means failed and errored items, or, with items named, those
 * items whatever they ended in (see {@link retryStates}).
 */
export function retrySelection(o: { states?: readonly RetryState[] | null; items?: readonly string[] | null }): RetrySelection {
  const states = o.states ?? [];
  return {
    ...(states.includes('failed') ? { failed: true } : {}),
    ...(states.includes('error') ? { errored: true } : {}),
    ...(states.includes('cancelled') ? { cancelled: true } : {}),
    ...(o.items?.length ? { items: o.items } : {}),
  };
}

/** What a retry queued. */
export interface RetryReport {
  batch: string;
  /** Ids of the items queued again as new attempts. */
  moved: string[];
}

/**
 * Queues finished items of a batch again as new attempts (earlier attempts stay in the
 * history); a runner on the batch (a session, `resq resume`) then runs them. Named items
 * the batch does not have are refused, all of them in one {@link InputError}, before anything changes.
 */
export async function retryItems(store: ReadStore & TransitionStore, batch: BatchRecord, s: RetrySelection = {}): Promise<RetryReport> {
  const ids = s.items?.length ? [...s.items] : null;
  if (ids) {
    const missing: string[] = [];
    for (const id of ids) if (!(await store.getItem(batch.id, id))) missing.push(id);
    if (missing.length) throw new InputError(`batch "${batch.name}" has no item ${missing.map((m) => `"${m}"`).join(', ')}`);
  }
  return { batch: batch.name, moved: await store.requeue(batch.id, ids, retryStates(s)) };
}
