import type { Argv } from 'yargs';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** Flags of `resq retry`. */
export interface RetryArgs {
  batch: string;
  db: string;
  json: boolean;
  failed?: boolean;
  errored?: boolean;
  cancelled?: boolean;
  items?: string;
  sim?: boolean;
  baseUrl?: string;
  wait: boolean;
}

/** `resq retry BATCH`: the library's {@link retryItems} queues finished items again, then they run like resume. */
export async function retryHandler(a: RetryArgs, io: CliIo): Promise<number> {
  const [{ openBatch }, { retryItems, retrySelection }] = await Promise.all([import('../open-batch.js'), import('../../runner/operations/retry.js')]);
  const items = a.items ? a.items.split(',').map((s) => s.trim()).filter(Boolean) : null;
  const { store, batch } = await openBatch(a.db, a.batch);
  let moved: string[];
  try {
    const states = [a.failed && 'failed', a.errored && 'error', a.cancelled && 'cancelled'].filter((x): x is 'failed' | 'error' | 'cancelled' => !!x);
    ({ moved } = await retryItems(store, batch, retrySelection({ states, items })));
  } finally {
    await store.close();
  }
  if (!a.json) io.stderr.write(`retrying ${moved.length} item${moved.length === 1 ? '' : 's'} of batch ${batch.name} as new runs\n`);
  if (moved.length === 0) return EXIT.ok;
  const { resumeHandler } = await import('./resume.js');
  return resumeHandler({ batch: batch.id, db: a.db, json: a.json, wait: a.wait, ...(a.sim ? { sim: true } : {}), ...(a.baseUrl ? { baseUrl: a.baseUrl } : {}) }, io);
}

/** Registers `resq retry`. */
export function retryCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'retry <batch>',
    'run finished items again as new runs (default: failed and errored); earlier attempts stay in the history',
    (a) =>
      a
        .positional('batch', { type: 'string', demandOption: true, describe: 'batch name or id' })
        .option('failed', { type: 'boolean', describe: 'retry items whose run failed' })
        .option('errored', { type: 'boolean', describe: 'retry items that ended in error (refused requests)' })
        .option('cancelled', { type: 'boolean', describe: 'retry items that were cancelled (undo a mistaken cancel)' })
        .option('items', { type: 'string', describe: 'retry these items (comma-separated ids), whatever they ended in' })
        .option('sim', { type: 'boolean', describe: 'use the built-in simulator' })
        .option('base-url', { type: 'string', describe: 'service base URL (default: the batch\'s)' })
        .option('wait', { type: 'boolean', default: true, describe: 'wait for other workers when nothing is left to claim' }),
    async (argv) => {
      ctx.code = await retryHandler(argv as unknown as RetryArgs, ctx.io);
    },
  );
}
