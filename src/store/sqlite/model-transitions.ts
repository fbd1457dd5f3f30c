import { isoNow } from '../../clock.js';
import type { FinishedModelRun, ModelBatchRecord, ModelRunReport, NewBatch, NewModelRow } from '../shapes.js';
import type { Repos } from './repos.js';

/**
 * The transitions of `models` batches, each run inside one write transaction. A row's
 * state lives in `items` (queued → submitting → running → completed | failed | error) and
 * its request and result in `model_runs`.
 */

/** Records a new batch, its model and every row: all or nothing (inside one transaction). */
export function loadModelBatch(r: Repos, batch: NewBatch, model: Omit<ModelBatchRecord, 'batchId'>, rows: readonly NewModelRow[]): void {
  const now = isoNow(r.clock);
  r.batches.insert(batch);
  r.modelRuns.insertBatch({ ...model, batchId: batch.id });
  rows.forEach((row, seq) => {
    // The inputs stand in for the question, so `resq status` and views show something readable.
    r.items.insert(batch.id, { id: row.id, seq, line: row.line, question: JSON.stringify(row.inputs), threadKey: null, meta: row.meta }, now);
    r.modelRuns.insert(batch.id, row.id, model.modelId, row.inputs);
  });
  r.batches.setLoaded(batch.id, rows.length, []);
}

/** Stores the key before the request that carries it; the row is `submitting`. */
export function markModelSubmitting(r: Repos, batchId: string, itemId: string, key: string, mode: ModelBatchRecord['mode'], resend: boolean): void {
  if (resend) {
    r.modelRuns.countResend(batchId, itemId);
    return;
  }
  const item = r.reads.get(batchId, itemId);
  r.modelRuns.setSubmitting(batchId, itemId, key, mode);
  // A claimed row is in flight (flights.ts): its flight is written; a row sent unclaimed, its own.
  if (r.flights.patch(batchId, itemId, { state: 'submitting', pending_key: key }) === null)
    r.items.update(batchId, itemId, { state: 'submitting', pending_key: key, started_at: item?.startedAt ?? isoNow(r.clock) });
}

/** The service admitted the run and it is still going: the row is `running` with its id. */
export function markModelAdmitted(r: Repos, batchId: string, itemId: string, httpStatus: number, run: ModelRunReport): void {
  r.modelRuns.setAdmitted(batchId, itemId, httpStatus, run);
  const running = { state: 'running', run_id: run.id, run_status: run.status, pending_key: null };
  if (r.flights.patch(batchId, itemId, running) === null) r.items.update(batchId, itemId, running);
}

/** Records a finished run: result, credits, file references and the row's final state. */
export function markModelFinished(r: Repos, batchId: string, itemId: string, run: FinishedModelRun, o: { httpStatus: number | null; failed: boolean; polls: number }): void {
  if (o.httpStatus !== null) r.modelRuns.setAdmitted(batchId, itemId, o.httpStatus, run);
  r.modelRuns.setFinished(batchId, itemId, run, o.polls);
  const seen = new Date(r.clock.now());
  const created = run.createdAt ? new Date(run.createdAt) : null;
  for (const f of run.files) r.files.record(batchId, itemId, run.id, f, seen, created);
  r.flights.land(batchId, itemId, {
    state: o.failed ? 'failed' : 'completed',
    run_id: run.id,
    run_status: run.status,
    pending_key: null,
    error: o.failed ? (run.error ?? `model run ${run.id} ended with status ${run.status}`) : null,
    finished_at: isoNow(r.clock),
  });
}

/** A permanent client-side fault for these inputs: the row ends in `error`. */
export function markModelError(r: Repos, batchId: string, itemId: string, message: string, polls: number): void {
  r.modelRuns.setError(batchId, itemId, message, polls);
  r.flights.land(batchId, itemId, { state: 'error', error: message, pending_key: null, finished_at: isoNow(r.clock) });
}

/** The create request provably never reached the service: the row is `queued` again. */
export function markModelUnsent(r: Repos, batchId: string, itemId: string): void {
  r.flights.land(batchId, itemId, { state: 'queued', pending_key: null });
}
