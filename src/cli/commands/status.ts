import type { Argv } from 'yargs';
import { batchStatus } from '../../runner/index.js';
import { openBatch } from '../open-batch.js';
import { formatStatus } from '../summary.js';

/** Registers `resq status`. */
export function statusCommand(y: Argv): Argv {
  return y.command(
    'status [batch]',
    'counts by state, rate, ETA, held items, unknown submissions, cost, files',
    (a) => a.positional('batch', { type: 'string', describe: 'batch name or id (default: the newest)' }),
    (argv) => {
      const a = argv as unknown as { batch?: string; db: string; json: boolean };
      const { store, batch } = openBatch(a.db, a.batch);
      try {
        const s = batchStatus(store, batch);
        process.stdout.write(a.json ? `${JSON.stringify(s)}\n` : `${formatStatus(s, { db: a.db, out: batch.settings.download.out })}\n`);
      } finally {
        store.close();
      }
    },
  );
}
