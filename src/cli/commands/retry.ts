import type { Argv } from 'yargs';
import { InputError } from '../../errors.js';
import type { ItemState } from '../../store/index.js';
import type { CommandContext } from '../cli.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** Flags of `resq retry`. */
export interface RetryArgs {
  batch: string;
  db: string;
  json: boolean;
  failed?: boolean;
  errored?: boolean;
  items?: string;
  sim?: boolean;
  baseUrl?: string;
  wait: boolean;
}

/** Which finished states a retry takes: the flags given, else failed and errored. */
export function retryStates(a: Pick<RetryArgs, 'failed' | 'errored' | 'items'>): ItemState[] {
  if (a.items && !a.failed && !a.errored) return ['completed', 'failed', 'error', 'cancelled'];
  const states: ItemState[] = [];
  if (a.failed || (!a.failed && !a.errored)) states.push('failed');
  if (a.errored || (!a.failed && !a.errored)) states.push('error');
  return states;
}

/** `resq retry BATCH`: finished items queued again as new attempts, then run like resume. */
export async function retryItems(a: RetryArgs, io: CliIo): Promise<number> {
  const { openBatch } = await import('../open-batch.js');
  const ids = a.items ? a.items.split(',').map((s) => s.trim()).filter(Boolean) : null;
  const { store, batch } = await openBatch(a.db, a.batch);
  let moved: string[];
  try {
    if (ids) {
      const missing = [];
      for (const id of ids) if (!(await store.getItem(batch.id, id))) missing.push(id);
      if (missing.length) throw new InputError(`batch "${batch.name}" has no item ${missing.map((m) => `"${m}"`).join(', ')}`);
    }
    moved = await store.requeue(batch.id, ids, retryStates(a));
  } finally {
    await store.close();
  }
  if (!a.json) io.stderr.write(`retrying ${moved.length} item${moved.length === 1 ? '' : 's'} of batch ${batch.name} as new runs\n`);
  if (moved.length === 0) return EXIT.ok;
  const { resumeBatchCommand } = await import('./resume.js');
  return resumeBatchCommand({ batch: batch.id, db: a.db, json: a.json, wait: a.wait, ...(a.sim ? { sim: true } : {}), ...(a.baseUrl ? { baseUrl: a.baseUrl } : {}) }, io);
}

/** Registers `resq retry`. */
export function retryCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'retry <batch>',
    'run finished items again as new runs (default: failed and errored); earlier attempts stay in the history',
    (a) =>
      a
        .positional('batch', { type: 'string', demandOption: true })
        .option('failed', { type: 'boolean', describe: 'retry items whose run failed' })
        .option('errored', { type: 'boolean', describe: 'retry items that ended in error (refused requests)' })
        .option('items', { type: 'string', describe: 'retry these items (comma-separated ids), whatever they ended in' })
        .option('sim', { type: 'boolean', describe: 'use the built-in simulator' })
        .option('base-url', { type: 'string', describe: 'service base URL (default: the batch\'s)' })
        .option('wait', { type: 'boolean', default: true, describe: 'wait for other workers when nothing is left to claim' }),
    async (argv) => {
      ctx.code = await retryItems(argv as unknown as RetryArgs, ctx.io);
    },
  );
}
