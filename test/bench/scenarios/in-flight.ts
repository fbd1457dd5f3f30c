// Issue 16: ten thousand runs in flight in one process. N=20,000, C=10,000, D=20 s against
// the simulator in its own process: makespan against the ideal ceil(N/C)·D, resq CPU per
// run, peak RSS and what each run in flight adds to it above an idle resq process, and the
// simulator's own peak RSS (it must hold as many runs).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../lib/args.js';
import { atMs, runCli } from '../lib/cli-process.js';
import { writeQuestions } from '../lib/questions.js';
import { emitRows, fmt, row } from '../lib/report.js';
import { startSimProcess } from '../lib/sim-process.js';
import { startupCost } from '../lib/workload.js';

const PROBE = fileURLToPath(new URL('../lib/mem-probe.mjs', import.meta.url));
const MiB = 2 ** 20;

const args = benchArgs();
const [n, c, d] = args.get('config', '') ? args.get('config', '').split(',').map(Number) as [number, number, number]
  : args.quick ? [4000, 2000, 10_000] : [20_000, 10_000, 20_000];
const name = `in flight N=${n} C=${c} D=${d / 1000}s`;
const dir = mkdtempSync(join(tmpdir(), 'resq-bench-inflight-'));
// The idle process: what any resq command costs before it holds a run (left out of per-run figures).
const idle = await startupCost(dir);
const sim = await startSimProcess();
try {
  const questions = join(dir, 'q.csv');
  writeQuestions(questions, n, (i) => `Question ${i} @duration=${d}ms`);
  const probe = join(dir, 'mem.jsonl');
  const nodeFlags = ['--import', PROBE, ...args.get('node-flags', '').split(' ').filter(Boolean)];
  if (args.has('cpu-prof')) nodeFlags.push('--cpu-prof', `--cpu-prof-dir=${args.get('cpu-prof-dir', dir)}`);
  const simCpu0 = sim.cpuMs();
  const r = await runCli({
    args: ['run', questions, '--db', join(dir, 'r.db'), '--base-url', sim.url, '--concurrency', String(c), '--no-download', '--json'],
    env: { RESQ_API_KEY: sim.key, RESQ_MEM_PROBE: probe, RESQ_HEAP_SNAPSHOT: args.get('heap-snapshot', '') },
    nodeFlags,
  });
  if (r.code !== 0) throw new Error(`resq exited ${r.code}: ${r.stderr.slice(-2000)}`);
  const simCpuMs = sim.cpuMs() - simCpu0;
  const counters = await sim.counters();
  const ideal = Math.ceil(n / c) * d;
  const batchMs = atMs(r.events.find((e) => e.type === 'end')) - atMs(r.events.find((e) => e.type === 'start'));
  const cpuPerRun = (r.cpuMs - idle.cpuMs) / n;
  const perRunKiB = (r.maxRssBytes - idle.maxRssBytes) / c / 1024;
  // The probe sample with the highest RSS: where the peak sits.
  const samples = readFileSync(probe, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, number>);
  const peak = samples.reduce((a, b) => (b.rss! > a.rss! ? b : a));
  const mib = (k: string): string => fmt(peak[k]! / MiB, 0);
  // When the C-th run was admitted (the first wave complete), and the last start→end.
  const running = r.events.filter((e) => e.type === 'item' && e.state === 'running').map(atMs).sort((a, b) => a - b);
  const t0 = atMs(r.events.find((e) => e.type === 'start'));
  const full = !args.quick && n === 20_000 && c === 10_000;
  emitRows([
    row(name, 'batch, start→end event', fmt(batchMs / 1000, 2, 's'), `ideal ${fmt(ideal / 1000, 1, 's')}`, ideal / batchMs, '>= 0.9', full ? ideal / batchMs >= 0.9 : null),
    row(name, 'resq CPU per run', fmt(cpuPerRun, 2, 'ms'), `CLI ${fmt(r.cpuMs / 1000, 1, 's')} − idle ${fmt(idle.cpuMs, 0, 'ms')}`, 1 / cpuPerRun, '<= 1 ms', full ? cpuPerRun <= 1 : null),
    row(name, 'resq peak RSS', fmt(r.maxRssBytes / MiB, 0, 'MiB'), `idle ${fmt(idle.maxRssBytes / MiB, 0, 'MiB')}`, 500 / (r.maxRssBytes / MiB), '<= 500 MiB', full ? r.maxRssBytes <= 500 * MiB : null),
    row(name, 'RSS per run in flight above idle', fmt(perRunKiB, 1, 'KiB'), '', 40 / perRunKiB, '<= 40 KiB', full ? perRunKiB <= 40 : null),
    row(name, 'at the peak: heap used / total, array buffers, external', `${mib('heapUsed')} / ${mib('heapTotal')}, ${mib('arrayBuffers')}, ${mib('external')} MiB`, `anon ${mib('anon')}, file ${mib('fileRss')} MiB, ${peak.sockets} sockets`),
    row(name, `first ${c} runs admitted after`, fmt((running[c - 1]! - t0) / 1000, 2, 's'), `last admitted after ${fmt((running.at(-1)! - t0) / 1000, 2, 's')}`),
    row(name, 'simulator peak RSS (other process)', fmt(sim.peakRssBytes() / MiB, 0, 'MiB'), `${counters.runsAdmitted} runs admitted`),
    row(name, 'simulator CPU per run (other process)', fmt(simCpuMs / n, 2, 'ms'), `${fmt(simCpuMs / 1000, 1, 's')} in all`),
  ]);
  if (args.has('verbose')) process.stderr.write(`${name}: ${JSON.stringify(counters.requestsByRoute)}\n`);
} finally {
  await sim.stop();
  if (!args.has('keep')) rmSync(dir, { recursive: true, force: true });
}
