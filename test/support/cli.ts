import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repo root (tests run the CLI from there). */
export const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/resq.js');

/** A fresh temporary folder. */
export function tempDir(prefix = 'resq-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** What a finished CLI process said. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts the real CLI as a child process (the project's Node, through the bin). */
export function spawnCli(args: string[], env: Record<string, string | undefined> = {}, cwd = ROOT): ChildProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, RESQ_BASE_URL: undefined, RESQ_API_KEY: undefined, FORCE_COLOR: '0' };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete childEnv[k];
    else childEnv[k] = v;
  }
  for (const k of Object.keys(childEnv)) if (childEnv[k] === undefined) delete childEnv[k];
  return spawn(process.execPath, [BIN, ...args], { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs the CLI to the end and collects its output. */
export function runCliChild(args: string[], env: Record<string, string | undefined> = {}, cwd = ROOT): Promise<CliResult> {
  const child = spawnCli(args, env, cwd);
  return collect(child);
}

/** Collects a child's output until it exits. */
export function collect(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((res, rej) => {
    child.on('error', rej);
    child.on('close', (code, signal) => res({ code, signal, stdout, stderr }));
  });
}
