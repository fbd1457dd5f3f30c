import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { collect, ROOT, type CliResult } from '../../support/cli.js';

const ENTRY = join(ROOT, 'test/models/support/models-cli.ts');

/** Starts the CLI (with `resq models` registered) as a child process on the project's Node. */
export function spawnModels(args: string[], env: Record<string, string | undefined> = {}): ChildProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, RESQ_BASE_URL: undefined, RESQ_API_KEY: undefined, FORCE_COLOR: '0', ...env };
  for (const k of Object.keys(childEnv)) if (childEnv[k] === undefined) delete childEnv[k];
  return spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs the CLI to the end. */
export function runModels(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return collect(spawnModels(args, env));
}
