import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { Argv } from 'yargs';
import { InputError } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** Flags of `resq export`. */
export interface ExportArgs {
  batch?: string;
  db: string;
  format: 'jsonl' | 'csv';
  /** The global --json: JSONL, which is the default; refused beside --format csv. */
  json?: boolean;
  output?: string;
  /** The rows `--skip-invalid` left out instead of the items: file, line, field, reason. */
  invalid?: boolean;
  /** Only failed and errored items. */
  failed?: boolean;
  /** CSV: cells as they are, no guard against spreadsheet formulas. */
  raw?: boolean;
  /** CSV: a UTF-8 byte order mark and CRLF line ends, for Excel. */
  excel?: boolean;
}

/** Refuses flags that do not go together, before anything is opened or written. */
function checkFlags(a: ExportArgs): void {
  if (a.json && a.format === 'csv') throw new InputError('--json asks for JSONL and --format csv for CSV: give one of them');
  if (a.format !== 'csv' && (a.raw || a.excel)) throw new InputError(`${a.raw ? '--raw' : '--excel'} applies to --format csv only`);
  if (a.invalid && a.failed) throw new InputError('--invalid and --failed export different things: give one of them');
}

/** `resq export [BATCH]`: the library's export lines (JSONL or CSV; every item, the failed ones, or the rows left out), to `--output` or the IO's stdout. */
export async function exportHandler(a: ExportArgs, io: CliIo): Promise<number> {
  checkFlags(a);
  // Loaded when the command runs (see cli.ts); the export module alone, not the runner's barrel.
  const [{ exportLines }, { openBatch }, { checkOutputPath }] = await Promise.all([
    import('../../runner/operations/export.js'),
    import('../open-batch.js'),
    import('../db-path.js'),
  ]);
  // Before anything is opened or written: a folder, or a folder that is not there, is a plain refusal.
  if (a.output !== undefined) checkOutputPath(a.output);
  const { store, batch } = await openBatch(a.db, a.batch);
  // Written to a temporary name and renamed, so a reader never sees half an export.
  const tmp = a.output ? `${a.output}.partial` : null;
  const out = tmp ? createWriteStream(tmp) : io.stdout;
  const opts = { format: a.format, invalid: a.invalid === true, failed: a.failed === true, raw: a.raw === true, excel: a.excel === true };
  let ok = false;
  try {
    for await (const line of exportLines(store, batch, opts)) if (!out.write(line)) await once(out, 'drain');
    if (tmp && a.output) {
      out.end();
      await once(out, 'finish');
      await rename(tmp, a.output);
    }
    ok = true;
  } finally {
    await store.close();
    if (tmp && !ok) {
      (out as ReturnType<typeof createWriteStream>).destroy();
      await rm(tmp, { force: true });
    }
  }
  return EXIT.ok;
}

/** Registers `resq export`. */
export function exportCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'export [batch]',
    'export every item: JSONL or CSV (one column per meta field; lists as JSON text)',
    (a) =>
      a
        .positional('batch', { type: 'string', describe: 'batch name or id (default: the newest)' })
        .option('format', { choices: ['jsonl', 'csv'] as const, default: 'jsonl' as const, describe: 'jsonl: one JSON object per item (what --json gives too); csv: one row per item, one column per meta field' })
        .option('output', { type: 'string', describe: 'file to write (default: standard output)' })
        .option('failed', { type: 'boolean', describe: 'only the failed and errored items' })
        .option('invalid', { type: 'boolean', describe: 'export the rows --skip-invalid left out (file, line, field, reason) instead of the items' })
        .option('raw', { type: 'boolean', describe: "CSV: cells as they are (by default a cell starting with = + - @ tab or CR gets a ' before it, so a spreadsheet shows it as text)" })
        .option('excel', { type: 'boolean', describe: 'CSV: a UTF-8 byte order mark and CRLF line ends, for Excel' }),
    async (argv) => {
      ctx.code = await exportHandler(argv as unknown as ExportArgs, ctx.io);
    },
  );
}
