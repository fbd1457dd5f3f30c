// What `resq models …` runs, loaded only when a models command runs (models.ts registers them;
// `models batch` is in models-batch.ts).
import { once } from 'node:events';
import { isRunFailure, type ModelRun } from '../../api/index.js';
import { InputError } from '../../errors.js';
import { formatDescription, formatTable, modelBatchStatus, modelResultRows, prepareInputs, runOne, writeModelResults } from '../../models/index.js';
import { checkOutputPath } from '../db-path.js';
import { EXIT } from '../exit-codes.js';
import { STOP_SIGNALS, type CliIo, type StopSignal } from '../io.js';
import { formatModelStatus } from '../models-progress.js';
import { openBatch } from '../open-batch.js';
import { openService, type ServiceChoice } from '../service.js';
import type { RunArgs, ServiceArgs } from './models.js';

function choiceOf(a: ServiceArgs): ServiceChoice {
  return { sim: a.sim ?? false, baseUrl: a.baseUrl ?? null };
}

/** `resq models describe ID`. */
export async function describeCommand(a: ServiceArgs & { id: string }, io: CliIo): Promise<number> {
  const service = await openService(choiceOf(a), { env: io.env, dbPath: a.db });
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
  if (run.error) lines.push(`error: ${run.error}`);
  if (run.outputs) {
    lines.push('outputs:');
    const rows = Object.entries(run.outputs).map(([k, v]) => [k, showValue(v)]);
    lines.push(...formatTable(['name', 'value'], rows).split('\n').map((l) => `  ${l}`));
  }
  return lines.join('\n');
}

/** `resq models run ID`: the exit code. */
export async function runCommand(a: RunArgs, io: CliIo): Promise<number> {
  const service = await openService(choiceOf(a), { env: io.env, dbPath: a.db });
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
export async function statusCommand(a: { batch?: string; db: string; json: boolean }, io: CliIo): Promise<number> {
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
export async function exportCommand(a: { batch?: string; db: string; output?: string }, io: CliIo): Promise<number> {
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
