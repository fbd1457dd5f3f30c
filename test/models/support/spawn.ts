import type { ChildProcess } from 'node:child_process';
import { spawnCli } from '../../support/cli.js';
import { runInProcess, type InProcessResult } from '../../support/in-process-cli.js';

/** Starts the real CLI as a child process (for kills: the point is a process that dies). */
export function spawnModels(args: string[], env: Record<string, string | undefined> = {}): ChildProcess {
  return spawnCli(args, env);
}

/** Runs the CLI in-process to the end (output captured from its IO, no child process). */
export function runModels(args: string[], env: Record<string, string | undefined> = {}): Promise<InProcessResult> {
  return runInProcess(args, env);
}
