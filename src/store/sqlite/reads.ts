import { ACTIVE_STATES, ENDED_STATES as ENDED, type ItemState, sqlStates } from '../item-states.js';
import type { RecentFinishes, ThreadWaits } from '../roles/reads.js';
import { threadWaitsOf, threadWaitsSql, type ThreadWaitRow } from '../common/thread-waits.js';
import { type ItemRow, itemFromRow } from '../rows/records.js';
import type { ItemFilter } from '../shapes.js';
import type { Db } from './database.js';
import type { ItemRecord } from '../types.js';
import { StatementCache } from './statement-cache.js';
import { IN_FLIGHT_MARK, itemColumns, queuedRow, stateOf, storedStates, UNFINISHED_ROWS } from '../common/flights.js';
import { batchNumOf } from '../common/batch-num.js';

/** An item as readers see it: its row with its flight (if any) laid over it (src/store/common/flights.ts). */
export const ITEM_FROM = `items i LEFT JOIN flights f ON f.item_key = i.key`;
/** An item's select list: `batch_id` bound (`?`, the first parameter: the id the caller gave) before the row's columns (the rows name their batch by batch_num). */
export const ITEM_SELECT = `SELECT ? AS batch_id, ${itemColumns()} FROM ${ITEM_FROM}`;

// The batch's integer key by its id, inside a statement (common/batch-num.ts); the claim's hot
// statements take the adapter's cached key (batches.ts num).
export { batchNumOf };

/**
 * An item's integer key by its public ids (two parameters: batch id, item id), a seek in the
 * items' (batch_num, id) key, which holds the key.
 */
export const ITEM_KEY = `(SELECT key FROM items WHERE batch_num = ${batchNumOf()} AND id = ?)`;

/** `?` placeholders for `n` values. */
export const marks = (n: number): string => new Array(n).fill('?').join(',');

/** How a read of items in some states finds them ({@link inStates}). */
export type StatesPlan = 'state index' | 'keys' | 'walk';

/**
 * The condition that an item (`i`, its flight `f` LEFT JOINed) is in one of `states` as readers
 * see it, with its arguments, and how SQLite is to find them:
 * - `state index`: no state queued nor in flight; the rows walk items_for_state_pages (the
 *   caller names it), which leaves queued rows out;
 * - `keys`: states in flight but not queued: an item in flight keeps its queued row, out of the
 *   state index, so the items are looked up by key, those at rest through the state index and
 *   those in flight through their flights (the caller writes `+i.batch_num`, so SQLite takes
 *   the keys instead of a walk of the batch);
 * - `walk`: queued among them: the batch in seq order.
 */
export function inStates(states: readonly ItemState[], batchId: string): { where: string; args: unknown[]; plan: StatesPlan } {
  const stored = storedStates(states);
  const where = `i.state IN (${marks(stored.length)}) AND ${stateOf()} IN (${marks(states.length)})`;
  const args: unknown[] = [...stored, ...states];
  if (!stored.includes(IN_FLIGHT_MARK)) return { where: `${where} AND i.state <> 'queued'`, args, plan: 'state index' };
  if (states.includes('queued')) return { where, args, plan: 'walk' };
  const flying = states.filter((s) => ACTIVE_STATES.includes(s));
  return {
    where: `${where} AND i.key IN (SELECT key FROM items INDEXED BY items_for_state_pages WHERE batch_num = ${batchNumOf()} AND state <> 'queued' AND state IN (${marks(states.length)})
      UNION ALL SELECT item_key FROM flights WHERE batch_num = ${batchNumOf()} AND state IN (${marks(flying.length)}))`,
    args: [...args, batchId, ...states, batchId, ...flying],
    plan: 'keys',
  };
}

/** The reads of items, each as readers see it (its flight laid over its row): one, a filtered list, a thread's next, the latest ends. */
export class ItemReads {
  readonly #cache: StatementCache;
  constructor(db: Db) {
    this.#cache = new StatementCache(db);
  }

