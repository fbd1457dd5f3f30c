import { resolve } from 'node:path';
import { InputError } from '../../errors.js';
import { runModelSession, type ModelSessionResult } from '../../models/model-session.js';
import { DEFAULT_DOWNLOAD_CONCURRENCY, maskLocation, openStore, type BatchSettings } from '../../store/index.js';
import { checkDbPath, checkOutputPath, removeDatabase } from '../db-path.js';
import { commandHint } from '../../text/command-hint.js';
import { userMessage } from '../error-message.js';
import { exitCodeForRun } from '../exit-codes.js';
import { STOP_SIGNALS, type CliIo, type StopSignal } from '../io.js';
import { formatModelStatus, pickModelsRenderer } from '../models-progress.js';
import { choiceFor, openService, resolveService } from '../service.js';
import { chooseService } from '../../service-choice.js';
import { wholeNumber } from '../whole-number.js';
import { leaseMsFromEnv } from '../lease-env.js';
import { notifyCommandOf, notifyFromFlags, type NotifyFlags } from '../notify-settings.js';
import { notifyFlagsOf, sendOptionsFromEnv } from '../notify-flags.js';

/** Flags of `resq models batch`. */
export interface ModelsBatchArgs {
  id: string;
  file: string;
  db: string;
  out?: string | undefined;
  output?: string | undefined;
  concurrency?: number | undefined;
  mode?: 'sync' | 'async' | undefined;
  resubmitUnknown: boolean;
  batch?: string | undefined;
  sim?: boolean | undefined;
  baseUrl?: string | undefined;
  download: boolean;
  json: boolean;
}

/**
 * `resq models batch`: check the whole file (or find the batch to resume), run it with
 * progress on the terminal, download file outputs, write `--output`. Returns the exit code.
 */
export async function modelsBatchHandler(a: ModelsBatchArgs & NotifyFlags, io: CliIo): Promise<number> {
  const concurrency = wholeNumber('concurrency', a.concurrency ?? 8, 1, 10_000);
  const choice = choiceFor(chooseService({ sim: a.sim ?? false, baseUrl: a.baseUrl, envBaseUrl: io.env.RESQ_BASE_URL }));
  // Refuse a missing service, a bad --db or --output before anything is recorded.
  resolveService(choice, io.env);
  if (a.batch === '') throw new InputError('--batch: give a name (or leave it out for the default)');
  if (a.output !== undefined) checkOutputPath(a.output);
  const { exists: dbExisted } = checkDbPath(a.db);
  const out = resolve(a.out ?? 'out');
  // Receivers checked before anything is recorded (a bad URL: one line, exit 2).
  const notify = notifyFromFlags(notifyFlagsOf(a), io.env);
  const settings: BatchSettings = {
    concurrency,
    follow: 'poll',
    download: { enabled: a.download, concurrency: DEFAULT_DOWNLOAD_CONCURRENCY, out },
    pipelineFile: null,
    service: choice.sim ? 'sim' : 'url',
    ...(notify ? { notify } : {}),
  };
  // A PostgreSQL server starting up or restarting is waited on, said on stderr.
  const store = await openStore(a.db, { onWait: (m) => io.stderr.write(`${m}\n`) });
  let recorded = false;
  try {
    const renderer = pickModelsRenderer(a.json, io);
    const stop = new AbortController();
    let stoppedBy: StopSignal | null = null;
    const offStop = io.onStop((signal) => {
      if (stoppedBy) return io.exitNow(STOP_SIGNALS[signal]);
      stoppedBy = signal;
      renderer.note(`stopping (${signal}): nothing new is sent; jobs in flight go on at the service (run the same command again to pick them up)`);
      stop.abort();
    });
    let r: ModelSessionResult;
    try {
      r = await runModelSession({
        store,
        service: () => openService(choice, { connections: Math.max(128, concurrency * 2 + 16), env: io.env, dbPath: a.db }),
        modelId: a.id,
        file: a.file,
        name: a.batch ?? null,
        settings,
        mode: a.mode ?? null,
        resubmitUnknown: a.resubmitUnknown,
        output: a.output ?? null,
        signal: stop.signal,
        notify: sendOptionsFromEnv(io.env, leaseMsFromEnv(io.env), notifyCommandOf(a), a.db),
        onOpened: (batch, resumed) => {
          recorded = true;
          if (resumed && !a.json) renderer.note(`resuming batch ${batch.name} (${batch.totalItems} rows)`);
        },
        onEvent: (e) => renderer.onEvent(e),
      });
    } finally {
      offStop();
      renderer.stop();
    }
    const { run: result, status } = r;
    if (status) {
      if (a.json) io.stdout.write(`${JSON.stringify({ type: 'summary', ...status, db: maskLocation(a.db), out, output: a.output ?? null })}\n`);
      else io.stdout.write(`${formatModelStatus(status, { db: a.db, out: a.download ? out : null, output: a.output ?? null })}\n`);
    }
    if (!a.json) {
      if (result.fatal) io.stderr.write(`resq: stopped: ${userMessage(result.fatal)}\n`);
      else if (result.interrupted)
        io.stderr.write(`interrupted: run the same command again to continue (${commandHint(['resq', 'models', 'batch', a.id, a.file], { db: a.db, sim: a.sim })})\n`);
    }
    return result.interrupted && stoppedBy ? STOP_SIGNALS[stoppedBy] : exitCodeForRun({ ...result, cancelled: false });
  } finally {
    await store.close();
    // A batch refused before anything was recorded leaves no empty database behind.
    if (!recorded && !dbExisted) removeDatabase(a.db);
  }
}
