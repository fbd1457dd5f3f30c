import { isModelRunFinished, isRunFailure, type ModelRun, type ServiceClient } from '../api/index.js';
import { type Clock, systemClock } from '../clock.js';
import { InputError } from '../errors.js';
import { errorKind } from '../runner/error-kind.js';
import { isTryLater, Scheduler, tryLater, type StepContext, type TryLater } from '../runner/scheduler.js';
import { StateTally } from '../runner/state-tally.js';
import { type BatchRecord, type CreditTotals, type FileRefInput, idempotencyKey, type ItemRecord, type ModelBatchRecord, type ModelStore, type ReadStore, type WorkerStore } from '../store/index.js';
import type { ModelBatchEvent, RowCounts } from './events.js';
import { submitFailure } from './failure-kind.js';
import { fileOutputs } from './file-outputs.js';
import { PollPlan, type PollPlanOptions } from './poll-plan.js';
import { readJob } from './read-job.js';

/** Options of a model batch run. */
export interface ModelBatchOptions {
  store: ModelStore & WorkerStore & ReadStore;
  client: ServiceClient;
  batch: BatchRecord;
  /** Most model runs in flight (submitted and not yet read finished) over all workers. @default batch.settings.concurrency */
  concurrency?: number;
  /** Re-send rows whose create request has an unknown outcome, with their stored key. @default false */
  resubmitUnknown?: boolean;
  /** Receives progress; must not throw. */
  onEvent?: (e: ModelBatchEvent) => void;
  /** Called once a run's file references are recorded (e.g. to download them). */
  onFiles?: (itemId: string, files: FileRefInput[]) => void;
  /** When running jobs are read. */
  poll?: PollPlanOptions;
  /** Delays before a row whose request failed for a passing reason is sent again (as for agent runs). @default DEFAULT_RETRY_LATER_MS */
  retryLaterMs?: readonly number[];
  /** Failed reads in a row after which a job is left for a later resume. @default 10 */
  maxReadFailures?: number;
  /** Lease length. @default 30000 */
  leaseMs?: number;
  /** Time: waits, leases, retry-later and the poll plan's job ages. @default systemClock */
  clock?: Clock;
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

/**
 * Runs a `models` batch as one worker on the one scheduler: claims rows under the batch's
 * cap, sends each (its key stored first), reads running jobs until they finish. The model
 * service does not promise idempotent creates, so a row whose create outcome is unknown is
 * re-sent only with `resubmitUnknown`, and such rows are never taken over from another worker.
 */
export class ModelBatchRunner {
  readonly #o: ModelBatchOptions;
  readonly #hard = new AbortController();
  readonly #plan: PollPlan;
  readonly #clock: Clock;
  readonly #admittedAt = new Map<string, number>();
  /** Rows whose last create surely did not arrive (or may be re-sent): their next send is safe. */
  readonly #resendable = new Set<string>();
  #model: ModelBatchRecord | null = null;
  #scheduler: Scheduler | null = null;
  #tally: StateTally | null = null;
  #credits = 0;
  #stalled = 0;
  #stopped = false;

  constructor(o: ModelBatchOptions) {
    this.#o = o;
    this.#clock = o.clock ?? systemClock;
    this.#plan = new PollPlan(o.poll);
  }

  /** Stops admitting and stops reading; create requests in flight finish and are recorded. */
  stop(): void {
    this.#stopped = true;
    this.#scheduler?.stop();
  }

  /** Also aborts create requests in flight (their outcome becomes unknown). */
  abort(): void {
    this.stop();
    this.#hard.abort();
  }

  #emit(e: ModelBatchEvent): void {
    if (e.type === 'item') this.#tally?.move(e.id, e.state);
    this.#o.onEvent?.(e);
  }

