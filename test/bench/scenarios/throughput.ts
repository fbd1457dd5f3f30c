// Scenario 1: throughput against the ideal ceil(N/C)·D, requests and CPU per run.
// The simulator serves from its own process; the CLI is measured alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from '../lib/args.js';
import { atMs, runCli } from '../lib/cli-process.js';
import { writeQuestions } from '../lib/questions.js';
import { startupCost } from '../lib/workload.js';
import { emitRows, fmt, row, type BenchRow } from '../lib/report.js';
import { startSimProcess, totalRequests } from '../lib/sim-process.js';

const args = benchArgs();
const one = args.get('config', '');
const configs = one
  ? [{ n: Number(one.split(',')[0]), c: Number(one.split(',')[1]), d: Number(one.split(',')[2]) }]
  : args.quick
  ? [{ n: 120, c: 60, d: 1000 }, { n: 400, c: 200, d: 500 }]
  : [{ n: 600, c: 60, d: 1000 }, { n: 2000, c: 200, d: 500 }];

const rows: BenchRow[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'resq-bench-tp-'));
// What any resq process costs before it does anything (tsx, module loading): left out of CPU per run.
const startup = await startupCost(scratch);
rmSync(scratch, { recursive: true, force: true });
for (const { n, c, d } of configs) {
  const name = `throughput N=${n} C=${c} D=${d}ms`;
  const dir = mkdtempSync(join(tmpdir(), 'resq-bench-tp-'));
  const sim = await startSimProcess();
  try {
    const questions = join(dir, 'q.csv');
    writeQuestions(questions, n, (i) => `Question ${i} @duration=${d}ms`);
    const simCpu0 = sim.cpuMs();
    const r = await runCli({
      args: ['run', questions, '--db', join(dir, 'r.db'), '--base-url', sim.url, '--concurrency', String(c), '--no-download', '--json'],
      env: { RESQ_API_KEY: sim.key },
      nodeFlags: args.has('cpu-prof') ? ['--cpu-prof', `--cpu-prof-dir=${args.get('cpu-prof-dir', dir)}`] : [],
    });
    if (r.code !== 0) throw new Error(`resq exited ${r.code}: ${r.stderr}`);
    const simCpuMs = sim.cpuMs() - simCpu0;
    const counters = await sim.counters();
    const ideal = Math.ceil(n / c) * d;
    const start = r.events.find((e) => e.type === 'start');
    const end = r.events.find((e) => e.type === 'end');
    const firstRun = r.events.find((e) => e.type === 'item' && e.state === 'running');
    const batchMs = atMs(end) - atMs(start);
    const spanMs = atMs(end) - atMs(firstRun);
    const perRun = totalRequests(counters) / counters.runsAdmitted;
    const target = d === 1000 && c === 60;
    rows.push(
      row(name, 'wall, whole CLI process', fmt(r.wallMs / 1000, 2, 's'), `ideal ${fmt(ideal / 1000, 1, 's')}`, ideal / r.wallMs),
      row(name, 'batch, start→end event', fmt(batchMs / 1000, 2, 's'), `ideal ${fmt(ideal / 1000, 1, 's')}`, ideal / batchMs, target ? '>= 0.95' : '', target ? ideal / batchMs >= 0.95 : null),
      row(name, 'first submission→end', fmt(spanMs / 1000, 2, 's'), `ideal ${fmt(ideal / 1000, 1, 's')}`, ideal / spanMs),
      row(name, 'requests per run', fmt(perRun, 2), 'POST + 1 stream = 2', 2 / perRun, '<= 2.5', perRun <= 2.5),
      row(name, 'runner CPU per run', fmt((r.cpuMs - startup.cpuMs) / n, 2, 'ms'), `CLI ${fmt(r.cpuMs, 0, 'ms')} − startup ${fmt(startup.cpuMs, 0, 'ms')}`),
      row(name, 'CLI peak RSS', fmt(r.maxRssBytes / 2 ** 20, 0, 'MiB')),
      row(name, 'simulator CPU per run (other process)', fmt(simCpuMs / n, 2, 'ms'), `${fmt(simCpuMs, 0, 'ms')} total`),
    );
    if (args.has('verbose')) process.stderr.write(`${name}: ${JSON.stringify(counters.requestsByRoute)}\n`);
  } finally {
    await sim.stop();
    if (!args.has('keep')) rmSync(dir, { recursive: true, force: true });
  }
}
emitRows(rows);
