import type { Argv } from 'yargs';
import type { CommandContext } from '../command-context.js';
import { commandHint } from '../../text/command-hint.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** Flags of `resq cancel`. */
export interface CancelArgs {
  batch: string;
  db: string;
  json: boolean;
  sim?: boolean;
  baseUrl?: string;
  cancelRoute?: string;
}

/**
 * `resq cancel BATCH`: parse, call the library's {@link cancelBatch} (the service is opened
 * only when runs are in flight), render the report.
 */
export async function cancelHandler(a: CancelArgs, io: CliIo): Promise<number> {
  const [{ openBatch }, { openService, choiceFor }, { chooseService }, { cancelBatch }] = await Promise.all([
    import('../open-batch.js'),
    import('../service.js'),
    import('../../service-choice.js'),
    import('../../runner/operations/cancel.js'),
  ]);
  const { store, batch } = await openBatch(a.db, a.batch);
  try {
    const choice = chooseService({ sim: a.sim, baseUrl: a.baseUrl, envBaseUrl: io.env.RESQ_BASE_URL, batches: [batch] });
    const report = await cancelBatch(store, batch, {
      connect: () => openService(choiceFor(choice), { env: io.env, dbPath: a.db }),
      ...(a.cancelRoute ? { route: a.cancelRoute } : {}),
    });
    const { queued } = report;
    if (a.json) io.stdout.write(`${JSON.stringify({ type: 'cancel', ...report })}\n`);
    else {
      io.stdout.write(`batch ${batch.name} cancelled: ${queued} queued item${queued === 1 ? '' : 's'} will not be sent; ${report.cancelled.length} run${report.cancelled.length === 1 ? '' : 's'} in flight cancelled at the service\n`);
      if (report.left.length > 0)
        io.stdout.write(`${report.left.length} run(s) left to finish on their own: ${report.reason} (give the route with --cancel-route, or cancel_route in the pipeline)\n`);
      io.stdout.write(`workers attached to the batch stop admitting at their next heartbeat; to undo: ${commandHint(['resq', 'retry', batch.name, '--cancelled'], { db: a.db })}\n`);
    }
    return report.left.length > 0 ? EXIT.failed : EXIT.ok;
  } finally {
    await store.close();
  }
}

/** Registers `resq cancel`. */
export function cancelCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'cancel <batch>',
    'send nothing more from a batch and cancel its runs in flight at the service',
    (a) =>
      a
        .positional('batch', { type: 'string', demandOption: true, describe: 'batch name or id' })
        .option('sim', { type: 'boolean', describe: 'use the built-in simulator' })
        .option('base-url', { type: 'string', describe: 'service base URL (default: the batch\'s)' })
        .option('cancel-route', { type: 'string', describe: 'where runs are cancelled, {id} for the run id (default /runs/{id}/cancel, or the pipeline\'s cancel_route)' }),
    async (argv) => {
      ctx.code = await cancelHandler(argv as unknown as CancelArgs, ctx.io);
    },
  );
}
