// Issue 16: four workers on PostgreSQL, each holding 2,500 runs in flight on one batch
// (N=20,000, cap 10,000, D=20 s), beside one worker holding 2,500 (N=5,000, same ideal of
// 40 s), each as a ratio to the ideal ceil(N/C)·D. The database: RESQ_BENCH_PG (a
// postgres:// URL it may write to), else a throwaway PostgreSQL 15 server started as the
// tests start theirs; with neither, or a store that cannot open it, it prints one line
// saying why and skips.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from '../lib/args.js';
import { atMs, runCli, type CliResult } from '../lib/cli-process.js';
import { writeQuestions } from '../lib/questions.js';
import { emitRows, fmt, row, type BenchRow } from '../lib/report.js';
import { startSimProcess } from '../lib/sim-process.js';
import { pgAvailable, startPgServer, type PgServer } from '../../support/pg-server.js';

const args = benchArgs();
const perWorker = args.quick ? 500 : 2500;
const d = args.quick ? 5000 : 20_000;
let server: PgServer | null = null;
if (!process.env.RESQ_BENCH_PG && pgAvailable()) server = await startPgServer();
/** A fresh database for each configuration. */
const databaseUrl = async (name: string): Promise<string> => (server ? server.createDatabase(name) : (process.env.RESQ_BENCH_PG ?? ''));
const url = server ? server.url : (process.env.RESQ_BENCH_PG ?? '');
const rows: BenchRow[] = [];

/** A line in the table instead of figures: the scenario did not run. */
function skip(reason: string): void {
  process.stderr.write(`workers-pg: skipped: ${reason}\n`);
  emitRows([row('workers on PostgreSQL', 'skipped', reason)]);
}

// The throwaway server is a daemon of its own: stopped whatever happens.
try {
if (!/^postgres(ql)?:\/\//i.test(url)) {
  skip('RESQ_BENCH_PG is not set to a postgres:// URL and no PostgreSQL 15 server is installed');
} else {
  let skipped = false;
  for (const workers of [1, 4]) {
    const c = perWorker * workers;
    const n = c * 2;
    const name = `workers=${workers} N=${n} C=${c} D=${d / 1000}s (PostgreSQL)`;
    const dir = mkdtempSync(join(tmpdir(), 'resq-bench-wpg-'));
    const sim = await startSimProcess();
    try {
      const questions = join(dir, 'q.csv');
      writeQuestions(questions, n, (i) => `Question ${i} @duration=${d}ms`);
      const batch = `wpg-${workers}-${Date.now()}`;
      const url = await databaseUrl(`bench_w${workers}`);
      const load = await runCli({ args: ['run', questions, '--db', url, '--batch', batch, '--concurrency', String(c), '--dry-run', '--json'], env: {} });
      if (load.code !== 0) {
        skip(`this checkout's store does not open ${url.split('@').at(-1)} (exit ${load.code}: ${load.stderr.trim().split('\n')[0]?.slice(0, 160)})`);
        skipped = true;
        break;
      }
      const all: CliResult[] = await Promise.all(
        Array.from({ length: workers }, () =>
          runCli({ args: ['resume', batch, '--db', url, '--base-url', sim.url, '--json'], env: { RESQ_API_KEY: sim.key } }),
        ),
      );
      // With --json a failure is reported as the last JSON lines, not on stderr.
      for (const r of all) if (r.code !== 0) throw new Error(`resq exited ${r.code}: ${r.stderr.slice(-2000)} ${JSON.stringify(r.events.slice(-3))}`);
      const batchMs = Math.max(...all.map((r) => atMs(r.events.find((e) => e.type === 'end')))) - Math.min(...all.map((r) => atMs(r.events.find((e) => e.type === 'start'))));
      const ideal = Math.ceil(n / c) * d;
      const counters = await sim.counters();
      rows.push(
        row(name, 'batch, first start→last end', fmt(batchMs / 1000, 2, 's'), `ideal ${fmt(ideal / 1000, 1, 's')}`, ideal / batchMs),
        row(name, 'runs admitted', String(counters.runsAdmitted), `${n} questions`, null, `= ${n}`, counters.runsAdmitted === n),
        row(name, 'CPU per run, all workers', fmt(all.reduce((s, r) => s + r.cpuMs, 0) / n, 2, 'ms'), `peak RSS per worker ${fmt(Math.max(...all.map((r) => r.maxRssBytes)) / 2 ** 20, 0, 'MiB')}`),
      );
    } finally {
      await sim.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (!skipped) emitRows(rows);
}
} finally {
  await server?.stop();
}
