// Issue 16: a 1,000,000-question batch end to end on the simulator (own process), short
// runs, C=2,000: it completes, resq's peak RSS and CPU per run, and `resq export` of the
// whole batch. `--size N` runs a smaller batch (the figures per run hold; the wall time
// scales): on a 2-core machine the full batch takes tens of minutes of CPU in each process.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from '../lib/args.js';
import { atMs, runCli } from '../lib/cli-process.js';
import { writeQuestions } from '../lib/questions.js';
import { emitRows, fmt, row } from '../lib/report.js';
import { startSimProcess } from '../lib/sim-process.js';
import { startupCost } from '../lib/workload.js';

const MiB = 2 ** 20;
const args = benchArgs();
const n = Number(args.get('size', args.quick ? '20000' : '1000000'));
const c = Number(args.get('concurrency', '2000'));
const d = Number(args.get('duration', '200'));
const name = `batch N=${n} C=${c} D=${d}ms`;
const dir = mkdtempSync(join(tmpdir(), 'resq-bench-million-'));
const idle = await startupCost(dir);
// The simulator keeps every run it served, compactly (a finished run's output, events and
// transcript are worked out again when asked): ~1 KB of heap each (200,000 runs measured),
// ~1 GB at 1,000,000, within V8's default heap limit; it no longer needs a larger heap.
const sim = await startSimProcess();
try {
  const questions = join(dir, 'q.csv');
  writeQuestions(questions, n, (i) => `Question ${i} @duration=${d}ms`);
  const db = join(dir, 'r.db');
  const simCpu0 = sim.cpuMs();
  const r = await runCli({
    args: ['run', questions, '--db', db, '--batch', 'million', '--base-url', sim.url, '--concurrency', String(c), '--no-download', '--json'],
    env: { RESQ_API_KEY: sim.key },
  });
  if (r.code !== 0) throw new Error(`resq exited ${r.code}: ${r.stderr.slice(-2000)}`);
  const simCpuMs = sim.cpuMs() - simCpu0;
  const counters = await sim.counters();
  const batchMs = atMs(r.events.find((e) => e.type === 'end')) - atMs(r.events.find((e) => e.type === 'start'));
  const ideal = Math.ceil(n / c) * d;
  const out = join(dir, 'export.jsonl');
  const ex = await runCli({ args: ['export', 'million', '--db', db, '--output', out] });
  if (ex.code !== 0) throw new Error(`export exited ${ex.code}: ${ex.stderr.slice(-2000)}`);
  const full = !args.quick && n === 1_000_000;
  emitRows([
    row(name, 'completed (runs admitted)', String(counters.runsAdmitted), `${n} questions`, null, `= ${n}`, counters.runsAdmitted === n),
    row(name, 'batch, start→end event', fmt(batchMs / 1000, 1, 's'), `ideal ${fmt(ideal / 1000, 1, 's')}`, ideal / batchMs),
    row(name, 'resq peak RSS', fmt(r.maxRssBytes / MiB, 0, 'MiB'), `idle ${fmt(idle.maxRssBytes / MiB, 0, 'MiB')}`, 500 / (r.maxRssBytes / MiB), '<= 500 MiB', full ? r.maxRssBytes <= 500 * MiB : null),
    row(name, 'resq CPU per run', fmt((r.cpuMs - idle.cpuMs) / n, 2, 'ms'), `CLI ${fmt(r.cpuMs / 1000, 1, 's')}`),
    row(name, 'simulator CPU per run (other process)', fmt(simCpuMs / n, 2, 'ms'), `peak RSS ${fmt(sim.peakRssBytes() / MiB, 0, 'MiB')}`),
    row(name, 'export of the whole batch (JSONL)', fmt(ex.wallMs / 1000, 2, 's'), `${fmt(statSync(out).size / MiB, 0, 'MiB')}, peak RSS ${fmt(ex.maxRssBytes / MiB, 0, 'MiB')}`, 20_000 / ex.wallMs, '<= 20 s', full ? ex.wallMs <= 20_000 : null),
  ]);
} finally {
  await sim.stop();
  if (!args.has('keep')) rmSync(dir, { recursive: true, force: true });
}
