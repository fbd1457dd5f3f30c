import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { InputError } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** Flags of `resq report`. */
export interface ReportArgs {
  batch: string;
  output: string;
  compare?: string;
  serveUrl: string;
  db: string;
  json: boolean;
}

/** The output path checked before anything is read: its folder exists, and it is not itself a folder. */
function checkOutput(output: string): void {
  const path = resolve(output);
  const dir = statSync(dirname(path), { throwIfNoEntry: false });
  if (!dir?.isDirectory()) throw new InputError(`--output: the folder ${dirname(path)} does not exist`);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw new InputError(`--output: ${path} is a folder; name the HTML file to write`);
}

/** `--serve-url` as an http(s) address without a path's trailing slash. */
function serveUrlOf(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new InputError(`--serve-url: "${raw.slice(0, 80)}" is not an address (e.g. http://127.0.0.1:8642)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new InputError(`--serve-url: only http or https addresses (got ${u.protocol})`);
  if (u.username || u.password) throw new InputError('--serve-url: no user name or password in the address');
  return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
}

/**
 * `resq report BATCH --output report.html [--compare OTHER]`: writes the batch's report, one
 * self-contained HTML file, and says where and how big.
 */
export async function reportHandler(a: ReportArgs, io: CliIo): Promise<number> {
  checkOutput(a.output);
  const serveUrl = serveUrlOf(a.serveUrl);
  const [{ openBatch, findRunsBatch }, { writeReport }, { formatBytes }, { oneLine }] = await Promise.all([
    import('../open-batch.js'),
    import('../../report/index.js'),
    import('../../format-bytes.js'),
    import('../../text/printable.js'),
  ]);
  const { store, batch } = await openBatch(a.db, a.batch);
  try {
    const compare = a.compare !== undefined ? await findRunsBatch(store, a.compare, '--compare') : null;
    const r = await writeReport(store, batch, { output: a.output, compare, serveUrl });
    if (a.json) io.stdout.write(`${JSON.stringify(r)}\n`);
    else io.stdout.write(`wrote ${oneLine(r.path, 300)}: ${r.items} items, ${formatBytes(r.bytes)} (open it in a browser; no server needed)\n`);
  } finally {
    await store.close();
  }
  return EXIT.ok;
}

/** Registers `resq report`. */
export function reportCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'report <batch>',
    "a report to share: one self-contained HTML file with the counts, cost, pass rates, failures, decisions and every item (no server, no network, no script)",
    (x) =>
      x
        .positional('batch', { type: 'string', demandOption: true, describe: 'the batch (name or id)' })
        .option('output', { type: 'string', demandOption: true, describe: 'the HTML file to write (replaced whole)' })
        .option('compare', { type: 'string', describe: 'another batch: add the regressions against it (passed there, fail here)' })
        .option('serve-url', { type: 'string', default: 'http://127.0.0.1:8642', describe: 'where resq serve answers: a cut answer links to its whole text there' }),
    async (argv) => {
      ctx.code = await reportHandler(argv as unknown as ReportArgs, ctx.io);
    },
  );
}
