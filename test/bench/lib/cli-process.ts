import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'bin/resq.js');

/** A `--json` line of the CLI, stamped with when the bench received it. */
export interface CliEvent {
  type: string;
  /** The CLI's own timestamp (ISO), when it gives one. */
  at?: string;
  [k: string]: unknown;
}

/** How a CLI child ended and what it cost. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Wall time from spawn to exit, as the bench saw it. */
  wallMs: number;
  /** Epoch ms of the spawn. */
  startedAt: number;
  /** User + system CPU of the CLI process (from /usr/bin/time); NaN when not timed. */
  cpuMs: number;
  /** Peak resident set size of the CLI process; NaN when not timed. */
  maxRssBytes: number;
  events: CliEvent[];
  stderr: string;
}

/** Options of {@link runCli}. */
export interface CliRun {
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Wrap in /usr/bin/time for CPU and peak RSS. Not with `kill`: the wrapper would be killed, not the CLI. @default true */
  timed?: boolean;
  /** Node flags for the CLI process (e.g. `--cpu-prof`). */
  nodeFlags?: string[];
  /** Run this TypeScript file (through tsx) instead of the resq CLI. */
  script?: string;
  /** Called for each JSON line as it arrives; may kill the child. */
  onEvent?: (e: CliEvent, child: ChildProcess) => void;
}

/** Runs `resq <args>` in a fresh process and collects its JSON lines, time, CPU and RSS. */
export async function runCli(o: CliRun): Promise<CliResult> {
  const timed = o.timed ?? true;
  const dir = mkdtempSync(join(tmpdir(), 'resq-bench-time-'));
  const timeFile = join(dir, 'time');
  const entry = o.script ? ['--import', 'tsx', o.script] : [BIN];
  const node = [process.execPath, ...(o.nodeFlags ?? []), ...entry, ...o.args];
  const [cmd, ...argv] = timed ? ['/usr/bin/time', '-f', '%e %U %S %M', '-o', timeFile, ...node] : node;
  const startedAt = Date.now();
  const t0 = performance.now();
  // stdout goes to a file, followed by polling when events are wanted live: a pipe read by
  // this (busy) process would block the CLI's synchronous writes and bill our parsing to it.
  const outFile = join(dir, 'stdout');
  const outFd = openSync(outFile, 'w');
  const child = spawn(cmd!, argv, { cwd: ROOT, env: { ...process.env, ...o.env }, stdio: ['ignore', outFd, 'pipe'] });
  closeSync(outFd);
  const events: CliEvent[] = [];
  let pending = '';
  let offset = 0;
  let stderr = '';
  const readNew = (): void => {
    const fd = openSync(outFile, 'r');
    const buf = Buffer.alloc(1 << 20);
    let n: number;
    while ((n = readSync(fd, buf, 0, buf.length, offset)) > 0) {
      offset += n;
      pending += buf.toString('utf8', 0, n);
    }
    closeSync(fd);
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const e = JSON.parse(line) as CliEvent;
      events.push(e);
      o.onEvent?.(e, child);
    }
  };
  const follow = o.onEvent ? setInterval(readNew, 20) : null;
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('close', (c, s) => resolve([c, s])),
  );
  const wallMs = performance.now() - t0;
  if (follow) clearInterval(follow);
  readNew();
  let cpuMs = NaN;
  let maxRssBytes = NaN;
  if (timed) {
    // The last line: a killed child makes time print a "Command terminated" line first.
    const last = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
    cpuMs = (last[1]! + last[2]!) * 1000;
    maxRssBytes = last[3]! * 1024;
  }
  rmSync(dir, { recursive: true, force: true });
  return { code, signal, wallMs, startedAt, cpuMs, maxRssBytes, events, stderr };
}

/** Epoch ms of an event's own timestamp. */
export function atMs(e: CliEvent | undefined): number {
  return e?.at ? Date.parse(e.at) : NaN;
}
