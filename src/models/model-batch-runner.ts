import PQueue from 'p-queue';
import { isModelRunFinished, isRunFailure, type ModelRun, type ServiceClient } from '../api/index.js';
import { InputError } from '../errors.js';
import { idempotencyKey } from '../runner/keys.js';
import type { CreditTotals, ModelRunRecord } from '../store/model-runs.js';
import type { ModelStore } from '../store/model-store.js';
import type { BatchRecord, FileRefInput, ItemRecord, ItemState } from '../store/types.js';
import type { ModelBatchEvent, RowCounts } from './events.js';
import { submitFailure } from './failure-kind.js';
import { fileOutputs } from './file-outputs.js';
import { PollPlan, type PollPlanOptions } from './poll-plan.js';
import { readJob } from './read-job.js';
import { sleepUnlessAborted } from './sleep.js';

/** Options of a model batch run. */
export interface ModelBatchOptions {
  store: ModelStore;
  client: ServiceClient;
  batch: BatchRecord;
  /** Most model runs in flight (submitted and not yet read finished). @default batch.settings.concurrency */
  concurrency?: number;
  /** Re-send rows whose create request has an unknown outcome, with their stored key. @default false */
  resubmitUnknown?: boolean;
  /** Receives progress; must not throw. */
  onEvent?: (e: ModelBatchEvent) => void;
  /** Called once a run's file references are recorded (e.g. to download them). */
  onFiles?: (itemId: string, files: FileRefInput[]) => void;
  /** When running jobs are read. */
  poll?: PollPlanOptions;
  /** Delays before a row whose request failed for a passing reason is sent again. @default [2000, 5000, 15000, 30000] */
  retryLaterMs?: readonly number[];
  /** Failed reads in a row after which a job is left for a later resume. @default 10 */
  maxReadFailures?: number;
}

/** How a model batch run ended. */
export interface ModelBatchResult {
  counts: RowCounts;
  interrupted: boolean;
  /** Rows left unfinished because the service could not be reached. */
  stalled: number;
  /** Set when the batch stopped for a reason that affects every row (e.g. HTTP 401). */
  fatal: Error | null;
  /** Rows whose create request may or may not have started a run (not re-sent without resubmitUnknown). */
  unknown: string[];
  credits: CreditTotals;
}

/** Left for a later resume: nothing to record now. */
class Leave extends Error {}

/**
 * Runs a `models` batch: reads again the jobs that have an id, then sends the rows never
 * admitted, in file order, at most `concurrency` runs in flight. The key is stored
 * before each create request and every answer in one transaction, so a killed process
 * resumes without sending a row twice when its run id was known.
 */
export class ModelBatchRunner {
  readonly #o: ModelBatchOptions;
  readonly #soft = new AbortController();
  readonly #hard = new AbortController();
  readonly #queue: PQueue;
  readonly #plan: PollPlan;
  readonly #admittedAt = new Map<string, number>();
  readonly #modelId: string;
  readonly #mode: 'sync' | 'async' | null;
  #credits = 0;
  #tally: RowCounts = { queued: 0, submitting: 0, running: 0, waiting: 0, held: 0, completed: 0, failed: 0, error: 0 };
  #stalled = 0;
  #fatal: Error | null = null;

  constructor(o: ModelBatchOptions) {
    this.#o = o;
    const mb = o.store.modelRuns.batch(o.batch.id);
    if (!mb) throw new InputError(`batch ${o.batch.name} is not a models batch`);
    this.#modelId = mb.modelId;
    this.#mode = mb.mode;
    this.#queue = new PQueue({ concurrency: o.concurrency ?? o.batch.settings.concurrency });
    this.#plan = new PollPlan(o.poll);
  }

  /** Stops admitting and stops reading; create requests in flight finish and are recorded. */
  stop(): void {
    this.#soft.abort();
    this.#queue.clear();
  }

  /** Also aborts create requests in flight (their outcome becomes unknown). */
  abort(): void {
    this.stop();
    this.#hard.abort();
  }

