import { isoNow } from '../../clock.js';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
// What `resq models …` runs, loaded only when a models command runs (models.ts registers them;
// `models batch` is in models-batch.ts).
import { once } from 'node:events';
import { isRunFailure, type ModelRun } from '../../api/index.js';
import { InputError } from '../../errors.js';
import { formatDescription, formatTable, modelBatchStatus, modelResultRows, prepareInputs, runOne, writeModelResults } from '../../models/index.js';
import { checkDbPath, checkOutputPath } from '../db-path.js';
import { commandHint } from '../../text/command-hint.js';
import { EXIT } from '../exit-codes.js';
import { STOP_SIGNALS, type CliIo, type StopSignal } from '../io.js';
import { formatModelStatus } from '../models-progress.js';
import { DEFAULT_DOWNLOAD_CONCURRENCY } from '../../store/settings-defaults.js';
import { openBatch } from '../open-batch.js';
import { choiceFor, openService, type Service, type ServiceChoice } from '../service.js';
import { chooseService } from '../../service-choice.js';
import { printable } from '../../text/printable.js';

/** Options every models command has. */
export interface ServiceArgs {
  sim?: boolean;
  baseUrl?: string;
  json: boolean;
  db: string;
}

/** Flags of `resq models run`. */
export interface RunArgs extends ServiceArgs {
  id: string;
  inputs?: string;
  input?: string[];
  mode?: 'sync' | 'async';
  /** Record the run in the database (`--db` or RESQ_DB given) and download its file outputs. */
  record?: boolean;
  out?: string;
}

function choiceOf(a: ServiceArgs, env: NodeJS.ProcessEnv): ServiceChoice {
  return choiceFor(chooseService({ sim: a.sim ?? false, baseUrl: a.baseUrl, envBaseUrl: env.RESQ_BASE_URL }));
}

/** `resq models describe ID`. */
export async function modelsDescribeHandler(a: ServiceArgs & { id: string }, io: CliIo): Promise<number> {
  const service = await openService(choiceOf(a, io.env), { env: io.env, dbPath: a.db });
  try {
    const d = await service.client.describeModel(a.id);
    io.stdout.write(a.json ? `${JSON.stringify(d)}\n` : `${formatDescription(d, a.id)}\n`);
    return EXIT.ok;
  } finally {
    await service.close();
  }
}

function showValue(v: unknown): string {
  if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { url?: unknown }).url === 'string') {
    const f = v as { id?: string; name?: string; url: string };
    return `file ${f.name ?? f.id ?? ''} ${f.url}`.replace(/\s+/g, ' ');
  }
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function formatRun(run: ModelRun, httpStatus: number): string {
  const lines = [`model run ${run.id}: ${run.status} (HTTP ${httpStatus}${run.credits !== null ? `, credits ${run.credits}` : ''})`];
  // The service's own words: kept verbatim, escaped for the terminal.
  if (run.error) lines.push(`error: ${printable(run.error)}`);
  if (run.outputs) {
    lines.push('outputs:');
    const rows = Object.entries(run.outputs).map(([k, v]) => [k, showValue(v)]);
    lines.push(...formatTable(['name', 'value'], rows).split('\n').map((l) => `  ${l}`));
  }
  return lines.join('\n');
}

/** `resq models run ID`: the exit code. */
export async function modelsRunHandler(a: RunArgs, io: CliIo): Promise<number> {
  const service = await openService(choiceOf(a, io.env), { env: io.env, dbPath: a.db });
  const stop = new AbortController();
  let admitted: ModelRun | null = null;
  let stoppedBy: StopSignal = 'SIGINT';
  const offStop = io.onStop((signal) => {
    stoppedBy = signal;
    stop.abort();
  });
  // The client's poll sleep does not hold the event loop open; under a top-level await the process would exit mid-wait.
  const keepAlive = setInterval(() => {}, 60_000);
  try {
    const d = await service.client.describeModel(a.id);
    const inputs = prepareInputs(d, a.id, a.inputs, a.input ?? []);
    if (a.record) return await recordedRun(a, io, service, d as Record<string, unknown>, inputs, stop.signal);
    const r = await runOne({
      client: service.client,
      modelId: a.id,
      inputs,
      mode: a.mode ?? null,
      signal: stop.signal,
      onAdmitted: (run, status) => {
        admitted = run;
        if (status === 202 && !a.json) io.stderr.write(`model run ${run.id} started; reading it every few seconds…\n`);
      },
    });
    io.stdout.write(a.json ? `${JSON.stringify(r.run)}\n` : `${formatRun(r.run, r.httpStatus)}\n`);
    return isRunFailure(r.run.status) ? EXIT.failed : EXIT.ok;
  } catch (err) {
    const run = admitted as ModelRun | null;
    if (stop.signal.aborted && run) {
      io.stderr.write(`interrupted: model run ${run.id} goes on at the service${run.poll_url ? ` (${run.poll_url})` : ''}\n`);
      return STOP_SIGNALS[stoppedBy];
    }
    throw err;
  } finally {
    clearInterval(keepAlive);
    offStop();
    await service.close();
  }
}

