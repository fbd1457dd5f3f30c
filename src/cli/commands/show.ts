import type { Argv } from 'yargs';
import { InputError } from '../../errors.js';
import type { CommandContext } from '../cli.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** `resq show BATCH ITEM`: one item in full. */
export async function showItem(a: { batch: string; item: string; db: string; json: boolean }, io: CliIo): Promise<number> {
  const [{ openBatches }, { formatItem }, { printable }] = await Promise.all([import('../open-batch.js'), import('../text/item-text.js'), import('../text/printable.js')]);
  const { store, batches } = await openBatches(a.db, a.batch);
  try {
    const batch = batches[0]!;
    const item = await store.getItem(batch.id, a.item);
    if (!item) {
      const some = (await store.listItems(batch.id, { limit: 5 })).map((i) => printable(i.id));
      throw new InputError(`batch "${printable(batch.name)}" has no item "${printable(a.item)}"${some.length ? ` (items include ${some.join(', ')})` : ''}`);
    }
    const view = {
      batch: batch.name,
      item,
      runs: await store.runChain(batch.id, item.id),
      decisions: await store.decisionsForItem(batch.id, item.id),
      files: await store.filesForItem(batch.id, item.id),
    };
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
      ctx.code = await showItem(argv as unknown as { batch: string; item: string; db: string; json: boolean }, ctx.io);
    },
  );
}
