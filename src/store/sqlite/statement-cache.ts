import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';

/** Prepares each SQL text once per connection: repos call `get(sql)` freely on hot paths. */
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
