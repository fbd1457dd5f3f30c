import yargs, { type Argv } from 'yargs';
import { formatProblem, InputError, ResqError } from '../errors.js';
// Every command is registered (help, suggestions and strict parsing see them all), but a command
// module holds only its definition: what it runs (the store, runner, client, simulator…) is
// imported by its handler, so start-up loads yargs and these small files and nothing else.
// test/cli/lazy-loading.test.ts checks it.
import { answerCommand } from './commands/answer.js';
import { exportCommand } from './commands/export.js';
import { resumeCommand } from './commands/resume.js';
import { runCommand } from './commands/run.js';
import { simCommand } from './commands/sim.js';
import { statusCommand } from './commands/status.js';
import { threadsCommand } from './commands/threads.js';
import { modelsCommand } from './commands/models.js';
import { filesCommand } from './commands/files.js';
import { batchesCommand } from './commands/batches.js';
import { showCommand } from './commands/show.js';
import { retryCommand } from './commands/retry.js';
import { cancelCommand } from './commands/cancel.js';
import { compareCommand } from './commands/compare.js';
import { reportCommand } from './commands/report.js';
import { serveCommand } from './commands/serve.js';
import { policyCommand } from './commands/policy.js';
import { forecastCommand } from './commands/forecast.js';
import { scoreCommand } from './commands/score.js';
import { EXIT, exitCodeForError } from './exit-codes.js';
import { packageVersion } from '../package-root.js';
import { userMessage } from './error-message.js';
import { mappedStack } from './mapped-stack.js';
import { oneLine } from '../text/printable.js';
import { usageMessage, type UsageContext } from './did-you-mean.js';
import { isDiskFull, isStoreFault } from '../runner/store-fault.js';
import type { CliIo } from './io.js';
import type { CommandContext } from './command-context.js';


/** The `--db` a command line gives (else RESQ_DB, else resq.db), read before or without yargs. */
function dbOf(argv: readonly string[], env: NodeJS.ProcessEnv): string {
  const i = argv.lastIndexOf('--db');
  const eq = argv.findLast((a) => a.startsWith('--db='));
  return (i >= 0 ? argv[i + 1] : undefined) ?? eq?.slice('--db='.length) ?? (env.RESQ_DB || 'resq.db');
}

/**
 * Prints an error the way a user should see it: no stack for our own errors, nor for a full
 * disk, nor for a statement the database refused (a stop: its transaction rolled back whole).
 */
function report(err: unknown, io: CliIo, argv: readonly string[]): number {
  if (isDiskFull(err)) {
    io.stderr.write(`resq: ${userMessage(err, { db: dbOf(argv, io.env) })}\n`);
    return EXIT.failed;
  }
  if (err instanceof InputError && err.problems.length > 1) {
    const lines = err.problems.map((p) => `  ${formatProblem(p)}`).join('\n');
    io.stderr.write(`resq: ${err.problems.length} problems; nothing was sent or recorded:\n${lines}\n`);
  } else if (err instanceof ResqError) {
    io.stderr.write(`resq: ${userMessage(err)}\n`);
  } else if (isStoreFault(err)) {
    const code = (err as { code?: unknown }).code;
    io.stderr.write(`resq: stopped: database error (${String(code)}): ${oneLine(userMessage(err), 1000)}\n`);
  } else {
    const e = err instanceof Error ? err : new Error(String(err));
    io.stderr.write(`resq: internal error (a bug — please report it): ${e.stack === undefined ? e.message : mappedStack(e.stack)}\n`);
  }
  return exitCodeForError(err);
}

/** Builds the CLI parser; exported for tests. */
export function buildCli(argv: string[], ctx: CommandContext): Argv {
  let top: string[] = [];
  let cli = yargs(argv)
    .scriptName('resq')
    .usage('$0 <command> [options]\n\nRun bulk question sets against the Research Agent and Model Service.')
    .option('db', { type: 'string', default: ctx.io.env.RESQ_DB || 'resq.db', defaultDescription: '$RESQ_DB, else resq.db', describe: 'SQLite file, or a postgres:// URL (a password in it is never printed)', global: true })
    .option('json', { type: 'boolean', default: false, describe: 'one JSON object per line instead of text', global: true })
    .strict()
    .demandCommand(1, 'name a command (resq --help lists them)')
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version(false)
    .option('version', { type: 'boolean', describe: 'print the version of resq', global: false })
    .exitProcess(false)
    .wrap(Math.min(110, ctx.io.columns || 100))
    .fail((msg, err, usage) => {
      if (err) throw err;
      throw new UsageError(usageMessage(msg, usage as unknown as UsageContext, argv, top));
    }) as Argv;
  for (const add of [runCommand, resumeCommand, statusCommand, batchesCommand, showCommand, retryCommand, cancelCommand, answerCommand, exportCommand, filesCommand, modelsCommand, threadsCommand, simCommand, serveCommand, compareCommand, policyCommand, forecastCommand, scoreCommand, reportCommand])
    cli = add(cli, ctx);
  top = topCommandNames(cli);
  return cli;
}

/** The top-level command names a parser has (`run`, `files`, …). */
function topCommandNames(cli: Argv): string[] {
  const usage = (cli as unknown as { getInternalMethods(): { getUsageInstance(): UsageContext } }).getInternalMethods().getUsageInstance();
  return usage.getCommands().map((c) => c[0].split(' ')[0]!);
}

/**
 * Whether the command line asks for the version: `--version` with no command. It is answered
 * before yargs parses, so the option lives at the top only (yargs' own lists it under every
 * sub-command, where it printed the same thing).
 */
function asksVersion(argv: readonly string[], cli: Argv): boolean {
  if (!argv.includes('--version')) return false;
  const commands = topCommandNames(cli);
  return !argv.some((a) => commands.includes(a));
}

/** A usage mistake yargs caught (unknown flag, missing argument). */
class UsageError extends ResqError {
  override readonly code: string = 'RESQ_USAGE';
}

/**
 * Runs the CLI on `argv` (without node and script) with `io` and returns the exit code. Only
 * src/cli/main.ts calls it with the process's IO; tests call it with {@link memoryIo}.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const ctx: CommandContext = { io, code: null, argv };
  try {
    let help = '';
    const cli = buildCli(argv, ctx);
    if (asksVersion(argv, cli)) {
      io.stdout.write(`${packageVersion()}\n`);
      return EXIT.ok;
    }
    await cli.parseAsync(argv, {}, (_err, _argv, output) => {
      help = output;
    });
    if (help) io.stdout.write(`${help}\n`);
    return ctx.code ?? EXIT.ok;
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`resq: ${err.message}\nthe commands and options: resq --help\n`);
      return EXIT.usage;
    }
    return report(err, io, argv);
  }
}
