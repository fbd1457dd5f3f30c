import { runCli } from '../../src/cli/cli.js';
import { memoryIo, type MemoryIo } from '../../src/cli/io.js';
import type { CliResult } from './cli.js';

/** What a command run in-process said, and its IO (for signals sent while it runs). */
export interface InProcessResult extends Omit<CliResult, 'signal' | 'code'> {
  code: number;
}

/**
 * Runs the CLI in this process with an in-memory IO (commands are functions of their
 * arguments and an output sink): no child process, same parser, same exit codes. The
 * environment is this process's without RESQ_BASE_URL / RESQ_API_KEY, plus `env`.
 */
export async function runInProcess(
  args: string[],
  env: Record<string, string | undefined> = {},
  opts: { isTTY?: boolean; columns?: number; clock?: { now(): number }; onIo?: (io: MemoryIo) => void } = {},
): Promise<InProcessResult> {
  const merged: NodeJS.ProcessEnv = { ...process.env, RESQ_BASE_URL: undefined, RESQ_API_KEY: undefined, ...env };
  for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
  const io = memoryIo({ env: merged, ...opts });
  opts.onIo?.(io);
  const code = await runCli(args, io);
  return { code, stdout: io.stdout.text, stderr: io.stderr.text };
}