/**
 * `models run` with `--db`: the run is recorded like a one-row models batch (its key stored
 * before the request, its result, credits and file references), its file outputs are
 * downloaded under `--out`, and `resq models status/export` show it later.
 */
async function recordedRun(a: RunArgs, io: CliIo, service: Service, description: Record<string, unknown>, inputs: Record<string, unknown>, signal: AbortSignal): Promise<number> {
  const [{ openStore, maskLocation }, { Downloader }, { ModelBatchRunner }] = await Promise.all([
    import('../../store/open.js'),
    import('../../files/index.js'),
    import('../../models/index.js'),
  ]);
  checkDbPath(a.db);
  const store = await openStore(a.db);
  try {
    const out = resolve(a.out ?? 'out');
    const id = randomUUID();
    const name = `${a.id}-run-${isoNow().replace(/[:.]/g, '-')}`;
    await store.loadModelBatch(
      {
        id,
        name,
        kind: 'models',
        sourcePath: '(resq models run)',
        sourceSha256: '',
        baseUrl: service.kind === 'sim' ? null : service.baseUrl,
        settings: { concurrency: 1, follow: 'poll', download: { enabled: true, concurrency: DEFAULT_DOWNLOAD_CONCURRENCY, out }, pipelineFile: null, service: service.kind === 'sim' ? 'sim' : 'url' },
        policy: null,
      },
      { modelId: a.id, mode: a.mode ?? null, description },
      [{ id: '1', line: 0, inputs, meta: {} }],
    );
    const batch = (await store.findBatch(id))!;
    const downloader = new Downloader({ store, client: service.client, outDir: out, concurrency: DEFAULT_DOWNLOAD_CONCURRENCY });
    const runner = new ModelBatchRunner({ store, client: service.client, batch, concurrency: 1, onFiles: () => downloader.kick(batch) });
    signal.addEventListener('abort', () => {
      runner.stop();
      downloader.stop();
    });
    const result = await runner.run();
    await downloader.drain();
    const rows = [];
    for await (const row of modelResultRows(store, batch)) rows.push(row);
    const row = rows[0]!;
    if (a.json) io.stdout.write(`${JSON.stringify({ ...row, batch: name, db: maskLocation(a.db) })}\n`);
    else {
      const lines = [`model run ${row.model_run_id ?? '(none)'}: ${row.status}${row.credits !== null ? ` (credits ${row.credits})` : ''}`];
      if (row.error) lines.push(`error: ${printable(row.error)}`);
      if (row.outputs) lines.push('outputs:', ...formatTable(['name', 'value'], Object.entries(row.outputs).map(([k, v]) => [k, showValue(v)])).split('\n').map((l) => `  ${l}`));
      for (const f of row.files) lines.push(`file ${f.name ?? f.id}: ${f.status}${f.path ? ` ${f.path}` : ''}`);
      lines.push(`recorded as batch ${name} in ${maskLocation(a.db)} (${commandHint(['resq', 'models', 'status', name], { db: a.db })})`);
      io.stdout.write(`${lines.join('\n')}\n`);
    }
    if (result.fatal) throw result.fatal;
    if (result.interrupted) return EXIT.interrupted;
    return row.status === 'succeeded' || row.status === 'completed' ? EXIT.ok : EXIT.failed;
  } finally {
    await store.close();
  }
}

async function openModelsBatch(db: string, name: string | undefined) {
  const { store, batch } = await openBatch(db, name, 'models');
  const status = await modelBatchStatus(store, batch);
  if (!status) {
    await store.close();
    throw new InputError(`batch "${batch.name}" is a batch of agent runs: use resq status`);
  }
  return { store, batch, status };
}

/** `resq models status [BATCH]`. */
export async function modelsStatusHandler(a: { batch?: string; db: string; json: boolean }, io: CliIo): Promise<number> {
  const { store, batch, status } = await openModelsBatch(a.db, a.batch);
  try {
    io.stdout.write(
      a.json ? `${JSON.stringify(status)}\n` : `${formatModelStatus(status, { db: a.db, out: batch.settings.download.enabled ? batch.settings.download.out : null })}\n`,
    );
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/** `resq models export [BATCH]`. */
export async function modelsExportHandler(a: { batch?: string; db: string; output?: string }, io: CliIo): Promise<number> {
  if (a.output !== undefined) checkOutputPath(a.output);
  const { store, batch } = await openModelsBatch(a.db, a.batch);
  try {
    if (a.output) await writeModelResults(store, batch, a.output);
    else for await (const row of modelResultRows(store, batch)) if (!io.stdout.write(`${JSON.stringify(row)}\n`)) await once(io.stdout, 'drain');
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
