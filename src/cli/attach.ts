import type { Downloader, DownloadSummary } from '../files/index.js';
import type { Policy } from '../policy/index.js';
import { BatchRunner, batchStatus, type RunnerEvent, type RunnerResult } from '../runner/index.js';
import type { BatchRecord, Store } from '../store/index.js';
import { exitCodeForRun, EXIT } from './exit-codes.js';
import { pickRenderer } from './progress.js';
import type { Service } from './service.js';
import { formatStatus } from './summary.js';

/** Everything needed to drive a batch from the terminal. */
export interface AttachOptions {
  store: Store;
  batch: BatchRecord;
  service: Service;
  policy: Policy | null;
  json: boolean;
  dbPath: string;
  outDir: string | null;
  /** Send at most this many queued items (`--limit`). */
  limit?: number | undefined;
  /** Wait for other workers when nothing is left to claim. @default true */
  wait?: boolean;
}

async function downloaderFor(o: AttachOptions, emit: (e: RunnerEvent) => void): Promise<Downloader | null> {
  const d = o.batch.settings.download;
  if (!d.enabled) return null;
  // Loaded only when the batch downloads: a --no-download run never needs files/.
  const { Downloader } = await import('../files/index.js');
  return new Downloader({
    store: o.store,
    client: o.service.client,
    outDir: d.out ?? 'out',
    concurrency: d.concurrency,
    onEvent: (e) => {
      if (e.type === 'file-problem')
        emit({ type: 'warning', message: `file ${e.fileId} (item ${e.itemId}): ${e.status}: ${e.reason}` });
    },
  });
}

/** Lease length: RESQ_LEASE_MS (tests shorten it), else the runner's default. */
function leaseMsFromEnv(): number | undefined {
  const v = Number(process.env.RESQ_LEASE_MS);
  return Number.isInteger(v) && v >= 100 ? v : undefined;
}

/**
 * Runs a batch with progress on the terminal, downloading files as runs make them. The
 * first SIGINT stops admitting and lets in-flight writes commit (exit 130; `resq resume`
 * picks the batch up); a second exits at once.
 */
export async function attachAndRun(o: AttachOptions): Promise<number> {
  const renderer = pickRenderer(o.json);
  const emit = (e: RunnerEvent): void => renderer.onEvent(e);
  const downloads = await downloaderFor(o, emit);
  // Files left pending by an earlier, interrupted run start again at once.
  downloads?.kick(o.batch);
  const runner = new BatchRunner({
    store: o.store,
    client: o.service.client,
    batch: o.batch,
    policy: o.policy,
    ...(o.limit !== undefined ? { limit: o.limit } : {}),
    wait: o.wait ?? true,
    leaseMs: leaseMsFromEnv(),
    onEvent: (e) => {
      // A finished or paused run may have recorded files: the downloader reads the store cheaply.
      if (e.type === 'item') downloads?.kick(o.batch);
      emit(e);
    },
  });
  o.service.onThrottle = () => runner.throttled();
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT.interrupted);
    process.stderr.write('\nstopping: no new runs are admitted; runs in flight go on at the service (resq resume picks them up)\n');
    runner.stop();
    downloads?.stop();
  };
  process.on('SIGINT', onSigint);
  let result: RunnerResult;
  let files: DownloadSummary | null = null;
  try {
    result = await runner.run();
    if (result.interrupted || result.fatal) downloads?.stop();
    files = (await downloads?.drain()) ?? null;
  } finally {
    process.off('SIGINT', onSigint);
    renderer.stop();
  }
  const status = await batchStatus(o.store, o.batch);
  if (o.json) {
    process.stdout.write(`${JSON.stringify({ type: 'summary', ...status, db: o.dbPath, out: o.outDir })}\n`);
  } else {
    process.stdout.write(`${formatStatus(status, { db: o.dbPath, out: o.outDir })}\n`);
    if (files && files.problems.length > 0)
      process.stdout.write(`${files.problems.length} file(s) not downloaded: see \`resq files status --db ${o.dbPath}\`, retry with \`resq files pull\`\n`);
    if (result.fatal) process.stderr.write(`resq: stopped: ${result.fatal.message}\n`);
    else if (result.interrupted) process.stderr.write(`interrupted: continue with \`resq resume ${o.batch.name} --db ${o.dbPath}\`\n`);
  }
  return exitCodeForRun(result);
}
