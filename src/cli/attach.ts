import type { Downloader, DownloadSummary } from '../files/index.js';
import type { Policy } from '../policy/index.js';
import { BatchRunner, batchStatus, type RunnerEvent, type RunnerResult } from '../runner/index.js';
import type { BatchRecord, Store } from '../store/index.js';
import { maskLocation } from '../store/open.js';
import { dbFlag } from './db-path.js';
import { userMessage } from './error-message.js';
import { EXIT, exitCodeForRun } from './exit-codes.js';
import { STOP_SIGNALS, type CliIo, type StopSignal } from './io.js';
import { pickRenderer } from './progress.js';
import { openService, type Service } from './service.js';
import { formatStatus } from './summary.js';
import { listUnknownFinals } from './unknown-status.js';

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
  /** Where output goes and where stop signals come from. */
  io: CliIo;
}

/** Where a batch's runs go: the simulator (kept beside the database) or a base URL. */
export interface ServiceFor {
  sim: boolean;
  baseUrl: string | null;
  /** Resuming a `--sim` batch: its simulator state must be there. */
  simStateMustExist?: boolean;
}

/**
 * Opens the batch's service with connections for its concurrency and downloads, runs the
 * batch attached to the terminal ({@link attachAndRun}), and closes the service.
 */
export async function attachWithService(o: Omit<AttachOptions, 'service' | 'outDir'> & { service: ServiceFor }): Promise<number> {
  const s = o.batch.settings;
  const service = await openService(
    { sim: o.service.sim, baseUrl: o.service.sim ? null : o.service.baseUrl },
    {
      connections: Math.max(128, s.concurrency * 2 + s.download.concurrency + 16),
      dbPath: o.dbPath,
      env: o.io.env,
      ...(o.service.simStateMustExist ? { simStateMustExist: true } : {}),
    },
  );
  try {
    return await attachAndRun({ ...o, service, outDir: s.download.out });
  } finally {
    await service.close();
  }
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
function leaseMsFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const v = Number(env.RESQ_LEASE_MS);
  return Number.isInteger(v) && v >= 100 ? v : undefined;
}

/**
 * Runs a batch with progress on the terminal, downloading files as runs make them. The
 * first SIGINT, SIGTERM or SIGHUP stops admitting and lets in-flight writes commit (exit
 * 130 / 143 / 129; `resq resume` picks the batch up); a second exits at once.
 */
export async function attachAndRun(o: AttachOptions): Promise<number> {
  const io = o.io;
  // Before anything shows as in flight: an unreachable service or a refused key ends here.
  await o.service.check();
  const renderer = pickRenderer(o.json, io);
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
    leaseMs: leaseMsFromEnv(io.env),
    onEvent: (e) => {
      // A finished or paused run may have recorded files: the downloader reads the store cheaply.
      if (e.type === 'item') downloads?.kick(o.batch);
      emit(e);
    },
  });
  let stoppedBy: StopSignal | null = null;
  const offStop = io.onStop((signal) => {
    if (stoppedBy) return io.exitNow(STOP_SIGNALS[signal]);
    stoppedBy = signal;
    // Through the renderer: the bar is cleared first and drawn below, never over this line.
    renderer.note(`stopping (${signal}): no new runs are admitted; runs in flight go on at the service (resq resume picks them up)`);
    runner.stop();
    downloads?.stop();
  });
  let result: RunnerResult;
  let files: DownloadSummary | null = null;
  try {
    result = await runner.run();
    if (result.interrupted || result.fatal) downloads?.stop();
    files = (await downloads?.drain()) ?? null;
  } finally {
    offStop();
    renderer.stop();
  }
  const status = await batchStatus(o.store, o.batch);
  const unknownFinal = await listUnknownFinals(o.store, o.batch);
  const db = dbFlag(o.dbPath);
  const sim = o.service.kind === 'sim' ? ' --sim' : '';
  // A batch started with --sim resumes on the simulator by itself: the flag only when it was not.
  const resumeSim = o.service.kind === 'sim' && o.batch.settings.service !== 'sim' ? ' --sim' : '';
  if (o.json) {
    io.stdout.write(`${JSON.stringify({ type: 'summary', ...status, unknownFinal, db: maskLocation(o.dbPath), out: o.outDir })}\n`);
  } else {
    io.stdout.write(`${formatStatus(status, { db: o.dbPath, out: o.outDir, unknownFinal })}\n`);
    if (files && files.problems.length > 0)
      io.stdout.write(`${files.problems.length} file(s) not downloaded: see \`resq files status${db}\`, retry with \`resq files pull${db}${sim}\`\n`);
    const resume = `resq resume ${o.batch.name}${db}${resumeSim}`;
    if (result.fatal) io.stderr.write(`resq: stopped: ${userMessage(result.fatal, { db: o.dbPath, resume })}\n`);
    else if (result.interrupted) io.stderr.write(`interrupted: continue with \`${resume}\`\n`);
  }
  // Rows left out with --skip-invalid are listed in the summary, not a failure: asked for, so exit 0 when the rest completed.
  const code = exitCodeForRun(result);
  // SIGTERM and SIGHUP stop like Ctrl-C but say which signal it was: 143 / 129.
  return result.interrupted && stoppedBy ? STOP_SIGNALS[stoppedBy] : code;
}
