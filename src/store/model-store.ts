import type { NewBatch } from './batches.js';
import { nowIso } from './database.js';
import { type ModelBatchRecord, type ModelRunReport, ModelRunRepo } from './model-runs.js';
import type { Store } from './store.js';
import type { FileRefInput } from './types.js';

/** One valid input row of a `models` batch. */
export interface NewModelRow {
  id: string;
  line: number;
  /** Inputs as they will be sent (coerced to the declared types). */
  inputs: Record<string, unknown>;
  meta: Record<string, unknown>;
}

/** A finished model run as the store keeps it. */
export interface FinishedModelRun extends ModelRunReport {
  /** File references found in the outputs. */
  files: FileRefInput[];
  /** The run's creation time when the service gave one (file expiry counts from it). */
  createdAt: string | null;
}

/**
 * Named, transactional operations of `models` batches. A row's state lives in `items`
 * (queued → submitting → running → completed | failed | error, as for agent runs) and its
 * request and result in `model_runs`; every change of both is one transaction.
 */
export class ModelStore {
  readonly store: Store;
  readonly modelRuns: ModelRunRepo;

  constructor(store: Store) {
    this.store = store;
    this.modelRuns = new ModelRunRepo(store.db);
  }

  /** Records a new batch, its model and every row in one transaction: all or nothing. */
  loadBatch(batch: NewBatch, model: Omit<ModelBatchRecord, 'batchId'>, rows: readonly NewModelRow[]): void {
    const now = nowIso();
    this.store.tx(() => {
      this.store.batches.insert(batch);
      this.modelRuns.insertBatch({ ...model, batchId: batch.id });
      rows.forEach((r, seq) => {
        this.store.items.insert(
          batch.id,
          // The inputs stand in for the question, so `resq status` and views show something readable.
          { id: r.id, seq, line: r.line, question: JSON.stringify(r.inputs), threadKey: null, meta: r.meta },
          now,
        );
        this.modelRuns.insert(batch.id, r.id, model.modelId, r.inputs);
      });
      this.store.batches.setLoaded(batch.id, rows.length, []);
    });
  }

  /** Stores the idempotency key before the request that carries it; the row is `submitting`. */
  markSubmitting(batchId: string, itemId: string, key: string, mode: ModelBatchRecord['mode']): void {
    this.store.tx(() => {
      const item = this.store.items.get(batchId, itemId);
      this.modelRuns.setSubmitting(batchId, itemId, key, mode);
      this.store.items.update(batchId, itemId, { state: 'submitting', pending_key: key, started_at: item?.startedAt ?? nowIso() });
    });
  }

  /** Counts one more send of a row whose earlier request has an unknown outcome (same key). */
  markResending(batchId: string, itemId: string): void {
    this.modelRuns.countResend(batchId, itemId);
  }

  /** The service admitted the run and it is still going: the row is `running` with its id. */
  markAdmitted(batchId: string, itemId: string, httpStatus: number, run: ModelRunReport): void {
    this.store.tx(() => {
      this.modelRuns.setAdmitted(batchId, itemId, httpStatus, run);
      this.store.items.update(batchId, itemId, { state: 'running', run_id: run.id, run_status: run.status, pending_key: null });
    });
  }

  /**
   * Records a finished run (answered inline when `httpStatus` is given, else read by a poll):
   * result, credits, file references and the row's final state, in one transaction.
   */
  markFinished(batchId: string, itemId: string, run: FinishedModelRun, o: { httpStatus: number | null; failed: boolean; polls: number }): void {
    this.store.tx(() => {
      if (o.httpStatus !== null) this.modelRuns.setAdmitted(batchId, itemId, o.httpStatus, run);
      this.modelRuns.setFinished(batchId, itemId, run, o.polls);
      const seen = new Date();
      const created = run.createdAt ? new Date(run.createdAt) : null;
      for (const f of run.files) this.store.files.record(batchId, itemId, run.id, f, seen, created);
      this.store.items.update(batchId, itemId, {
        state: o.failed ? 'failed' : 'completed',
        run_id: run.id,
        run_status: run.status,
        pending_key: null,
        error: o.failed ? (run.error ?? `model run ${run.id} ended with status ${run.status}`) : null,
        finished_at: nowIso(),
      });
    });
  }

  /** A permanent client-side fault (e.g. HTTP 400 for these inputs): the row ends in `error`. */
  markError(batchId: string, itemId: string, message: string, polls = 0): void {
    this.store.tx(() => {
      this.modelRuns.setError(batchId, itemId, message, polls);
      this.store.items.update(batchId, itemId, { state: 'error', error: message, pending_key: null, finished_at: nowIso() });
    });
  }

  /** The create request provably never reached the service: the row is `queued` again. */
  markUnsent(batchId: string, itemId: string): void {
    this.store.tx(() => this.store.items.update(batchId, itemId, { state: 'queued', pending_key: null }));
  }

  /** Keeps the reads made of a run still going when a batch stops. */
  addPolls(batchId: string, itemId: string, polls: number): void {
    this.modelRuns.addPolls(batchId, itemId, polls);
  }
}
