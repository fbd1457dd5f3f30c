import type { Argv } from 'yargs';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { judgingLine } from '../text/judging-line.js';

/** `resq status [BATCH]`: counts, rate, ETA, held items, unknown submissions, cost, files, live workers. */
export async function statusHandler(a: { batch?: string; db: string; json: boolean }, io: CliIo): Promise<number> {
  // Loaded when the command runs (see cli.ts); the status module alone, not the runner's barrel.
  const [{ readBatchStatus }, { openBatch }, { formatStatus }, { listUnknownFinals }, { maskLocation }, { systemClock }] = await Promise.all([
    import('../../read/batch-status.js'),
    import('../open-batch.js'),
    import('../summary.js'),
    import('../unknown-status.js'),
    import('../../store/open.js'),
    import('../../clock.js'),
  ]);
  const { store, batch } = await openBatch(a.db, a.batch);
  try {
    const s = await readBatchStatus(store, batch, { nowMs: (io.clock ?? systemClock).now(), hint: { db: a.db } });
    const unknownFinal = await listUnknownFinals(store, batch);
    // What an agent judge cost, apart from the answers' cost (its runs are in `<name>.judge`).
    const judging = await (await import('../../score/judge-batch.js')).judgingCost(store, batch);
    io.stdout.write(
      a.json
        ? `${JSON.stringify({ ...s, unknownFinal, ...(judging ? { judging } : {}), db: maskLocation(a.db) })}\n`
        : `${formatStatus(s, { db: a.db, out: batch.settings.download.out, unknownFinal })}\n${judging ? `${judgingLine(`${batch.name}.judge`, judging)}\n` : ''}`,
    );
  } finally {
    await store.close();
  }
  return EXIT.ok;
}

/** Registers `resq status`. */
export function statusCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'status [batch]',
    'counts by state, rate, ETA, held items, failed items with why, unknown submissions, cost, files, live workers',
    (a) => a.positional('batch', { type: 'string', describe: 'batch name or id (default: the newest)' }),
    async (argv) => {
      ctx.code = await statusHandler(argv as unknown as { batch?: string; db: string; json: boolean }, ctx.io);
    },
  );
}
