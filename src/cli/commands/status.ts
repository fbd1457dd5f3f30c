import type { Argv } from 'yargs';

/** Registers `resq status`. */
export function statusCommand(y: Argv): Argv {
  return y.command(
    'status [batch]',
    'counts by state, rate, ETA, held items, unknown submissions, cost, files',
    (a) => a.positional('batch', { type: 'string', describe: 'batch name or id (default: the newest)' }),
    async (argv) => {
      const a = argv as unknown as { batch?: string; db: string; json: boolean };
      // Loaded when the command runs (see cli.ts); the status module alone, not the runner's barrel.
      const [{ batchStatus }, { openBatch }, { formatStatus }, { listUnknownFinals }] = await Promise.all([
        import('../../runner/status.js'),
        import('../open-batch.js'),
        import('../summary.js'),
        import('../unknown-status.js'),
      ]);
      const { store, batch } = await openBatch(a.db, a.batch);
      try {
        const s = await batchStatus(store, batch);
        const unknownFinal = await listUnknownFinals(store, batch);
        process.stdout.write(
          a.json ? `${JSON.stringify({ ...s, unknownFinal })}\n` : `${formatStatus(s, { db: a.db, out: batch.settings.download.out, unknownFinal })}\n`,
        );
      } finally {
        await store.close();
      }
    },
  );
}
