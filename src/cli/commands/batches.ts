import type { Argv } from 'yargs';

/** Registers `resq batches`. */
export function batchesCommand(y: Argv): Argv {
  return y.command(
    'batches',
    'every batch in the database: kind, created, counts by state, cost, files, live workers',
    (a) => a,
    async (argv) => {
      const a = argv as unknown as { db: string; json: boolean };
      const [{ openExistingStore }, { batchLine, formatBatches }] = await Promise.all([import('../open-batch.js'), import('../text/batches-table.js')]);
      const store = await openExistingStore(a.db);
      try {
        const lines = [];
        for (const b of await store.listBatches()) lines.push(batchLine(await store.overview(b.id)));
        process.stdout.write(a.json ? lines.map((l) => `${JSON.stringify(l)}\n`).join('') : `${formatBatches(lines)}\n`);
      } finally {
        await store.close();
      }
    },
  );
}
