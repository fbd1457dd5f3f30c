import { hideBin } from 'yargs/helpers';
import { runCli } from './cli.js';
import { RESTORE_TERMINAL, STOP_SIGNALS, type CliIo, type StopSignal } from './io.js';

// The only module that touches `process`: it builds the IO every command gets.

/** The IO of this process: its stdout and stderr, environment, terminal and signals. */
export function processIo(): CliIo {
  const tty = process.stderr.isTTY === true;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    isTTY: tty,
    columns: process.stderr.columns || 80,
    onStop: (handler) => {
      const listeners = (Object.keys(STOP_SIGNALS) as StopSignal[]).map((s) => [s, () => handler(s)] as const);
      for (const [s, l] of listeners) process.on(s, l);
      return () => {
        for (const [s, l] of listeners) process.off(s, l);
      };
    },
    exitNow: (code) => process.exit(code),
  };
}

/**
 * The whole process: a closed pipe ends quietly, the terminal is restored at start and exit,
 * and the exit code is the command's. bin/resq.js calls it.
 */
export async function main(argv: string[] = hideBin(process.argv)): Promise<void> {
  // A closed pipe (`resq export | head -1`) is a reader that has seen enough: end quietly, exit 0.
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
  // A bar of ours (or of an earlier resq killed with -9) may have hidden the cursor and turned
  // line wrap off: restore both at start and at exit, on a terminal only.
  if (process.stderr.isTTY) {
    process.stderr.write(RESTORE_TERMINAL);
    process.on('exit', () => process.stderr.write(RESTORE_TERMINAL));
  }
  process.exitCode = await runCli(argv, processIo());
}
