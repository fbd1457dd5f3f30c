import type { Db } from './database.js';
import { StatementCache } from './statement-cache.js';
import { batchNumOf } from './reads.js';

/** The threads table: which service thread each thread key of a batch opened. */
export class ThreadRepo {
  readonly #sql: StatementCache;
  constructor(db: Db) {
    this.#sql = new StatementCache(db);
  }

  /** The service thread id opened for a thread key, or null before its first run. */
  get(batchId: string, threadKey: string): string | null {
    const r = this.#sql.get(`SELECT thread_id FROM threads WHERE batch_num = ${batchNumOf()} AND thread_key = ?`)
      .get(batchId, threadKey) as { thread_id: string } | undefined;
    return r?.thread_id ?? null;
  }

  /** Records the thread a key opened; the first one recorded wins. */
  set(batchId: string, threadKey: string, threadId: string): void {
    this.#sql.get(`INSERT INTO threads (batch_num, thread_key, thread_id) VALUES (${batchNumOf()}, ?, ?) ON CONFLICT DO NOTHING`)
      .run(batchId, threadKey, threadId);
  }
}
