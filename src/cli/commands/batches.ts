import type { Argv } from 'yargs';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** `resq batches`: every batch of the database, newest first. */
export async function batchesHandler(a: { db: string; json: boolean }, io: CliIo): Promise<number> {
  const [{ openExistingStore }, { batchLine, formatBatches }] = await Promise.all([import('../open-batch.js'), import('../text/batches-table.js')]);
  const store = await openExistingStore(a.db);
  try {
    const lines = [];
    for (const b of await store.listBatches()) lines.push(batchLine(await store.overview(b.id)));
    io.stdout.write(a.json ? lines.map((l) => `${JSON.stringify(l)}\n`).join('') : `${formatBatches(lines)}\n`);
  } finally {
    await store.close();
  }
  return EXIT.ok;
}

/** Registers `resq batches`. */
export function batchesCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'batches',
    'every batch in the database: kind, created, counts by state, cost, files, live workers',
    (a) => a,
    async (argv) => {
      ctx.code = await batchesHandler(argv as unknown as { db: string; json: boolean }, ctx.io);
    },
  );
}
