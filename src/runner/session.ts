import type { ServiceClient } from '../api/index.js';
import { BatchExistsError, formatProblem, InputError, type InputProblem } from '../errors.js';
import type { Downloader, DownloadSummary } from '../files/index.js';
import type { Policy } from '../policy/index.js';
import type { BatchRecord, BatchSettings, BatchStore, ItemRecord, FileStore, OutboxStore, ReadStore, ScoreStore, Store, TransitionStore, WorkerStore } from '../store/index.js';
import type { ScorerSpec } from '../score/types.js';
import type { AlongsideEvent, AlongsideResult, JudgeAlongside } from '../score/judge-alongside.js';
import { SharedSlots } from './shared-slots.js';
import type { SendOptions } from '../notify/worker.js';
import { applyOverrides, type Overrides } from './batch-overrides.js';
import type { RunnerResult } from './batch-runner.js';
import type { RunnerEvent } from './events.js';
import { checkUnchanged, defaultBatchName } from './batch-source.js';
import { readBatchStatus } from '../read/batch-status.js';
import type { BatchStatus } from '../read/status-schema.js';
import { systemClock } from '../clock.js';
import type { HintPlace } from '../text/command-hint.js';
import { fitDescriptors, isLowered } from './descriptor-fit.js';
import { readDescriptorLimit } from './descriptor-limit.js';

/** A question set to run as a batch: loaded as a new batch, or joined when its name exists. */
export interface SessionSource {
  /** Path of the question set (CSV, TSV or JSONL). */
  questions: string;
  /** Batch name. @default the question file's name without extension */
  name?: string | null;
  /** What a new batch is started with (an existing batch keeps its own; see `overrides`). */
  settings: BatchSettings;
  /** Auto-answer policy of a new batch; null holds every pause. */
  policy: Policy | null;
  /** Base URL recorded with a new batch (null for the simulator). */
  baseUrl: string | null;
  /** Load the valid rows and record the invalid ones instead of refusing the file. @default false */
  skipInvalid?: boolean;
  /** The batch exists and its question set grew: append the new rows (rows it has must be unchanged). @default false */
  append?: boolean;
}

/** What the session is about to run, handed to `connect` before anything is recorded. */
export interface SessionPlan {
  /** The batch as recorded, or null when the session will record it once the service answered. */
  batch: BatchRecord | null;
  /** The batch's name. */
  name: string;
  /** The settings it runs with (a recorded batch's, with the overrides applied). */
  settings: BatchSettings;
  /** The base URL given (overrides, then the source), else the batch's stored one; null for none. */
  baseUrl: string | null;
}

/** An open connection to the service, for one session. */
export interface SessionService {
  client: ServiceClient;
  /** One cheap read before anything is recorded: a refused key or an unreachable service ends the session here. */
  check?(): Promise<void>;
  /** Called when the session ends. */
  close?(): Promise<void>;
  /** The service is served by this very process (the built-in simulator): each connection holds two of its open files. @default false */
  sameProcess?: boolean;
}

/** What a session reports besides the runner's events: notices, and its agent judge's progress. */
export type SessionEvent = RunnerEvent | { type: 'notice'; message: string } | AlongsideEvent;

/** The store roles a session uses: a batch loaded or found, its items claimed and moved, its files downloaded, its status read. */
export type SessionStore = BatchStore & WorkerStore & TransitionStore & ReadStore & FileStore & OutboxStore & ScoreStore;