  #stmt(sql: string): import('better-sqlite3').Statement {
    return this.#cache.get(sql);
  }

  /**
   * One item, or null. Found by its key (ITEM_KEY, a seek in the (batch_num, id) key): with
   * the join's WHERE on batch_num and id instead, SQLite prepares the statement again at every
   * new binding (its planner weighs the bound values): a prepare per read.
   */
  get(batchId: string, id: string): ItemRecord | null {
    const r = this.#stmt(`${ITEM_SELECT} WHERE i.key = ${ITEM_KEY}`).get(batchId, batchId, id) as
      | ItemRow
      | undefined;
    return r ? itemFromRow(r) : null;
  }

  /** Items in file order, filtered. */
  list(batchId: string, f: ItemFilter = {}): ItemRecord[] {
    return [...this.iterate(batchId, f)];
  }

  /** Items in file order, filtered, streamed from SQLite one row at a time. */
  *iterate(batchId: string, f: ItemFilter = {}): Generator<ItemRecord> {
    const where = [`i.batch_num = ${batchNumOf()}`, 'i.seq > ?'];
    const args: unknown[] = [batchId, batchId, f.afterSeq ?? -1];
    let from = ITEM_FROM;
    if (f.states) {
      // Left alone, SQLite walks the whole batch in seq order to spare a sort of the few
      // items in these states (a 1M-item resume read every row): the index or the keys, said outright.
      const s = inStates(f.states, batchId);
      where.push(s.where);
      args.push(...s.args);
      if (s.plan === 'state index') from = 'items i INDEXED BY items_for_state_pages LEFT JOIN flights f ON f.item_key = i.key';
      if (s.plan === 'keys') where[0] = `+i.batch_num = ${batchNumOf()}`;
    }
    if (f.runStatusOtherThan !== undefined) {
      const status = 'CASE WHEN f.item_key IS NULL THEN i.run_status ELSE f.run_status END';
      where.push(`${status} IS NOT NULL AND ${status} <> ?`);
      args.push(f.runStatusOtherThan);
    }
    const limit = f.limit ? ` LIMIT ${Math.floor(f.limit)}` : '';
    const stmt = this.#stmt(`SELECT ? AS batch_id, ${itemColumns()} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY i.seq${limit}`);
    for (const r of stmt.iterate(...args)) yield itemFromRow(r as ItemRow);
  }

  /** Whether an earlier item of the same thread is not yet finished. */
  hasUnfinishedBefore(batchId: string, threadKey: string, seq: number): boolean {
    return (
      this.#stmt(
        `SELECT 1 FROM items INDEXED BY items_for_thread_claim WHERE batch_num = ${batchNumOf()} AND thread_key = ? AND seq < ? AND state IN ${UNFINISHED_ROWS} LIMIT 1`,
      ).get(batchId, threadKey, seq) !== undefined
    );
  }

  /** The first queued item of a thread after `afterSeq`, or null. */
  nextQueuedInThread(batchId: string, threadKey: string, afterSeq: number): ItemRecord | null {
    const r = this.#stmt(
      `SELECT ? AS batch_id, * FROM items INDEXED BY items_for_thread_claim WHERE batch_num = ${batchNumOf()} AND thread_key = ? AND seq > ? AND ${queuedRow('items')} ORDER BY seq LIMIT 1`,
    ).get(batchId, batchId, threadKey, afterSeq) as ItemRow | undefined;
    return r ? itemFromRow(r) : null;
  }

  /** The latest items that ended (not cancelled) and their runs' times, for rate and ETA; none that ended unwatched (its end is when resq found it). */
  recentFinishes(batchId: string, limit: number): RecentFinishes {
    const latest = `SELECT id, finished_at FROM items INDEXED BY items_for_rate WHERE batch_num = ${batchNumOf('@b')} AND finished_at IS NOT NULL AND state IN ${sqlStates(ENDED)}
                      AND NOT EXISTS (SELECT 1 FROM runs u WHERE u.batch_num = items.batch_num AND u.item_id = items.id AND u.unwatched = 1)
                    ORDER BY finished_at DESC, seq DESC LIMIT @n`;
    const items = this.#stmt(latest).all({ b: batchId, n: limit }) as { id: string; finished_at: string }[];
    const runs = this.#stmt(
      `SELECT created_at AS createdAt, finished_at AS finishedAt FROM runs
       WHERE batch_num = ${batchNumOf('@b')} AND finished_at IS NOT NULL AND item_id IN (SELECT id FROM (${latest}))`,
    ).all({ b: batchId, n: limit }) as RecentFinishes['runs'];
    return { finishedAt: items.map((r) => r.finished_at), runs };
  }

  /** Queued items waiting behind an unfinished earlier item of their thread: counted by its state, the first `limit` listed. */
  threadWaits(batchId: string, limit: number, o: { itemId?: string; heldOnly?: boolean } = {}): ThreadWaits {
    const waits = threadWaitsSql(batchNumOf('@b'), { item: o.itemId === undefined ? undefined : '@i', heldOnly: o.heldOnly });
    const args = { b: batchId, ...(o.itemId === undefined ? {} : { i: o.itemId }) };
    const counts = this.#stmt(`SELECT behind_state AS state, COUNT(*) AS n FROM (${waits}) GROUP BY behind_state`).all(args) as { state: string; n: number }[];
    const rows = limit > 0 ? (this.#stmt(`SELECT * FROM (${waits}) ORDER BY seq LIMIT @n`).all({ ...args, n: limit }) as ThreadWaitRow[]) : [];
    return threadWaitsOf(counts, rows);
  }
}
