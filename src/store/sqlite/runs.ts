import { type RunRow, runFromRow } from '../rows.js';
import type { AdmittedRun } from '../shapes.js';
import type { Db } from './database.js';
import { type Clock, isoNow } from '../../clock.js';
import type { RunRecord } from '../types.js';
import { StatementCache } from './statement-cache.js';
import { batchNumOf } from './reads.js';
import type { RunErrorColumns } from '../run-failure.js';
import type { RunTimes } from '../run-times.js';




/** The runs table: every run of every item's chain, with parent links. */
export class RunRepo {
  readonly #sql: StatementCache;
  readonly #clock: Clock;
  constructor(db: Db, clock: Clock) {
    this.#sql = new StatementCache(db);
    this.#clock = clock;
  }

  /** Records an admitted run; a replayed admission (same id) changes nothing. */
  insert(batchId: string, itemId: string, run: AdmittedRun): void {
    this.#sql.get(
        `INSERT INTO runs (id, batch_num, item_id, step, parent_run_id, idempotency_key, status, thread_id, created_at)
         VALUES (?, ${batchNumOf()}, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`,
      )
      .run(run.id, batchId, itemId, run.step, run.parentRunId, run.idempotencyKey, run.status, run.threadId, isoNow(this.#clock));
  }

  /** Records what a finished (or paused) run said. */
  finish(
    id: string,
    status: string,
    requiredAction: unknown,
    output: unknown,
    failure: RunErrorColumns = { error_code: null, error: null },
    times: RunTimes = { serviceSeconds: null, unwatched: false },
  ): void {
    const now = isoNow(this.#clock);
    // Its length: the service's own when it sent its times, else resq's own, unless it ended unwatched.
    this.#sql.get(
        `UPDATE runs SET status = ?, required_action = ?, output = ?, error_code = ?, error = ?, finished_at = ?, unwatched = ?,
           seconds = CASE WHEN ? IS NOT NULL THEN ? WHEN ? = 1 THEN NULL ELSE max(0, round((julianday(?) - julianday(created_at)) * 86400, 3)) END
         WHERE id = ?`,
      )
      .run(
        status,
        requiredAction == null ? null : JSON.stringify(requiredAction),
        output == null ? null : JSON.stringify(output),
        failure.error_code,
        failure.error,
        now,
        times.unwatched ? 1 : 0,
        times.serviceSeconds,
        times.serviceSeconds,
        times.unwatched ? 1 : 0,
        now,
        id,
      );
  }

  /** One run, or null. */
  get(id: string): RunRecord | null {
    const r = this.#sql.get('SELECT r.*, b.id AS batch_id FROM runs r JOIN batches b ON b.num = r.batch_num WHERE r.id = ?').get(id) as RunRow | undefined;
    return r ? runFromRow(r) : null;
  }

  /** An item's chain, first run first. */
  chain(batchId: string, itemId: string): RunRecord[] {
    return (
      this.#sql.get(`SELECT ? AS batch_id, * FROM runs WHERE batch_num = ${batchNumOf()} AND item_id = ? ORDER BY rowid`)
        .all(batchId, batchId, itemId) as RunRow[]
    ).map(runFromRow);
  }
}