/** Options of {@link runBatchSession}. */
export interface SessionOptions {
  store: SessionStore;
  /** A question set: a new batch, or the one of its name joined. Give this or `batch`. */
  source?: SessionSource;
  /** A recorded batch (its name or id) to resume or join. */
  batch?: string | BatchRecord;
  /** Settings given again (a later run, resume): recorded once the service accepted the key, and reported. */
  overrides?: Overrides;
  /**
   * The service: a client, or a function that opens one for the plan (called before anything
   * is recorded; its `check` runs first, so a refused key leaves nothing behind). Not called
   * for a dry run.
   */
  service: ServiceClient | ((plan: SessionPlan) => Promise<SessionService>);
  /** This worker's download folder, not recorded with the batch. @default the batch's */
  out?: string | null;
  /** Validate and record the batch, send nothing. @default false */
  dryRun?: boolean;
  /** Send at most this many queued items. */
  limit?: number;
  /** Stay while other workers have runs in flight. @default true */
  wait?: boolean;
  /** Lease length of this worker's claims, in ms. @default the runner's */
  leaseMs?: number;
  /** Retry-later delays of the runner. @default the runner's */
  retryLaterMs?: readonly number[];
  /** Stops admitting (runs in flight go on at the service; a later session picks them up). */
  signal?: AbortSignal;
  /** Progress and notices; must not throw. */
  onEvent?: (e: SessionEvent) => void;
  /** How this worker sends the batch's notifications (its secret, its timings), when the batch has receivers. */
  notify?: SendOptions;
  /**
   * The scorers file this process's own command line gave (`--score`): its `command` scorers run
   * here. Absent: the batch's stored scorers, but `command` ones. (Recording them with the batch is `overrides.scorers`.)
   */
  scorers?: ScorerSpec[] | null;
  /** The database the caller was given: the status's suggested command (`next`) carries it as `--db`. */
  hint?: HintPlace;
  /** Most files this process may hold open; null for no limit. @default readDescriptorLimit() */
  descriptorLimit?: number | null;
}

/** How a session ended. */
export interface SessionResult {
  batch: BatchRecord;
  /** The policy the batch ran with. */
  policy: Policy | null;
  /** The runner's result; null for a dry run. */
  run: RunnerResult | null;
  /** What the downloader did; null when the batch does not download (or a dry run). */
  files: DownloadSummary | null;
  /** Counts, held and failed items, files, workers at the end. */
  status: BatchStatus;
  /** Settings changed by the overrides, as recorded (`concurrency: 8 → 16`). */
  changes: string[];
  /** Rows skipped as invalid while loading or appending (with skipInvalid). */
  invalid: InputProblem[];
  /** Whether the batch was there before this session (resumed or joined). */
  existed: boolean;
  /** What its `agent` scorers' judge did beside the run (`<name>.judge`); null when it has none. */
  judging: AlongsideResult | null;
}

async function findBatch(store: BatchStore, o: SessionOptions, name: string): Promise<BatchRecord | null> {
  const b = typeof o.batch === 'object' ? o.batch : await store.findBatch(name);
  if (b && b.kind !== 'runs') throw new InputError(`batch "${b.name}" is a model batch; choose another name with --batch`);
  return b;
}

/**
 * Runs a batch end to end, as `resq run` and `resq resume` do: finds the batch (or plans a
 * new one from a question set), opens the service and checks it, records the batch (a name
 * loaded meanwhile by another process is joined) and the overrides, registers as a worker,
 * runs it with files downloaded as runs make them and the cap lowered on HTTP 429, stops
 * admitting when `signal` aborts, and returns the summary. Never prints, never exits.
 * @throws {InputError} for a bad or changed question set, an unknown batch; whatever `connect` or `check` throw.
 */
