import yargs from 'yargs';
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
import { EXIT, exitCodeForError } from './exit-codes.js';
import { packageVersion } from './version.js';

/** Prints an error the way a user should see it: no stack for our own errors. */
function report(err: unknown): number {
  if (err instanceof InputError && err.problems.length > 1) {
    const lines = err.problems.map((p) => `  ${formatProblem(p)}`).join('\n');
    process.stderr.write(`resq: ${err.problems.length} problems; nothing was sent or recorded:\n${lines}\n`);
  } else if (err instanceof ResqError) {
    process.stderr.write(`resq: ${err.message}\n`);
  } else {
    const e = err instanceof Error ? err : new Error(String(err));
    process.stderr.write(`resq: internal error (a bug — please report it): ${e.stack ?? e.message}\n`);
  }
  return exitCodeForError(err);
}

/** Builds the CLI parser; exported for tests. */
export function buildCli(argv: string[]) {
  let cli = yargs(argv)
    .scriptName('resq')
    .usage('$0 <command> [options]\n\nRun bulk question sets against the Research Agent and Model Service.')
    .option('db', { type: 'string', default: process.env.RESQ_DB || 'resq.db', defaultDescription: '$RESQ_DB, else resq.db', describe: 'SQLite file, or a postgres:// URL (a password in it is never printed)', global: true })
    .option('json', { type: 'boolean', default: false, describe: 'one JSON object per line instead of text', global: true })
    .strict()
    .demandCommand(1, 'name a command (resq --help lists them)')
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version('version', 'print the version of resq', packageVersion())
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((msg, err) => {
      if (err) throw err;
      throw new UsageError(msg);
    });
  for (const add of [runCommand, resumeCommand, statusCommand, batchesCommand, showCommand, retryCommand, answerCommand, exportCommand, filesCommand, modelsCommand, threadsCommand, simCommand])
    cli = add(cli) as typeof cli;
  return cli;
}

/** A usage mistake yargs caught (unknown flag, missing argument). */
class UsageError extends ResqError {
  override readonly code: string = 'RESQ_USAGE';
}

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  process.exitCode = 0;
  try {
    await buildCli(argv).parseAsync();
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`resq: ${err.message}\nrun \`resq --help\` for the commands and options\n`);
      return EXIT.usage;
    }
    return report(err);
  }
}
