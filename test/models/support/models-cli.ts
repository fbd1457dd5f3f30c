/**
 * The real CLI with `resq models` registered, for tests until src/cli/cli.ts registers it
 * (registering twice is harmless: yargs keeps the last definition).
 */
import { hideBin } from 'yargs/helpers';
import { buildCli } from '../../../src/cli/cli.js';
import { modelsCommand } from '../../../src/cli/commands/models.js';
import { EXIT, exitCodeForError } from '../../../src/cli/exit-codes.js';
import { ResqError } from '../../../src/errors.js';

async function main(argv: string[]): Promise<number> {
  process.exitCode = 0;
  try {
    await modelsCommand(buildCli(argv)).parseAsync();
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof ResqError && err.code === 'RESQ_USAGE') {
      process.stderr.write(`resq: ${err.message}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`resq: ${err instanceof ResqError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return exitCodeForError(err);
  }
}

process.exitCode = await main(hideBin(process.argv));
