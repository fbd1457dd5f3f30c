import type { Argv } from 'yargs';
import type { CommandContext } from '../command-context.js';
import type { ModelsBatchArgs } from './models-batch.js';
import type { RunArgs, ServiceArgs } from './models-actions.js';
import { notifyOptions } from '../notify-flags.js';

/** What the models commands run (models/, the store, the client), loaded only when one runs. */
const actions = () => import('./models-actions.js');

function serviceOptions<T>(y: Argv<T>) {
  return y
    .option('sim', { type: 'boolean', describe: 'use the built-in simulator (no account needed)' })
    .option('base-url', { type: 'string', describe: 'service base URL ending in /api/v1 (default $RESQ_BASE_URL)' });
}

/** Registers `resq models describe | run | batch | status | export`. */
export function modelsCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command('models', 'run single models directly: describe, run one, run a CSV/JSONL batch', (m) =>
    m
      .command(
        'describe <id>',
        "a model's inputs and outputs (--json: the description as the service gave it)",
        (a) => serviceOptions(a.positional('id', { type: 'string', demandOption: true, describe: 'model id (last segment of its page address)' })),
        async (argv) => {
          ctx.code = await (await actions()).modelsDescribeHandler(argv as unknown as ServiceArgs & { id: string }, ctx.io);
        },
      )
      .command(
        'run <id>',
        'run a model once and print its outputs',
        (a) =>
          serviceOptions(a.positional('id', { type: 'string', demandOption: true, describe: 'model id' }))
            .option('inputs', { type: 'string', describe: 'inputs as a JSON object, e.g. \'{"text":"hi"}\'' })
            .option('input', { type: 'string', array: true, describe: 'one input as name=value, coerced to its declared type (repeatable)' })
            .option('mode', { choices: ['sync', 'async'] as const, describe: 'sync waits inline, async runs a background job (default: the platform chooses)' })
            .option('out', { type: 'string', describe: 'with --db: folder for its file outputs (default out)' }),
        async (argv) => {
          // Given --db (or RESQ_DB), the run is recorded there like a one-row models batch.
          const record = (ctx.argv ?? []).some((x) => x === '--db' || x.startsWith('--db=')) || !!ctx.io.env.RESQ_DB;
          ctx.code = await (await actions()).modelsRunHandler({ ...(argv as unknown as RunArgs), record }, ctx.io);
        },
      )
      .command(
        'batch <id> <file>',
        'run a model on every row of a CSV or JSONL file: resumable, concurrency-capped, recorded in SQLite',
        (a) =>
          serviceOptions(
            notifyOptions(a)
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
          ctx.code = await (await import('./models-batch.js')).modelsBatchHandler(argv as unknown as ModelsBatchArgs, ctx.io);
        },
      )
      .command(
        'status [batch]',
        'rows by outcome, credits spent, unknown submissions, files of a models batch',
        (a) => a.positional('batch', { type: 'string', describe: 'batch name or id (default: the newest models batch)' }),
        async (argv) => {
          ctx.code = await (await actions()).modelsStatusHandler(argv as unknown as { batch?: string; db: string; json: boolean }, ctx.io);
        },
      )
      .command(
        'export [batch]',
        'one JSON line per input row: id, status, outputs, error, credits, model_run_id, files',
        (a) =>
          a
            .positional('batch', { type: 'string', describe: 'batch name or id (default: the newest models batch)' })
            .option('output', { type: 'string', describe: 'file to write (default: standard output)' }),
        async (argv) => {
          ctx.code = await (await actions()).modelsExportHandler(argv as unknown as { batch?: string; db: string; output?: string }, ctx.io);
        },
      )
      .demandCommand(1, 'name a models command: describe, run, batch, status or export'),
  );
}