export async function runBatchSession(o: SessionOptions): Promise<SessionResult> {
  const { store } = o;
  const emit = (e: SessionEvent): void => o.onEvent?.(e);
  const name = typeof o.batch === 'object' ? o.batch.name : (o.batch ?? o.source?.name ?? (o.source ? defaultBatchName(o.source.questions) : null));
  if (!name) throw new InputError('give a question set or a batch to run');
  let batch = await findBatch(store, o, name);
  if (!batch && !o.source) throw new InputError(`no batch named "${name}"`);
  if (batch && o.source && !o.source.append) await checkUnchanged(batch, o.source.questions);
  // An agent judge's companion batch has no question file: its questions are made from the batch it judges.
  if (batch && !o.source && batch.settings.judgeOf === undefined) await checkUnchanged(batch, batch.sourcePath);
  const planned = batch ? applyOverrides(batch, o.overrides ?? {}) : null;
  const plan: SessionPlan = {
    batch,
    name,
    settings: planned?.settings ?? o.source!.settings,
    baseUrl: o.overrides?.baseUrl ?? (batch ? batch.baseUrl : o.source!.baseUrl),
  };
  const service = o.dryRun ? null : typeof o.service === 'function' ? await o.service(plan) : { client: o.service };
  try {
    // Before anything is recorded: an unreachable service or a refused key ends here.
    await service?.check?.();
    const existed = batch !== null;
    const invalid: InputProblem[] = [];
    if (!batch) {
      try {
        // The table readers load only for a question set read now (a resume reads none).
        const { loadBatch } = await import('./load-batch.js');
        const loaded = await loadBatch({ store, ...o.source!, name, policy: o.source!.policy });
        batch = loaded.batch;
        invalid.push(...loaded.invalid);
        for (const n of loaded.notices) emit({ type: 'notice', message: `notice: ${n}` });
      } catch (e) {
        // Another process loaded the same batch at the same moment: join it.
        if (!(e instanceof BatchExistsError)) throw e;
        batch = await store.findBatch(name);
        if (!batch) throw e;
      }
    } else if (o.source?.append) {
      const { appendToBatch } = await import('./load-batch.js');
      const grown = await appendToBatch({ store, batch, questions: o.source.questions, skipInvalid: o.source.skipInvalid ?? false });
      batch = grown.batch;
      invalid.push(...grown.invalid);
      for (const n of grown.notices) emit({ type: 'notice', message: `notice: ${n}` });
      emit({ type: 'notice', message: `batch ${batch.name}: ${grown.appended} new ${grown.appended === 1 ? 'item' : 'items'} appended (${grown.kept} unchanged)` });
    }
    for (const p of invalid.slice(0, 20)) emit({ type: 'notice', message: `skipped: ${formatProblem(p)}` });
    if (existed && o.source) emit({ type: 'notice', message: `resuming batch ${batch.name} (${batch.totalItems} items)` });
    // The batch keeps what it was started with; settings given again are recorded now the run got going.
    const merged = existed ? applyOverrides(batch, o.overrides ?? {}) : { settings: batch.settings, policy: batch.policy, baseUrl: batch.baseUrl, changes: [] };
    if (merged.changes.length > 0) {
      await store.updateBatchSettings(batch.id, merged.settings, merged.policy, merged.baseUrl);
      batch = (await store.findBatch(batch.id)) ?? batch;
    }
    for (const c of merged.changes) emit({ type: 'notice', message: c });
    const policy = (batch.policy as Policy | null) ?? null;
    const base = { batch, policy, changes: merged.changes, invalid, existed };
    if (!service) return { ...base, run: null, files: null, judging: null, status: await readBatchStatus(store, batch, { nowMs: systemClock.now(), hint: o.hint }) };
    const { run, files, judging } = await runWorker(o, batch, policy, service, emit);
    // Items this worker left queued by its --limit wait for it, as its summary says.
    return { ...base, run, files, judging, status: await readBatchStatus(store, batch, { nowMs: systemClock.now(), hint: o.hint, limit: o.limit }) };
  } finally {
    await service?.close?.();
  }
}

