import { createWriteStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import { once } from 'node:events';
import type { Argv } from 'yargs';

/** Registers `resq export`. */
export function exportCommand(y: Argv): Argv {
  return y.command(
    'export [batch]',
    'export every item: JSONL or CSV (lists flattened to JSON text)',
    (a) =>
      a
        .positional('batch', { type: 'string', describe: 'batch name or id (default: the newest)' })
        .option('format', { choices: ['jsonl', 'csv'] as const, default: 'jsonl' as const })
        .option('output', { type: 'string', describe: 'file to write (default: standard output)' }),
    async (argv) => {
      const a = argv as unknown as { batch?: string; db: string; format: 'jsonl' | 'csv'; output?: string };
      // Loaded when the command runs (see cli.ts); the export module alone, not the runner's barrel.
      const [{ stringify }, { CSV_COLUMNS, exportRows, flattenRow }, { openBatch }] = await Promise.all([
        import('csv-stringify/sync'),
        import('../../runner/export-rows.js'),
        import('../open-batch.js'),
      ]);
      const { store, batch } = await openBatch(a.db, a.batch);
      // Written to a temporary name and renamed, so a reader never sees half an export.
      const tmp = a.output ? `${a.output}.partial` : null;
      const out = tmp ? createWriteStream(tmp) : process.stdout;
      try {
        if (a.format === 'csv') out.write(stringify([CSV_COLUMNS as unknown as string[]]));
        for await (const row of exportRows(store, batch)) {
          const line = a.format === 'csv' ? stringify([CSV_COLUMNS.map((c) => flattenRow(row)[c])]) : `${JSON.stringify(row)}\n`;
          if (!out.write(line)) await once(out, 'drain');
        }
      } finally {
        await store.close();
      }
      if (tmp && a.output) {
        (out as ReturnType<typeof createWriteStream>).end();
        await once(out, 'finish');
        await rename(tmp, a.output);
      }
    },
  );
}
