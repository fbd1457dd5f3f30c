import { type ModelRunRow, modelRunFromRow } from '../rows/records.js';
import type { CreditTotals, ModelBatchRecord, ModelRunRecord, ModelRunReport } from '../shapes.js';
import type { Db } from './database.js';
import { type Clock, isoNow } from '../../clock.js';
import { StatementCache } from './statement-cache.js';
import { batchNumOf } from './reads.js';







/** The model_batches and model_runs tables. Plain statements: the model store wraps them in transactions. */
export class ModelRunRepo {
  readonly #cache: StatementCache;
  readonly #clock: Clock;
  constructor(db: Db, clock: Clock) {
    this.#cache = new StatementCache(db);
    this.#clock = clock;
  }

  #stmt(sql: string): import('better-sqlite3').Statement {
    return this.#cache.get(sql);
  }

  /** Records the model of a new batch. */
  insertBatch(b: ModelBatchRecord): void {
    this.#stmt(`INSERT INTO model_batches (batch_num, model_id, mode, description) VALUES (${batchNumOf()}, ?, ?, ?)`).run(
      b.batchId,
      b.modelId,
      b.mode,
      JSON.stringify(b.description),
    );
  }

  /** The model of a batch, or null for a batch of another kind. */
  batch(batchId: string): ModelBatchRecord | null {
    const r = this.#stmt(`SELECT ? AS batch_id, * FROM model_batches WHERE batch_num = ${batchNumOf()}`).get(batchId, batchId) as
      | { batch_id: string; model_id: string; mode: string | null; description: string }
      | undefined;
    if (!r) return null;
    return {
      batchId: r.batch_id,
      modelId: r.model_id,
      mode: r.mode as ModelBatchRecord['mode'],
      description: JSON.parse(r.description) as Record<string, unknown>,
    };
  }

  /** Changes the mode used for rows not yet sent (a resume with another --mode). */
  setMode(batchId: string, mode: ModelBatchRecord['mode']): void {
    this.#stmt(`UPDATE model_batches SET mode = ? WHERE batch_num = ${batchNumOf()}`).run(mode, batchId);
  }

  /** Adds one row (inside the load transaction). */
  insert(batchId: string, itemId: string, modelId: string, inputs: Record<string, unknown>): void {
    this.#stmt(`INSERT INTO model_runs (batch_num, item_id, model_id, inputs) VALUES (${batchNumOf()}, ?, ?, ?)`).run(
      batchId,
      itemId,
      modelId,
      JSON.stringify(inputs),
    );
  }

  /** One row, or null. */
  get(batchId: string, itemId: string): ModelRunRecord | null {
    const r = this.#stmt(`SELECT ? AS batch_id, * FROM model_runs WHERE batch_num = ${batchNumOf()} AND item_id = ?`).get(batchId, batchId, itemId) as
      | ModelRunRow
      | undefined;
    return r ? modelRunFromRow(r) : null;
  }

  /** Stores the key (and mode) before the request that carries it. */
  setSubmitting(batchId: string, itemId: string, key: string, mode: ModelBatchRecord['mode']): void {
    this.#stmt(
      `UPDATE model_runs SET idempotency_key = ?, mode = ?, submits = submits + 1, submitted_at = ?
       WHERE batch_num = ${batchNumOf()} AND item_id = ?`,
    ).run(key, mode, isoNow(this.#clock), batchId, itemId);
  }

  /** Counts a re-send of the stored request. */
  countResend(batchId: string, itemId: string): void {
    this.#stmt(`UPDATE model_runs SET submits = submits + 1, submitted_at = ? WHERE batch_num = ${batchNumOf()} AND item_id = ?`).run(isoNow(this.#clock), batchId, itemId);
  }

  /** Stores what the create request answered. */
  setAdmitted(batchId: string, itemId: string, httpStatus: number, run: ModelRunReport): void {
    this.#stmt(
      `UPDATE model_runs SET model_run_id = ?, http_status = ?, status = ?, poll_url = ?, credits = ?, admitted_at = ?
       WHERE batch_num = ${batchNumOf()} AND item_id = ?`,
    ).run(run.id, httpStatus, run.status, run.pollUrl, run.credits, isoNow(this.#clock), batchId, itemId);
  }

  /** Stores a finished run's result; `polls` reads are added to the count. */
  setFinished(batchId: string, itemId: string, run: ModelRunReport, polls: number): void {
    this.#stmt(
      `UPDATE model_runs SET status = ?, outputs = ?, error = ?, credits = ?, polls = polls + ?, finished_at = ?
       WHERE batch_num = ${batchNumOf()} AND item_id = ?`,
    ).run(
      run.status,
      run.outputs == null ? null : JSON.stringify(run.outputs),
      run.error,
      run.credits,
      polls,
      isoNow(this.#clock),
      batchId,
      itemId,
    );
  }

  /** Stores a client-side failure (the service refused the request, or a bug). */
  setError(batchId: string, itemId: string, message: string, polls: number): void {
    this.#stmt(
      `UPDATE model_runs SET error = ?, polls = polls + ?, finished_at = ? WHERE batch_num = ${batchNumOf()} AND item_id = ?`,
    ).run(message, polls, isoNow(this.#clock), batchId, itemId);
  }

  /** Adds reads of a run still going (kept across resumes). */
  addPolls(batchId: string, itemId: string, polls: number): void {
    if (polls > 0)
      this.#stmt(`UPDATE model_runs SET polls = polls + ? WHERE batch_num = ${batchNumOf()} AND item_id = ?`).run(polls, batchId, itemId);
  }

  /** Credits spent by a batch's finished runs. */
  credits(batchId: string): CreditTotals {
    const r = this.#stmt(
      `SELECT coalesce(sum(credits), 0) AS spent,
              sum(CASE WHEN credits IS NULL AND status IS NOT NULL AND status <> 'running' THEN 1 ELSE 0 END) AS unreported
       FROM model_runs WHERE batch_num = ${batchNumOf()}`,
    ).get(batchId) as { spent: number; unreported: number | null };
    return { spent: r.spent, unreported: r.unreported ?? 0 };
  }

  /** Reads of the service made for a batch's runs. */
  pollCount(batchId: string): number {
    return this.#stmt(`SELECT coalesce(sum(polls), 0) FROM model_runs WHERE batch_num = ${batchNumOf()}`).pluck().get(batchId) as number;
  }
}
