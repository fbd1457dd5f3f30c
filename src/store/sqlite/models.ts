import { isoNow } from '../../clock.js';
import { type ItemRow, itemFromRow, type ModelRunRow, modelRunFromRow } from '../rows/records.js';
import type { CreditTotals, FinishedModelRun, ModelBatchRecord, ModelRunRecord, ModelRunReport } from '../shapes.js';
import type { ItemRecord } from '../types.js';
import type { SqliteContext } from './database.js';
import { batchNumOf } from './statement-cache.js';
import { getItem, landFlight, patchFlight, updateItem } from './flights.js';
import { recordFile } from './files.js';

/**
 * Models batches, SQLite adapter: the model_batches and model_runs tables, and the transitions
 * of a models batch's rows, each run inside one write transaction. A row's state lives in
 * `items` (queued → submitting → running → completed | failed | error) and its request and
 * result in `model_runs`. Loading one: batch-load.ts `loadModelBatch`.
 */

/** The model of a batch, or null for a batch of another kind. */
export function modelBatch(cx: SqliteContext, batchId: string): ModelBatchRecord | null {
  const r = cx.stmt.get(`SELECT ? AS batch_id, * FROM model_batches WHERE batch_num = ${batchNumOf()}`).get(batchId, batchId) as
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
export function setModelMode(cx: SqliteContext, batchId: string, mode: ModelBatchRecord['mode']): void {
  cx.stmt.get(`UPDATE model_batches SET mode = ? WHERE batch_num = ${batchNumOf()}`).run(mode, batchId);
}

/** One row, or null. */
export function modelRun(cx: SqliteContext, batchId: string, itemId: string): ModelRunRecord | null {
  const r = cx.stmt.get(`SELECT ? AS batch_id, * FROM model_runs WHERE batch_num = ${batchNumOf()} AND item_id = ?`).get(batchId, batchId, itemId) as
    | ModelRunRow
    | undefined;
  return r ? modelRunFromRow(r) : null;
}

/** A models batch's rows with their model runs, a page at a time in file order. */
export function modelRuns(cx: SqliteContext, batchId: string, afterSeq: number, limit: number): { item: ItemRecord; run: ModelRunRecord }[] {
  const rows = cx.db
    .prepare(
      `SELECT i.*, ? AS batch_id, m.model_id, m.inputs, m.mode, m.idempotency_key, m.submits, m.model_run_id,
              m.http_status, m.status, m.poll_url, m.outputs, m.error AS m_error, m.credits, m.polls, m.submitted_at,
              m.admitted_at, m.finished_at AS m_finished_at
       FROM items i JOIN model_runs m ON m.batch_num = i.batch_num AND m.item_id = i.id
       WHERE i.batch_num = ${batchNumOf()} AND i.seq > ? ORDER BY i.seq LIMIT ?`,
    )
    .all(batchId, batchId, afterSeq, limit) as (ItemRow & Record<string, unknown>)[];
  return rows.map((r) => ({
    item: itemFromRow(r),
    run: modelRunFromRow({ ...(r as unknown as ModelRunRow), batch_id: batchId, item_id: r.id, error: r.m_error as string | null, finished_at: r.m_finished_at as string | null }),
  }));
}

/** Stores the key (and mode) before the request that carries it. */
function setSubmitting(cx: SqliteContext, batchId: string, itemId: string, key: string, mode: ModelBatchRecord['mode']): void {
  cx.stmt.get(
    `UPDATE model_runs SET idempotency_key = ?, mode = ?, submits = submits + 1, submitted_at = ?
     WHERE batch_num = ${batchNumOf()} AND item_id = ?`,
  ).run(key, mode, isoNow(cx.clock), batchId, itemId);
}

/** Counts a re-send of the stored request. */
function countResend(cx: SqliteContext, batchId: string, itemId: string): void {
  cx.stmt.get(`UPDATE model_runs SET submits = submits + 1, submitted_at = ? WHERE batch_num = ${batchNumOf()} AND item_id = ?`).run(isoNow(cx.clock), batchId, itemId);
}

/** Stores what the create request answered. */
function setAdmitted(cx: SqliteContext, batchId: string, itemId: string, httpStatus: number, run: ModelRunReport): void {
  cx.stmt.get(
    `UPDATE model_runs SET model_run_id = ?, http_status = ?, status = ?, poll_url = ?, credits = ?, admitted_at = ?
     WHERE batch_num = ${batchNumOf()} AND item_id = ?`,
  ).run(run.id, httpStatus, run.status, run.pollUrl, run.credits, isoNow(cx.clock), batchId, itemId);
}

/** Stores a finished run's result; `polls` reads are added to the count. */
function setFinished(cx: SqliteContext, batchId: string, itemId: string, run: ModelRunReport, polls: number): void {
  cx.stmt.get(
    `UPDATE model_runs SET status = ?, outputs = ?, error = ?, credits = ?, polls = polls + ?, finished_at = ?
     WHERE batch_num = ${batchNumOf()} AND item_id = ?`,
  ).run(
    run.status,
    run.outputs == null ? null : JSON.stringify(run.outputs),
    run.error,
    run.credits,
    polls,
    isoNow(cx.clock),
    batchId,
    itemId,
  );
}

/** Stores a client-side failure (the service refused the request, or a bug). */
function setError(cx: SqliteContext, batchId: string, itemId: string, message: string, polls: number): void {
  cx.stmt.get(
    `UPDATE model_runs SET error = ?, polls = polls + ?, finished_at = ? WHERE batch_num = ${batchNumOf()} AND item_id = ?`,
  ).run(message, polls, isoNow(cx.clock), batchId, itemId);
}

/** Adds reads of a run still going (kept across resumes). */
export function addModelPolls(cx: SqliteContext, batchId: string, itemId: string, polls: number): void {
  if (polls > 0)
    cx.stmt.get(`UPDATE model_runs SET polls = polls + ? WHERE batch_num = ${batchNumOf()} AND item_id = ?`).run(polls, batchId, itemId);
}

/** Credits spent by a batch's finished runs. */
export function modelCredits(cx: SqliteContext, batchId: string): CreditTotals {
  const r = cx.stmt.get(
    `SELECT coalesce(sum(credits), 0) AS spent,
            sum(CASE WHEN credits IS NULL AND status IS NOT NULL AND status <> 'running' THEN 1 ELSE 0 END) AS unreported
     FROM model_runs WHERE batch_num = ${batchNumOf()}`,
  ).get(batchId) as { spent: number; unreported: number | null };
  return { spent: r.spent, unreported: r.unreported ?? 0 };
}

/** Reads of the service made for a batch's runs. */
export function modelPolls(cx: SqliteContext, batchId: string): number {
  return cx.stmt.get(`SELECT coalesce(sum(polls), 0) FROM model_runs WHERE batch_num = ${batchNumOf()}`).pluck().get(batchId) as number;
}

/** Stores the key before the request that carries it; the row is `submitting`. */
export function markModelSubmitting(cx: SqliteContext, batchId: string, itemId: string, key: string, mode: ModelBatchRecord['mode'], resend: boolean): void {
  if (resend) {
    countResend(cx, batchId, itemId);
    return;
  }
  const item = getItem(cx, batchId, itemId);
  setSubmitting(cx, batchId, itemId, key, mode);
  // A claimed row is in flight (flights.ts): its flight is written; a row sent unclaimed, its own.
  if (patchFlight(cx, batchId, itemId, { state: 'submitting', pending_key: key }) === null)
    updateItem(cx, batchId, itemId, { state: 'submitting', pending_key: key, started_at: item?.startedAt ?? isoNow(cx.clock) });
}

/** The service admitted the run and it is still going: the row is `running` with its id. */
export function markModelAdmitted(cx: SqliteContext, batchId: string, itemId: string, httpStatus: number, run: ModelRunReport): void {
  setAdmitted(cx, batchId, itemId, httpStatus, run);
  const running = { state: 'running', run_id: run.id, run_status: run.status, pending_key: null };
  if (patchFlight(cx, batchId, itemId, running) === null) updateItem(cx, batchId, itemId, running);
}

/** Records a finished run: result, credits, file references and the row's final state. */
export function markModelFinished(cx: SqliteContext, batchId: string, itemId: string, run: FinishedModelRun, o: { httpStatus: number | null; failed: boolean; polls: number }): void {
  if (o.httpStatus !== null) setAdmitted(cx, batchId, itemId, o.httpStatus, run);
  setFinished(cx, batchId, itemId, run, o.polls);
  const seen = new Date(cx.clock.now());
  const created = run.createdAt ? new Date(run.createdAt) : null;
  for (const f of run.files) recordFile(cx, batchId, itemId, run.id, f, seen, created);
  landFlight(cx, batchId, itemId, {
    state: o.failed ? 'failed' : 'completed',
    run_id: run.id,
    run_status: run.status,
    pending_key: null,
    error: o.failed ? (run.error ?? `model run ${run.id} ended with status ${run.status}`) : null,
    finished_at: isoNow(cx.clock),
  });
}

/** A permanent client-side fault for these inputs: the row ends in `error`. */
export function markModelError(cx: SqliteContext, batchId: string, itemId: string, message: string, polls: number): void {
  setError(cx, batchId, itemId, message, polls);
  landFlight(cx, batchId, itemId, { state: 'error', error: message, pending_key: null, finished_at: isoNow(cx.clock) });
}

/** The create request provably never reached the service: the row is `queued` again. */
export function markModelUnsent(cx: SqliteContext, batchId: string, itemId: string): void {
  landFlight(cx, batchId, itemId, { state: 'queued', pending_key: null });
}
