import type { Database, Statement } from 'better-sqlite3';
import { itemColumns } from '../common/flights.js';
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
