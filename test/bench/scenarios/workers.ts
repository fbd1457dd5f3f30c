// Several workers on one batch, on SQLite and on PostgreSQL: N=600, C=60, D=1 s run by one
// process and by three processes sharing the batch's cap of 60, each as a ratio to the ideal
// ceil(N/C)·D, with the simulator's peak of concurrent runs; and the claim latency of each
// adapter (median and p99 of single-item claims). The simulator serves from its own process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../../../src/store/index.js';
import { PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { startPgServer } from '../../support/pg-server.js';
import { benchArgs } from '../lib/args.js';
import { atMs, runCli, type CliResult } from '../lib/cli-process.js';
import { writeQuestions } from '../lib/questions.js';
import { emitRows, fmt, row, type BenchRow } from '../lib/report.js';
import { startSimProcess } from '../lib/sim-process.js';

const args = benchArgs();
const [n, c, d] = args.quick ? [120, 60, 1000] : [600, 60, 1000];
const rows: BenchRow[] = [];
const pg = await startPgServer();

async function batchRun(engine: 'SQLite' | 'PostgreSQL', workers: number): Promise<void> {
  const name = `workers=${workers} N=${n} C=${c} D=${d}ms (${engine})`;
  const dir = mkdtempSync(join(tmpdir(), 'resq-bench-w-'));
  const sim = await startSimProcess();
  try {
    const questions = join(dir, 'q.csv');
    writeQuestions(questions, n, (i) => `Question ${i} @duration=${d}ms`);
    const db = engine === 'SQLite' ? join(dir, 'r.db') : await pg.createDatabase(`bench_${workers}_${Date.now()}`);
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
    const target = workers === 3 ? 0.9 : 0.95;
    rows.push(
      row(name, 'batch, first start→last end', fmt(batchMs / 1000, 2, 's'), `ideal ${fmt(ideal / 1000, 1, 's')}`, ideal / batchMs, `>= ${target}`, ideal / batchMs >= target),
      row(name, 'peak concurrent runs at the service', String(peak), `cap ${c}`, null, `<= ${c}`, peak <= c),
      row(name, 'runs admitted', String(counters.runsAdmitted), `${n} questions`, null, `= ${n}`, counters.runsAdmitted === n),
      row(name, 'CPU per run, all workers', fmt(all.reduce((s, r) => s + r.cpuMs, 0) / n, 2, 'ms')),
    );
  } finally {
    await sim.stop();
    if (!args.has('keep')) rmSync(dir, { recursive: true, force: true });
  }
}

/** Median and p99 of claiming one queued item at a time (each claim one transaction). */
async function claimLatency(engine: 'SQLite' | 'PostgreSQL', store: Store): Promise<void> {
  const settings = { concurrency: 100_000, follow: 'poll' as const, download: { enabled: false, concurrency: 1, out: null }, pipelineFile: null, service: 'url' as const };
  const loader = await store.beginBatchLoad({ id: 'lat', name: 'lat', kind: 'runs', sourcePath: 'q', sourceSha256: 'x', baseUrl: null, settings, policy: null });
  const claims = args.quick ? 300 : 2000;
  for (let i = 0; i < claims + 10; i++) await loader.add({ id: `i${i}`, seq: i, line: i + 2, question: `q${i}`, threadKey: null, meta: {} });
  await loader.commit([], 'x');
  const w = await store.registerWorker('lat', { host: 'bench', pid: process.pid });
  const ms: number[] = [];
  let cursor = -1;
  for (let i = 0; i < claims; i++) {
    const t0 = performance.now();
    const claim = await store.claimItems('lat', { workerId: w.id, leaseMs: 30_000, max: 1, cap: 100_000, afterSeq: cursor });
    ms.push(performance.now() - t0);
    cursor = claim.cursor;
  }
  ms.sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!;
  const name = `claim latency (${engine}, ${claims} claims of one item)`;
  rows.push(
    row(name, 'median', fmt(q(0.5), 2, 'ms'), 'graphile-worker publishes ~2-5 ms job pickup', null, '<= 5 ms', q(0.5) <= 5),
    row(name, 'p99', fmt(q(0.99), 2, 'ms')),
  );
}

try {
  const only = args.get('engine', '');
  for (const engine of ['SQLite', 'PostgreSQL'] as const) if (!only || only === engine) for (const workers of [1, 3]) await batchRun(engine, workers);
  const dir = mkdtempSync(join(tmpdir(), 'resq-bench-lat-'));
  const sqlite = SqliteStore.open(join(dir, 'lat.db'));
  await claimLatency('SQLite', sqlite);
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
  const postgres = await PostgresStore.open(await pg.createDatabase('latency'));
  await claimLatency('PostgreSQL', postgres);
  await postgres.close();
} finally {
  await pg.stop();
}
emitRows(rows);
