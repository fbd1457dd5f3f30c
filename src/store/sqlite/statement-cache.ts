import type { Database, Statement } from 'better-sqlite3';
import { IN_FLIGHT_MARK, itemColumns, stateOf, storedStates } from '../common/flights.js';
import { ACTIVE_STATES, type ItemState } from '../item-states.js';
import { batchNumOf } from '../common/batch-num.js';

/**
 * Prepares each SQL text once per connection: operations call `get(sql)` freely on hot paths.
 * Prepared once is not compiled once when a LIMIT is bound (`LIMIT ?`): SQLite prepares such
 * a statement again at every call (the value may change its plan), an order of magnitude
 * more than one with the number written in. A hot path writes its limit
 * into the text (one statement per value; the claim's page does, see claims.ts); the reads
 * that run once a second or per page (the orphan scan, the web view, exports) keep theirs.
 */
export class StatementCache {
  readonly #db: Database;
  readonly #stmts = new Map<string, Statement>();
  constructor(db: Database) {
    this.#db = db;
  }

  /** The prepared statement for `sql`. */
  get(sql: string): Statement {
    let s = this.#stmts.get(sql);
    if (!s) {
      s = this.#db.prepare(sql);
      this.#stmts.set(sql, s);
    }
    return s;
  }
}

// The SQL texts the operations share.

/** An item as readers see it: its row with its flight (if any) laid over it (src/store/common/flights.ts). */
export const ITEM_FROM = `items i LEFT JOIN flights f ON f.item_key = i.key`;
/** An item's select list: `batch_id` bound (`?`, the first parameter: the id the caller gave) before the row's columns (the rows name their batch by batch_num). */
export const ITEM_SELECT = `SELECT ? AS batch_id, ${itemColumns()} FROM ${ITEM_FROM}`;

// The batch's integer key by its id, inside a statement (common/batch-num.ts); the claim's hot
// statements take the adapter's cached key (database.ts batchNum).
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