/** One worker on a recorded batch: the runner, the downloader beside it, the stop signal. */
async function runWorker(
  o: SessionOptions,
  batch: BatchRecord,
  policy: Policy | null,
  service: SessionService,
  emit: (e: SessionEvent) => void,
): Promise<{ run: RunnerResult; files: DownloadSummary | null; judging: AlongsideResult | null }> {
  const client = service.client;
  // Loaded when runs are sent: a dry run needs neither the runner nor the client behind it.
  const { BatchRunner } = await import('./batch-runner.js');
  // What this machine allows is known before it is needed: no more runs at once than its open files hold.
  const fit = fitDescriptors(o.descriptorLimit !== undefined ? o.descriptorLimit : readDescriptorLimit(), {
    concurrency: batch.settings.concurrency,
    downloads: batch.settings.download.enabled ? batch.settings.download.concurrency : 0,
    sameProcess: service.sameProcess ?? false,
  });
  if (isLowered(fit)) emit({ type: 'descriptors', concurrency: fit.concurrency, needed: fit.needed, limit: fit.limit!, runs: fit.runs });
  const downloads = await downloaderFor(o, batch, client, emit);
  // Files left pending by an earlier, interrupted run start again at once.
  downloads?.kick(batch);
  // The batch's notifications go out beside the runner, never in its way (notify/sender.ts).
  const notifier = batch.settings.notify
    ? (await import('../notify/worker.js')).startWorkerNotifier(o.store, batch, { ...o.notify, onProblem: (message) => emit({ type: 'warning', message }) })
    : null;
  // Every worker judges what it completes, as it completes (score/worker-scorers.ts); its
  // agent scorers' judgings run beside the answers, under the same cap (score/judge-alongside.ts).
  const { workerScorers, completedScorer, agentScorers } = await import('../score/worker-scorers.js');
  const scoreLocally = completedScorer(o.store as Store, batch.id, workerScorers(batch.settings.scorers, o.scorers), { onProblem: (message) => emit({ type: 'warning', message }) });
  const agents = agentScorers(batch, o.scorers);
  let judge: JudgeAlongside | null = null;
  const slots = agents.length > 0 ? new SharedSlots(() => runner.share) : null;
  const scoreCompleted =
    scoreLocally || slots
      ? async (item: ItemRecord): Promise<void> => {
          await scoreLocally?.(item);
          try {
            await judge?.completed(item);
          } catch (e) {
            // The item stays completed: the next run or `resq score` appends the judging it lacks.
            emit({ type: 'warning', message: `item ${item.id}: its judging was not recorded (${e instanceof Error ? e.message : String(e)}); \`resq score\` or a resume judges it` });
          }
        }
      : null;
  const runner: InstanceType<typeof BatchRunner> = new BatchRunner({
    ...(scoreCompleted ? { scoreCompleted } : {}),
    ...(slots ? { slots } : {}),
    store: o.store,
    client,
    batch,
    policy,
    ...(isLowered(fit) ? { localCap: fit.runs } : {}),
    ...(o.limit !== undefined ? { limit: o.limit } : {}),
    wait: o.wait ?? true,
    ...(o.leaseMs !== undefined ? { leaseMs: o.leaseMs } : {}),
    ...(o.retryLaterMs !== undefined ? { retryLaterMs: o.retryLaterMs } : {}),
    onEvent: (e) => {
      // A finished or paused run may have recorded files: the downloader reads the store cheaply.
      if (e.type === 'item') downloads?.kick(batch);
      emit(e);
    },
  });
  const stop = (): void => {
    runner.stop();
    judge?.stop();
    downloads?.stop();
  };
  if (o.signal?.aborted) stop();
  o.signal?.addEventListener('abort', stop, { once: true });
  let judged = false;
  try {
    if (slots) {
      const { startJudgeAlongside } = await import('../score/judge-alongside.js');
      judge = await startJudgeAlongside({
        store: o.store as Store,
        parent: batch,
        scorers: agents,
        client,
        slots,
        wait: o.wait ?? true,
        ...(o.leaseMs !== undefined ? { leaseMs: o.leaseMs } : {}),
        ...(o.retryLaterMs !== undefined ? { retryLaterMs: o.retryLaterMs } : {}),
        onEvent: emit,
      });
      // Stopped while the judge was being made: it stops too.
      if (o.signal?.aborted) judge.stop();
    }
    const run = await runner.run();
    if (run.interrupted || run.fatal) downloads?.stop();
    // The answers are over: what is left of the judging goes on (all slots are its now), unless the run was stopped.
    judged = true;
    const judging = judge ? await judge.finish(run.interrupted || run.cancelled || run.fatal !== null || (o.signal?.aborted ?? false)) : null;
    const files = (await downloads?.drain()) ?? null;
    return { run, files, judging };
  } finally {
    // A run that threw (or a judge that could not start) leaves no judging and no downloads going on behind it.
    if (!judged) downloads?.stop();
    if (judge && !judged) await judge.finish(true).catch(() => {});
    o.signal?.removeEventListener('abort', stop);
    // What this worker caused goes out before it leaves, for a few seconds at most.
    await notifier?.finish(o.notify?.graceMs);
  }
}

async function downloaderFor(o: SessionOptions, batch: BatchRecord, client: ServiceClient, emit: (e: SessionEvent) => void): Promise<Downloader | null> {
  const d = batch.settings.download;
  if (!d.enabled) return null;
  // Loaded only when the batch downloads: a no-download run never needs files/.
  const { Downloader } = await import('../files/index.js');
  return new Downloader({
    store: o.store,
    client,
    outDir: o.out ?? d.out ?? 'out',
    concurrency: d.concurrency,
    onEvent: (e) => {
      if (e.type === 'file-problem') emit({ type: 'warning', message: `file ${e.fileId} (item ${e.itemId}): ${e.status}: ${e.reason}` });
    },
  });
}
