import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';

/**
 * Prepares each SQL text once per connection: repos call `get(sql)` freely on hot paths.
 * Prepared once is not compiled once when a LIMIT is bound (`LIMIT ?`): SQLite prepares such
 * a statement again at every call (the value may change its plan), an order of magnitude
 * more than one with the number written in. A hot path writes its limit
 * into the text (one statement per value; the claim's page does, see claims.ts); the reads
 * that run once a second or per page (the orphan scan, the web view, exports) keep theirs.
 */
export class StatementCache {
  readonly #db: Db;
  readonly #stmts = new Map<string, Statement>();
  constructor(db: Db) {
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
