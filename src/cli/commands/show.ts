import type { Argv } from 'yargs';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** `resq show BATCH ITEM`: one item in full. */
export async function showHandler(a: { batch: string; item: string; db: string; json: boolean }, io: CliIo): Promise<number> {
  const [{ openBatches }, { readItemView }, { formatItem }, { systemClock }] = await Promise.all([
    import('../open-batch.js'),
    import('../../read/item-view.js'),
    import('../text/item-text.js'),
    import('../../clock.js'),
  ]);
  const { store, batches } = await openBatches(a.db, a.batch);
  try {
    const view = await readItemView(store, batches[0]!, a.item, { nowMs: (io.clock ?? systemClock).now(), hint: { db: a.db } });
    io.stdout.write(a.json ? `${JSON.stringify(view)}\n` : `${formatItem(view, { db: a.db })}\n`);
  } finally {
    await store.close();
  }
  return EXIT.ok;
}

/** Registers `resq show`. */
export function showCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'show <batch> <item>',
    'one item: question, answer, runs, pauses with their full input, decisions, files',
    (a) =>
      a
        .positional('batch', { type: 'string', demandOption: true, describe: 'batch name or id' })
        .positional('item', { type: 'string', demandOption: true, describe: 'the item id (its id column, or its row number 1, 2, … when the file had none)' }),
    async (argv) => {
      ctx.code = await showHandler(argv as unknown as { batch: string; item: string; db: string; json: boolean }, ctx.io);
    },
  );
}