  #emit(e: ModelBatchEvent): void {
    this.#o.onEvent?.(e);
  }

  #counts(): RowCounts {
    return { ...this.#tally };
  }

  /** Keeps the counts in memory: a GROUP BY per row would cost O(rows) each on big batches. */
  #move(from: ItemState, to: ItemState): void {
    this.#tally[from]--;
    this.#tally[to]++;
  }

  /** Runs until every row is finished (or left unknown), or stop() is called. */
  async run(): Promise<ModelBatchResult> {
    const { batch } = this.#o;
    const items = this.#o.store.store.items;
    this.#credits = this.#o.store.modelRuns.credits(batch.id).spent;
    this.#tally = items.counts(batch.id);
    const resumed = items.list(batch.id, { states: ['running'] });
    const unknown = items.list(batch.id, { states: ['submitting'] });
    this.#emit({
      type: 'start', batch: batch.name, batchId: batch.id, model: this.#modelId, total: batch.totalItems,
      counts: this.#counts(), resumed: resumed.length, unknown: unknown.length, resubmitUnknown: this.#o.resubmitUnknown ?? false,
    });
    if (unknown.length > 0 && !this.#o.resubmitUnknown)
      this.#emit({ type: 'warning', message: `${unknown.length} rows have an unknown submission outcome and are not re-sent (add --resubmit-unknown to re-send them with their stored key): ${unknown.slice(0, 10).map((i) => i.id).join(', ')}${unknown.length > 10 ? ' …' : ''}` });
    const first = [...resumed, ...(this.#o.resubmitUnknown ? unknown : [])];
    for (const it of this.#work(first)) {
      if (this.#soft.signal.aborted) break;
      await this.#queue.onSizeLessThan(this.#queue.concurrency);
      if (this.#soft.signal.aborted) break;
      // A failure outside a row's own handling (the database) is a bug that stops the batch.
      void this.#queue.add(() => this.#drive(it)).catch((e: unknown) => {
        // stop() clears the queue, which rejects the rows still waiting: they simply stay as they are.
        if (!this.#soft.signal.aborted) this.#setFatal(e);
      });
    }
    await this.#queue.onIdle();
    const counts = items.counts(batch.id);
    const left = items.list(batch.id, { states: ['submitting'] }).map((i) => i.id);
    const interrupted = this.#soft.signal.aborted && !this.#fatal;
    const credits = this.#o.store.modelRuns.credits(batch.id);
    this.#emit({ type: 'end', counts, interrupted, stalled: this.#stalled, fatal: this.#fatal?.message ?? null, unknown: left, credits: credits.spent });
    return { counts, interrupted, stalled: this.#stalled, fatal: this.#fatal, unknown: left, credits };
  }

  /** Rows to drive: the given ones, then queued rows in file order, read page by page. */
  *#work(first: ItemRecord[]): Generator<ItemRecord> {
    for (const it of first) yield it;
    let cursor = -1;
    for (;;) {
      const page = this.#o.store.store.items.list(this.#o.batch.id, { states: ['queued'], afterSeq: cursor, limit: 256 });
      if (page.length === 0) return;
      for (const it of page) {
        cursor = it.seq;
        yield it;
      }
    }
  }

  async #drive(start: ItemRecord): Promise<void> {
    const { store, batch } = this.#o;
    const delays = this.#o.retryLaterMs ?? [2000, 5000, 15000, 30000];
    let tries = 0;
    let fresh = false;
    for (;;) {
      if (this.#soft.signal.aborted) return;
      const item = store.store.items.get(batch.id, start.id);
      const mr = store.modelRuns.get(batch.id, start.id);
      if (!item || !mr) throw new Error(`row ${start.id} vanished from the database`);
      try {
        if (item.state === 'queued') {
          store.markSubmitting(batch.id, item.id, mr.idempotencyKey ?? idempotencyKey(batch.id, item.id, 0), this.#mode);
          this.#move('queued', 'submitting');
          fresh = true;
          continue;
        }
        if (item.state === 'submitting') {
          if (!fresh) store.markResending(batch.id, item.id);
          fresh = false;
          await this.#submit(item, mr);
        }
        else if (item.state === 'running') await this.#follow(item, mr);
        else return;
        this.#progress();
      } catch (err) {
        if (err instanceof Leave) return;
        const retry = this.#submitFailed(item, err);
        if (!retry) return;
        if (tries >= delays.length) {
          this.#stalled++;
          this.#emit({ type: 'warning', message: `row ${item.id}: gave up for now (${retry}); run the command again later` });
          return;
        }
        const delayMs = delays[tries++] ?? 30000;
        this.#emit({ type: 'retry-later', id: item.id, delayMs, reason: retry });
        await sleepUnlessAborted(delayMs, this.#soft.signal);
      }
    }
  }

  #progress(): void {
    this.#emit({ type: 'progress', counts: this.#counts(), inFlight: this.#queue.pending, total: this.#o.batch.totalItems, credits: this.#credits });
  }

  /** Sends the create request (the key is already stored) and records the answer. */
  async #submit(item: ItemRecord, mr: ModelRunRecord): Promise<void> {
    const key = mr.idempotencyKey ?? idempotencyKey(item.batchId, item.id, 0);
    const mode = mr.mode ?? this.#mode;
    const body = mode ? { inputs: mr.inputs, mode } : { inputs: mr.inputs };
    // Not the soft signal: a request already sent is let finish so its run id is recorded.
    const { httpStatus, run } = await this.#o.client.runModel(this.#modelId, body, { idempotencyKey: key, signal: this.#hard.signal });
    if (isModelRunFinished(run)) {
      this.#finish(item, run, httpStatus, 0);
      return;
    }
    this.#admittedAt.set(item.id, Date.now());
    this.#o.store.markAdmitted(item.batchId, item.id, httpStatus, report(run));
    this.#move('submitting', 'running');
    this.#emit({ type: 'item', id: item.id, state: 'running', modelRunId: run.id, status: run.status, credits: run.credits });
  }

  /** Reads a running job on the poll plan until it finishes; records the result. */
  async #follow(item: ItemRecord, mr: ModelRunRecord): Promise<void> {
    const id = mr.modelRunId ?? item.runId;
    if (!id) throw new Error(`row ${item.id} is running without a model run id`);
    const r = await readJob({
      client: this.#o.client,
      plan: this.#plan,
      id,
      pollUrl: mr.pollUrl,
      admittedAt: this.#admittedAt.get(item.id) ?? null,
      signal: this.#soft.signal,
      maxFailures: this.#o.maxReadFailures ?? 10,
    });
    switch (r.kind) {
      case 'finished':
        return this.#finish(item, r.run, null, r.reads);
      case 'gone':
        this.#o.store.markError(item.batchId, item.id, r.message, r.reads);
        this.#move(item.state, 'error');
        this.#emit({ type: 'item', id: item.id, state: 'error', modelRunId: id, status: null, credits: null, detail: r.message });
        return;
      case 'unreadable':
        this.#stalled++;
        this.#emit({ type: 'warning', message: `row ${item.id}: ${r.message}; run the command again later` });
        break;
      case 'fatal':
        this.#setFatal(r.error);
        break;
      case 'stopped':
        break;
    }
    this.#o.store.addPolls(item.batchId, item.id, r.reads);
    throw new Leave();
  }

  #finish(item: ItemRecord, run: ModelRun, httpStatus: number | null, polls: number): void {
    const files = fileOutputs(run.outputs, this.#modelId);
    const createdAt = typeof run.created_at === 'string' ? run.created_at : null;
    const failed = isRunFailure(run.status);
    this.#o.store.markFinished(item.batchId, item.id, { ...report(run), files, createdAt }, { httpStatus, failed, polls });
    this.#move(item.state, failed ? 'failed' : 'completed');
    this.#admittedAt.delete(item.id);
    this.#credits += run.credits ?? 0;
    this.#emit({
      type: 'item', id: item.id, state: failed ? 'failed' : 'completed', modelRunId: run.id, status: run.status, credits: run.credits,
      ...(run.error ? { detail: run.error } : {}),
    });
    if (files.length > 0) this.#o.onFiles?.(item.id, files);
  }

  /** Handles a failed create request; returns the reason when the row should be tried again. */
  #submitFailed(item: ItemRecord, err: unknown): string | null {
    const message = err instanceof Error ? err.message : String(err);
    switch (submitFailure(err, this.#hard.signal.aborted)) {
      case 'aborted':
        return null;
      case 'fatal':
        // Every fatal answer (401/403, a certificate) proves the run was not started.
        this.#o.store.markUnsent(item.batchId, item.id);
        this.#move(item.state, 'queued');
        this.#setFatal(err);
        return null;
      case 'unsent':
        this.#o.store.markUnsent(item.batchId, item.id);
        this.#move(item.state, 'queued');
        return message;
      case 'unknown':
        if (this.#o.resubmitUnknown && !this.#soft.signal.aborted) return message;
        this.#emit({ type: 'item', id: item.id, state: 'submitting', modelRunId: null, status: null, credits: null, detail: `outcome unknown: ${message}` });
        return null;
      case 'permanent':
      case 'bug': {
        const final = submitFailure(err, false) === 'bug' ? `internal error: ${message}` : message;
        this.#o.store.markError(item.batchId, item.id, final);
        this.#move(item.state, 'error');
        this.#emit({ type: 'item', id: item.id, state: 'error', modelRunId: null, status: null, credits: null, detail: final });
        return null;
      }
    }
  }

  #setFatal(err: unknown): void {
    if (!this.#fatal) this.#fatal = err instanceof Error ? err : new Error(String(err));
    this.stop();
  }
}

function report(run: ModelRun): { id: string; status: string; outputs: Record<string, unknown> | null; error: string | null; credits: number | null; pollUrl: string | null } {
  return { id: run.id, status: run.status, outputs: run.outputs, error: run.error, credits: run.credits, pollUrl: run.poll_url };
}
