// Several workers on one batch: N=600, C=60, D=1 s run by one process and by three
// processes sharing the batch's cap of 60, each as a ratio to the ideal ceil(N/C)·D. The
// simulator serves from its own process and reports its peak of concurrent runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from '../lib/args.js';
import { atMs, runCli, type CliResult } from '../lib/cli-process.js';
import { writeQuestions } from '../lib/questions.js';
import { emitRows, fmt, row, type BenchRow } from '../lib/report.js';
import { startSimProcess } from '../lib/sim-process.js';

const args = benchArgs();
const [n, c, d] = args.quick ? [120, 60, 1000] : [600, 60, 1000];
const rows: BenchRow[] = [];

for (const workers of [1, 3]) {
  const name = `workers=${workers} N=${n} C=${c} D=${d}ms (SQLite)`;
  const dir = mkdtempSync(join(tmpdir(), 'resq-bench-w-'));
  const sim = await startSimProcess();
  try {
    const questions = join(dir, 'q.csv');
    writeQuestions(questions, n, (i) => `Question ${i} @duration=${d}ms`);
    const db = join(dir, 'r.db');
    // The batch is loaded first (as a cron job or a first terminal would), then the workers start together.
    const load = await runCli({ args: ['run', questions, '--db', db, '--batch', 'w', '--dry-run', '--json'], env: {} });
    if (load.code !== 0) throw new Error(`load exited ${load.code}: ${load.stderr}`);
    const all: CliResult[] = await Promise.all(
      Array.from({ length: workers }, () =>
        runCli({ args: ['resume', 'w', '--db', db, '--base-url', sim.url, '--concurrency', String(c), '--json'], env: { RESQ_API_KEY: sim.key } }),
      ),
    );
    for (const r of all) if (r.code !== 0) throw new Error(`resq exited ${r.code}: ${r.stderr}`);
    const starts = all.map((r) => atMs(r.events.find((e) => e.type === 'start')));
    const ends = all.map((r) => atMs(r.events.find((e) => e.type === 'end')));
    const batchMs = Math.max(...ends) - Math.min(...starts);
    const ideal = Math.ceil(n / c) * d;
    const counters = await sim.counters();
    const peak = Math.max(0, ...Object.values(counters.peakConcurrentRuns));
    const target = workers === 3;
    rows.push(
      row(name, 'batch, first start→last end', fmt(batchMs / 1000, 2, 's'), `ideal ${fmt(ideal / 1000, 1, 's')}`, ideal / batchMs, target ? '>= 0.9' : '>= 0.95', ideal / batchMs >= (target ? 0.9 : 0.95)),
      row(name, 'peak concurrent runs at the service', String(peak), `cap ${c}`, null, `<= ${c}`, peak <= c),
      row(name, 'runs admitted', String(counters.runsAdmitted), `${n} questions`, null, `= ${n}`, counters.runsAdmitted === n),
      row(name, 'CPU per run, all workers', fmt(all.reduce((s, r) => s + r.cpuMs, 0) / n, 2, 'ms')),
    );
  } finally {
    await sim.stop();
    if (!args.has('keep')) rmSync(dir, { recursive: true, force: true });
  }
}
emitRows(rows);