  /** Runs until every row is finished (or left unknown), or stop() is called. */
  async run(): Promise<ModelBatchResult> {
    const { store, batch } = this.#o;
    this.#model = await store.modelBatch(batch.id);
    if (!this.#model) throw new InputError(`batch ${batch.name} is not a models batch`);
    this.#credits = (await store.modelCredits(batch.id)).spent;
    const counts = await store.itemCounts(batch.id);
    this.#tally = new StateTally(counts);
    const resubmit = this.#o.resubmitUnknown ?? false;
    const unknown = (await store.listItems(batch.id, { states: ['submitting'] })).filter((i) => i.owner === null);
    this.#emit({
      type: 'start', batch: batch.name, batchId: batch.id, model: this.#model.modelId, total: batch.totalItems,
      counts: this.#tally.counts, resumed: counts.running, unknown: unknown.length, resubmitUnknown: resubmit,
    });
    if (unknown.length > 0 && !resubmit)
      this.#emit({ type: 'warning', message: `${unknown.length} rows have an unknown submission outcome and are not re-sent (add --resubmit-unknown to re-send them with their stored key): ${unknown.slice(0, 10).map((i) => i.id).join(', ')}${unknown.length > 10 ? ' …' : ''}` });
    if (resubmit) for (const it of unknown) this.#resendable.add(it.id);
    this.#scheduler = new Scheduler({
      store,
      batch,
      cap: this.#o.concurrency ?? batch.settings.concurrency,
      step: (item, ctx) => this.#step(item, ctx),
      classify: errorKind,
      markError: async (item, message) => {
        await store.markModelError(item.batchId, item.id, message);
        this.#emit({ type: 'item', id: item.id, state: 'error', modelRunId: null, status: null, credits: null, detail: message });
      },
      onEvent: (e) => {
        if (e.type === 'retry-later' || e.type === 'warning' || e.type === 'cap') this.#emit(e);
        else if (e.type === 'tick') this.#progress();
      },
      // Progress after each row, as before the scheduler: the last report is the batch's end state.
      onLeave: () => this.#progress(),
      retryLaterMs: this.#o.retryLaterMs,
      clock: this.#clock,
      leaseMs: this.#o.leaseMs,
      takeOver: resubmit ? ['submitting', 'running'] : ['running'],
    });
    if (this.#stopped) this.#scheduler.stop();
    // The service's 429s on model-run creates lower the cap, as for agent runs.
    const stopThrottle = this.#o.client.onThrottle((e) => e.admission && this.#scheduler?.throttled());
    let r;
    try {
      r = await this.#scheduler.run();
    } finally {
      stopThrottle();
    }
    const end = await store.itemCounts(batch.id);
    const left = (await store.listItems(batch.id, { states: ['submitting'] })).map((i) => i.id);
    const interrupted = r.interrupted || (this.#stopped && !r.fatal);
    const credits = await store.modelCredits(batch.id);
    const stalled = r.stalled + this.#stalled;
    this.#emit({ type: 'end', counts: end, interrupted, stalled, fatal: r.fatal?.message ?? null, unknown: left, credits: credits.spent });
    return { counts: end, interrupted, stalled, fatal: r.fatal, unknown: left, credits };
  }

  #progress(): void {
    if (!this.#tally || !this.#scheduler) return;
    this.#emit({ type: 'progress', counts: this.#tally.counts, inFlight: this.#scheduler.inFlight, total: this.#o.batch.totalItems, credits: this.#credits });
  }

  async #step(item: ItemRecord, ctx: StepContext): Promise<ItemRecord | TryLater | null> {
    this.#tally?.track(item.id, ctx.fresh ? 'queued' : item.state);
    if (ctx.fresh) this.#emit({ type: 'item', id: item.id, state: 'submitting', modelRunId: null, status: null, credits: null });
    if (item.state === 'submitting') {
      const sent = await this.#submit(item, ctx.fresh || this.#resendable.has(item.id));
      // A create the service did not act on (or may be sent again) is tried later.
      if (isTryLater(sent)) return sent;
      if (sent !== 'running') return sent === 'left' ? null : this.#o.store.getItem(item.batchId, item.id);
    }
    const now = await this.#o.store.getItem(item.batchId, item.id);
    if (!now || now.state !== 'running') return now;
    return this.#follow(now, ctx);
  }

  /** Sends a row's create request once (its key stored first); returns where the row is now. */
  async #submit(item: ItemRecord, safe: boolean): Promise<'running' | 'finished' | 'left' | TryLater> {
    const { store, client } = this.#o;
    const model = this.#model!;
    const mr = await store.modelRun(item.batchId, item.id);
    if (!mr) throw new Error(`row ${item.id} has no model run record`);
    if (!safe) return 'left';
    const key = mr.idempotencyKey ?? item.pendingKey ?? idempotencyKey(item.batchId, item.id, 0, item.attempt);
    const mode = mr.mode ?? model.mode;
    await store.markModelSubmitting(item.batchId, item.id, key, mode, mr.idempotencyKey !== null);
    this.#resendable.delete(item.id);
    try {
      const body = mode ? { inputs: mr.inputs, mode } : { inputs: mr.inputs };
      const { httpStatus, run } = await client.runModel(model.modelId, body, { idempotencyKey: key, signal: this.#hard.signal });
      if (isModelRunFinished(run)) {
        await this.#finish(item, run, httpStatus, 0);
        return 'finished';
      }
      this.#admittedAt.set(item.id, this.#clock.now());
      await store.markModelAdmitted(item.batchId, item.id, httpStatus, report(run));
      this.#emit({ type: 'item', id: item.id, state: 'running', modelRunId: run.id, status: run.status, credits: run.credits });
      return 'running';
    } catch (err) {
      return this.#submitFailed(item, err);
    }
  }

  async #submitFailed(item: ItemRecord, err: unknown): Promise<'left' | 'finished' | TryLater> {
    const { store } = this.#o;
    const message = err instanceof Error ? err.message : String(err);
    switch (submitFailure(err, this.#hard.signal.aborted)) {
      case 'aborted':
        return 'left';
      case 'fatal':
        // Every fatal answer (401/403, a certificate) proves the run was not started.
        await store.markModelUnsent(item.batchId, item.id);
        this.#emit({ type: 'item', id: item.id, state: 'queued', modelRunId: null, status: null, credits: null });
        throw err;
      case 'unsent':
        this.#resendable.add(item.id);
        return tryLater(message);
      case 'unknown':
        if (this.#o.resubmitUnknown && !this.#stopped) {
          this.#resendable.add(item.id);
          return tryLater(message);
        }
        this.#emit({ type: 'item', id: item.id, state: 'submitting', modelRunId: null, status: null, credits: null, detail: `outcome unknown: ${message}` });
        return 'left';
      case 'permanent':
      case 'bug': {
        const final = submitFailure(err, false) === 'bug' ? `internal error: ${message}` : message;
        await store.markModelError(item.batchId, item.id, final);
        this.#emit({ type: 'item', id: item.id, state: 'error', modelRunId: null, status: null, credits: null, detail: final });
        return 'finished';
      }
    }
  }

  async #follow(item: ItemRecord, ctx: StepContext): Promise<ItemRecord | null> {
    const { store } = this.#o;
    const mr = await store.modelRun(item.batchId, item.id);
    const id = mr?.modelRunId ?? item.runId;
    if (!mr || !id) throw new Error(`row ${item.id} is running without a model run id`);
    const r = await readJob({
      client: this.#o.client,
      plan: this.#plan,
      id,
      pollUrl: mr.pollUrl,
      admittedAt: this.#admittedAt.get(item.id) ?? null,
      signal: ctx.signal,
      maxFailures: this.#o.maxReadFailures ?? 10,
      clock: this.#clock,
    });
    switch (r.kind) {
      case 'finished':
        ctx.release();
        await this.#finish(item, r.run, null, r.reads);
        return store.getItem(item.batchId, item.id);
      case 'gone':
        await store.markModelError(item.batchId, item.id, r.message, r.reads);
        this.#emit({ type: 'item', id: item.id, state: 'error', modelRunId: id, status: null, credits: null, detail: r.message });
        return store.getItem(item.batchId, item.id);
      case 'unreadable':
        this.#stalled++;
        this.#emit({ type: 'warning', message: `row ${item.id}: ${r.message}; run the command again later` });
        break;
      case 'fatal':
        await store.addModelPolls(item.batchId, item.id, r.reads);
        throw r.error;
      case 'stopped':
        break;
    }
    await store.addModelPolls(item.batchId, item.id, r.reads);
    return null;
  }

  async #finish(item: ItemRecord, run: ModelRun, httpStatus: number | null, polls: number): Promise<void> {
    const model = this.#model!;
    const files = fileOutputs(run.outputs, model.modelId);
    const createdAt = typeof run.created_at === 'string' ? run.created_at : null;
    const failed = isRunFailure(run.status);
    await this.#o.store.markModelFinished(item.batchId, item.id, { ...report(run), files, createdAt }, { httpStatus, failed, polls });
    this.#admittedAt.delete(item.id);
    this.#credits += run.credits ?? 0;
    this.#emit({
      type: 'item', id: item.id, state: failed ? 'failed' : 'completed', modelRunId: run.id, status: run.status, credits: run.credits,
      ...(run.error ? { detail: run.error } : {}),
    });
    if (files.length > 0) this.#o.onFiles?.(item.id, files);
  }
}

function report(run: ModelRun): { id: string; status: string; outputs: Record<string, unknown> | null; error: string | null; credits: number | null; pollUrl: string | null } {
  return { id: run.id, status: run.status, outputs: run.outputs, error: run.error, credits: run.credits, pollUrl: run.poll_url };
}
