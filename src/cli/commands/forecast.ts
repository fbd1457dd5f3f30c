import type { Argv } from 'yargs';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** Flags of `resq forecast`. */
export interface ForecastArgs {
  file: string;
  /** One batch, or several (`--from A --from B`): the first is the one FILE is matched against. */
  from: string | string[];
  limit?: number;
  all?: boolean;
  policy?: string;
  budget?: number;
  cap?: number;
  db: string;
  json: boolean;
}

/**
 * `resq forecast FILE --from BATCH`: what running the question set will likely cost and take,
 * from a batch that ran (a finished one, or one that ran the first `--limit N` of FILE: then
 * the forecast is for the rest). Parse → {@link readForecast} → render.
 */
export async function forecastHandler(a: ForecastArgs, io: CliIo): Promise<number> {
  const [{ loadPolicyFile }, { openBatch, findRunsBatch }, { readForecast }, { forecastText }, { wholeNumber }, { InputError }] = await Promise.all([
    import('../../config/policy-file.js'),
    import('../open-batch.js'),
    import('../../forecast/reader.js'),
    import('../text/forecast-text.js'),
    import('../whole-number.js'),
    import('../../errors.js'),
  ]);
  wholeNumber('limit', a.limit, 1, Number.MAX_SAFE_INTEGER);
  wholeNumber('cap', a.cap, 1, 10_000);
  if (a.budget !== undefined && !(Number.isFinite(a.budget) && a.budget > 0)) throw new InputError(`--budget: must be a number above 0, got ${a.budget}`);
  const policy = a.policy ? await loadPolicyFile(a.policy) : undefined;
  const [first, ...more] = [a.from].flat();
  const { store, batch } = await openBatch(a.db, first);
  try {
    const also = await Promise.all(more.map((name) => findRunsBatch(store, name, '--from')));
    const f = await readForecast(store, {
      file: a.file,
      from: batch,
      ...(also.length > 0 ? { also } : {}),
      ...(a.limit !== undefined ? { limit: a.limit } : {}),
      ...(a.all ? { all: true } : {}),
      ...(policy !== undefined ? { policy } : {}),
      ...(a.budget !== undefined ? { budget: a.budget } : {}),
      ...(a.cap !== undefined ? { cap: a.cap } : {}),
    });
    if (a.json) io.stdout.write(`${JSON.stringify({ type: 'forecast', estimate: true, ...f })}\n`);
    else io.stdout.write(forecastText(f, a.policy ?? `batch ${batch.name}'s own`));
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/** Registers `resq forecast`. */
export function forecastCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'forecast <file>',
    'estimate cost per question, held pauses, total cost against the budget and wall time of a question set, from a batch that ran',
    (x) =>
      x
        .positional('file', { type: 'string', demandOption: true, describe: 'question set (CSV, TSV or JSONL), read as run reads it' })
        .option('from', {
          type: 'string',
          demandOption: true,
          describe: 'a batch that ran: a finished one, or one that ran the first --limit N of FILE (then the rest is forecast); again to learn from more batches',
        })
        .option('limit', { type: 'number', describe: 'forecast only the next N questions' })
        .option('all', { type: 'boolean', describe: 'every row of FILE again, even when the batch has some not run yet' })
        .option('policy', { type: 'string', describe: 'the policy file the questions will run under (default: the batch\'s own)' })
        .option('budget', { type: 'number', describe: 'the budget to hold the total against (default: the policy\'s batch_budget)' })
        .option('cap', { type: 'number', describe: 'runs in flight at once (default: the batch\'s concurrency)' }),
    async (argv) => {
      ctx.code = await forecastHandler(argv as unknown as ForecastArgs, ctx.io);
    },
  );
}
