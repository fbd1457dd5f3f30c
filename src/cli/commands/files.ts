import type { Argv } from 'yargs';
import { DEFAULT_DOWNLOAD_CONCURRENCY } from '../../store/settings-defaults.js';
import type { CommandContext } from '../command-context.js';
import type { Common, PullArgs } from './files-actions.js';

/** What the files commands run (files/, the store, the client), loaded only when one runs. */
const actions = () => import('./files-actions.js');

function pullOptions<T>(a: Argv<T>) {
  return a
    .positional('batch', { type: 'string', describe: 'batch name or id (default: every batch)' })
    .option('out', { type: 'string', describe: "root folder for files (default: the batch's --out, else out)" })
    .option('concurrency', { type: 'number', describe: `files downloaded at once (default: the batch's download setting, ${DEFAULT_DOWNLOAD_CONCURRENCY})` })
    .option('sim', { type: 'boolean', describe: 'use the built-in simulator' })
    .option('base-url', { type: 'string', describe: "service base URL ending in /api/v1 (default: the batch's, else $RESQ_BASE_URL)" });
}

/** Registers `resq files status [BATCH]`, `resq files pull [BATCH]` and `resq files verify [BATCH]`. */
export function filesCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command('files', 'files the runs made: status, pull, verify', (f) =>
    f
      .command(
        'status [batch]',
        'counts by state, bytes on disk, soonest expiry, files expiring within 7 days not on disk',
        (a) => a.positional('batch', { type: 'string', describe: 'batch name or id (default: every batch)' }),
        async (argv) => {
          ctx.code = await (await actions()).filesStatusHandler(argv as unknown as Common, ctx.io);
        },
      )
      .command(
        'pull [batch]',
        'download every file not on disk (exit 1 when some cannot be fetched)',
        (a) => pullOptions(a),
        async (argv) => {
          ctx.code = await (await actions()).filesPullHandler(argv as unknown as PullArgs, ctx.io);
        },
      )
      .command(
        'verify [batch]',
        're-hash downloaded files; report any changed or gone (exit 1 if so)',
        (a) => a.positional('batch', { type: 'string', describe: 'batch name or id (default: every batch)' }),
        async (argv) => {
          ctx.code = await (await actions()).filesVerifyHandler(argv as unknown as Common, ctx.io);
        },
      )
      .demandCommand(1, 'name a files command: status, pull or verify'),
  );
}
