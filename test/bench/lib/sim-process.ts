import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SimCounters, SimOptions } from '../../../src/sim/index.js';

const SERVER = fileURLToPath(new URL('./sim-server.ts', import.meta.url));

/** A simulator serving from its own process. */
export interface SimProcess {
  /** Base URL ending in /api/v1. */
  url: string;
  origin: string;
  /** An API key it accepts. */
  key: string;
  /** A snapshot of its counters. */
  counters(): Promise<SimCounters>;
  /** CPU time (user + system) the simulator process has used so far, from /proc. */
  cpuMs(): number;
  /** Peak resident set size of the simulator process so far (VmHWM from /proc). */
  peakRssBytes(): number;
  /** Zeroes its counters. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the simulator in a child process (with `nodeFlags`, e.g. a larger heap) and resolves once it listens. */
export async function startSimProcess(options: SimOptions = {}, nodeFlags: readonly string[] = []): Promise<SimProcess> {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', SERVER, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise<{ url: string; origin: string; key: string }>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      if (buf.includes('\n')) resolve(JSON.parse(buf.split('\n')[0]!) as { url: string; origin: string; key: string });
    });
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    ...info,
    counters: async () => (await (await fetch(`${info.origin}/_sim/counters`)).json()) as SimCounters,
    cpuMs: () => procCpuMs(child.pid!),
    peakRssBytes: () => procPeakRssBytes(child.pid!),
    reset: async () => void (await fetch(`${info.origin}/_sim/reset`, { method: 'POST' })).arrayBuffer(),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Every /api/v1 request the simulator counted. */
export function totalRequests(c: SimCounters): number {
  return Object.values(c.requestsByRoute).reduce((a, b) => a + b, 0);
}

/** User + system CPU of a live process, from /proc/PID/stat (clock ticks of 10 ms). */
export function procCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Peak resident set size of a live process (VmHWM in /proc/PID/status). */
export function procPeakRssBytes(pid: number): number {
  const hit = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return hit ? Number(hit[1]) * 1024 : NaN;
}
