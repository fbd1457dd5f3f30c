import { once } from 'node:events';
import type { Argv } from 'yargs';
import { isRunFailure, type ModelRun } from '../../api/index.js';
import { InputError } from '../../errors.js';
import { formatDescription, formatTable, modelBatchStatus, modelResultRows, prepareInputs, runOne, writeModelResults } from '../../models/index.js';
import { ModelStore } from '../../store/model-store.js';
import { EXIT } from '../exit-codes.js';
import { formatModelStatus } from '../models-progress.js';
import { openBatch } from '../open-batch.js';
import { openService, type ServiceChoice } from '../service.js';
import { modelsBatchCommand, type ModelsBatchArgs } from './models-batch.js';

interface ServiceArgs {
  sim?: boolean;
  baseUrl?: string;
  json: boolean;
  db: string;
}

function choiceOf(a: ServiceArgs): ServiceChoice {
  return { sim: a.sim ?? false, baseUrl: a.baseUrl ?? null };
}

function serviceOptions<T>(y: Argv<T>) {
  return y
    .option('sim', { type: 'boolean', describe: 'use the built-in simulator (no account needed)' })
    .option('base-url', { type: 'string', describe: 'service base URL ending in /api/v1 (default $RESQ_BASE_URL)' });
}

/** Registers `resq models describe | run | batch | status | export`. */
export function modelsCommand(y: Argv): Argv {
  return y.command('models', 'run single models directly: describe, run one, run a CSV/JSONL batch', (m) =>
    m
      .command(
        'describe <id>',
        "a model's inputs and outputs (--json: the description as the service gave it)",
        (a) => serviceOptions(a.positional('id', { type: 'string', demandOption: true, describe: 'model id (last segment of its page address)' })),
        async (argv) => {
          await describeCommand(argv as unknown as ServiceArgs & { id: string });
        },
      )
      .command(
        'run <id>',
        'run a model once and print its outputs',
        (a) =>
          serviceOptions(a.positional('id', { type: 'string', demandOption: true, describe: 'model id' }))
            .option('inputs', { type: 'string', describe: 'inputs as a JSON object, e.g. \'{"text":"hi"}\'' })
            .option('input', { type: 'string', array: true, describe: 'one input as name=value, coerced to its declared type (repeatable)' })
            .option('mode', { choices: ['sync', 'async'] as const, describe: 'sync waits inline, async runs a background job (default: the platform chooses)' }),
        async (argv) => {
          process.exitCode = await runCommand(argv as unknown as RunArgs);
        },
      )
      .command(
        'batch <id> <file>',
        'run a model on every row of a CSV or JSONL file: resumable, concurrency-capped, recorded in SQLite',
        (a) =>
          serviceOptions(
            a
              .positional('id', { type: 'string', demandOption: true, describe: 'model id' })
              .positional('file', { type: 'string', demandOption: true, describe: 'inputs.csv (header: input names, id, meta.*) or inputs.jsonl' }),
          )
            .option('out', { type: 'string', describe: 'folder for downloaded file outputs (default out)' })
            .option('output', { type: 'string', describe: 'write one JSON line per input row here (id, status, outputs, error, credits, model_run_id, files)' })
            .option('concurrency', { type: 'number', describe: 'most model runs in flight (default 8)' })
            .option('mode', { choices: ['sync', 'async'] as const, describe: 'sync or async for every run (default: the platform chooses)' })
            .option('resubmit-unknown', { type: 'boolean', default: false, describe: 're-send rows whose submission outcome is unknown (same Idempotency-Key; may run twice)' })
            .option('batch', { type: 'string', describe: 'batch name (default <model>-<file name>); an existing name resumes it' })
            .option('download', { type: 'boolean', default: true, describe: 'download file outputs (--no-download: later, with resq files pull)' }),
        async (argv) => {
          process.exitCode = await modelsBatchCommand(argv as unknown as ModelsBatchArgs);
        },
      )
      .command(
        'status [batch]',
        'rows by outcome, credits spent, unknown submissions, files of a models batch',
        (a) => a.positional('batch', { type: 'string', describe: 'batch name or id (default: the newest models batch)' }),
        (argv) => statusCommand(argv as unknown as { batch?: string; db: string; json: boolean }),
      )
      .command(
        'export [batch]',
        'one JSON line per input row: id, status, outputs, error, credits, model_run_id, files',
        (a) =>
          a
            .positional('batch', { type: 'string', describe: 'batch name or id (default: the newest models batch)' })
            .option('output', { type: 'string', describe: 'file to write (default: standard output)' }),
        async (argv) => {
          await exportCommand(argv as unknown as { batch?: string; db: string; output?: string });
        },
      )
      .demandCommand(1, 'name a models command: describe, run, batch, status or export'),
  );
}

async function describeCommand(a: ServiceArgs & { id: string }): Promise<void> {
  const service = await openService(choiceOf(a));
  try {
    const d = await service.client.describeModel(a.id);
    process.stdout.write(a.json ? `${JSON.stringify(d)}\n` : `${formatDescription(d, a.id)}\n`);
  } finally {
    await service.close();
  }
}

interface RunArgs extends ServiceArgs {
  id: string;
  inputs?: string;
  input?: string[];
  mode?: 'sync' | 'async';
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

async function runCommand(a: RunArgs): Promise<number> {
  const service = await openService(choiceOf(a));
  const stop = new AbortController();
  let admitted: ModelRun | null = null;
  const onSigint = (): void => stop.abort();
  process.on('SIGINT', onSigint);
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
        if (status === 202 && !a.json) process.stderr.write(`model run ${run.id} started; reading it every few seconds…\n`);
      },
    });
    process.stdout.write(a.json ? `${JSON.stringify(r.run)}\n` : `${formatRun(r.run, r.httpStatus)}\n`);
    return isRunFailure(r.run.status) ? EXIT.failed : EXIT.ok;
  } catch (err) {
    const run = admitted as ModelRun | null;
    if (stop.signal.aborted && run) {
      process.stderr.write(`interrupted: model run ${run.id} goes on at the service${run.poll_url ? ` (${run.poll_url})` : ''}\n`);
      return EXIT.interrupted;
    }
    throw err;
  } finally {
    clearInterval(keepAlive);
    process.off('SIGINT', onSigint);
    await service.close();
  }
}

function openModelsBatch(db: string, name: string | undefined) {
  const { store, batch } = openBatch(db, name, 'models');
  const ms = new ModelStore(store);
  const status = modelBatchStatus(ms, batch);
  if (!status) {
    store.close();
    throw new InputError(`batch "${batch.name}" is a batch of agent runs: use resq status`);
  }
  return { store, ms, batch, status };
}

function statusCommand(a: { batch?: string; db: string; json: boolean }): void {
  const { store, batch, status } = openModelsBatch(a.db, a.batch);
  try {
    process.stdout.write(
      a.json ? `${JSON.stringify(status)}\n` : `${formatModelStatus(status, { db: a.db, out: batch.settings.download.enabled ? batch.settings.download.out : null })}\n`,
    );
  } finally {
    store.close();
  }
}

async function exportCommand(a: { batch?: string; db: string; output?: string }): Promise<void> {
  const { store, ms, batch } = openModelsBatch(a.db, a.batch);
  try {
    if (a.output) await writeModelResults(ms, batch, a.output);
    else for (const row of modelResultRows(ms, batch)) if (!process.stdout.write(`${JSON.stringify(row)}\n`)) await once(process.stdout, 'drain');
  } finally {
    store.close();
  }
}
