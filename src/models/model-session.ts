import type { ServiceClient } from '../api/index.js';
import type { DownloadEvent, DownloadSummary } from '../files/index.js';
import type { BatchRecord, BatchSettings, BatchStore, FileStore, ModelStore, OutboxStore, ReadStore, ScoreStore, WorkerStore } from '../store/index.js';
import type { SendOptions } from '../notify/worker.js';
import { notifyOver } from '../store/notify-settings.js';
import type { ModelBatchEvent } from './events.js';
import { openModelBatch } from './load-model-batch.js';
import { ModelBatchRunner, type ModelBatchResult } from './model-batch-runner.js';
import { modelBatchStatus, writeModelResults, type ModelBatchStatus } from './results.js';

/** An open connection to the service for one model session. */
export interface ModelSessionService {
  client: ServiceClient;
  /** The base URL recorded with a new batch (null for the simulator). */
  baseUrl?: string | null;
  /** One cheap read before anything is recorded: a refused key or an unreachable service ends here. */
  check?(): Promise<void>;
  close?(): Promise<void>;
}

/** Options of {@link runModelSession}. */
export interface ModelSessionOptions {
  store: BatchStore & ModelStore & WorkerStore & ReadStore & FileStore & OutboxStore & Pick<ScoreStore, 'scorersJudged' | 'scoreTotals'>;
  /** The service: a client, or a function that opens one (its `check` runs before anything is recorded). */
  service: ServiceClient | (() => Promise<ModelSessionService>);
  modelId: string;
  /** CSV or JSONL file of inputs, one row per model run. */
  file: string;
  /** Batch name. @default `<model>-<file name without extension>` */
  name?: string | null;
  /** What a new batch is started with (`download.out` is where file outputs go). */
  settings: BatchSettings;
  /** Mode sent with each run; null lets the platform choose. */
  mode: 'sync' | 'async' | null;
  /** Re-send rows whose create outcome is unknown, with their stored key. @default false */
  resubmitUnknown?: boolean;
  /** Write one JSON line per input row here at the end. */
  output?: string | null;
  /** Stops sending (jobs in flight go on at the service; the same session again picks them up). */
  signal?: AbortSignal;
  /** Progress and file events; must not throw. */
  onEvent?: (e: ModelBatchEvent | DownloadEvent) => void;
  /** Told once the batch is recorded (or found: `resumed`), before any row is sent. */
  onOpened?: (batch: BatchRecord, resumed: boolean) => void;
  /** How this worker sends the batch's notifications, when it has receivers. */
  notify?: SendOptions;
}

/** How a model session ended. */
export interface ModelSessionResult {
  batch: BatchRecord;
  /** The batch existed: this session resumed it. */
  resumed: boolean;
  run: ModelBatchResult;
  files: DownloadSummary | null;
  status: ModelBatchStatus | null;
}

/**
 * Runs a `models` batch end to end, as `resq models batch` does: opens the service and checks
 * it, checks the whole input file against the model's description and records the batch (or
 * resumes the one of that name), runs it under the cap (lowered on HTTP 429) with file outputs
 * downloaded, stops sending when `signal` aborts, writes `output`, and returns the summary.
 * Never prints, never exits.
 */
export async function runModelSession(o: ModelSessionOptions): Promise<ModelSessionResult> {
  const service: ModelSessionService = typeof o.service === 'function' ? await o.service() : { client: o.service };
  try {
    await service.check?.();
    const { store, settings } = o;
    const client = service.client;
    const opened = await openModelBatch({
      store,
      client,
      modelId: o.modelId,
      file: o.file,
      name: o.name ?? null,
      settings,
      mode: o.mode,
      baseUrl: settings.service === 'sim' ? null : (service.baseUrl ?? client.baseUrl),
    });
    const { resumed } = opened;
    let batch = opened.batch;
    // Receivers given again for a batch resumed: recorded with it, as `resume` does for a question batch.
    const notify = settings.notify && notifyOver(settings.notify, batch.settings.notify);
    if (resumed && notify && JSON.stringify(notify) !== JSON.stringify(batch.settings.notify)) {
      await store.updateBatchSettings(batch.id, { ...batch.settings, notify }, batch.policy, batch.baseUrl);
      batch = (await store.findBatch(batch.id)) ?? batch;
    }
    o.onOpened?.(batch, resumed);
    const emit = (e: ModelBatchEvent | DownloadEvent): void => o.onEvent?.(e);
    let downloader = null;
    if (settings.download.enabled) {
      // Loaded only when the batch downloads.
      const { Downloader } = await import('../files/index.js');
      downloader = new Downloader({ store, client, outDir: settings.download.out ?? 'out', concurrency: settings.download.concurrency, onEvent: emit });
    }
    const runner = new ModelBatchRunner({
      store,
      client,
      batch,
      concurrency: settings.concurrency,
      resubmitUnknown: o.resubmitUnknown ?? false,
      onEvent: emit,
      onFiles: () => downloader?.kick(batch),
    });
    const stop = (): void => {
      runner.stop();
      downloader?.stop();
    };
    if (o.signal?.aborted) stop();
    o.signal?.addEventListener('abort', stop, { once: true });
    let run: ModelBatchResult;
    let files: DownloadSummary | null = null;
    const notifier = batch.settings.notify ? (await import('../notify/worker.js')).startWorkerNotifier(store, batch, o.notify) : null;
    try {
      downloader?.kick(batch);
      run = await runner.run();
      if (downloader && !run.interrupted) files = await downloader.drain();
    } finally {
      o.signal?.removeEventListener('abort', stop);
      await notifier?.finish(o.notify?.graceMs);
    }
    if (o.output) await writeModelResults(store, batch, o.output);
    return { batch, resumed, run, files, status: await modelBatchStatus(store, batch) };
  } finally {
    await service.close?.();
  }
}
