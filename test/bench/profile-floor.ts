// Issue 32, "where it went": where resq's CPU per run goes on the floor scenario's workload,
// by category (test/bench/lib/profile-buckets.ts). `resq run` (and with --floor the bare
// client beside it) under V8's CPU profiler (200 µs sampling) against the simulator in its
// own process, once with one run (its start-up) and once with N runs. Per run: the main
// thread's own CPU ((N runs − one run) / N, process.threadCpuUsage at exit through
// lib/thread-cpu-probe.mjs) shared out by each category's share of the profile's samples
// (V8 samples on the wall clock: on a loaded machine raw sample time also counts time the
// thread waited for a core); the whole process's CPU per run from /usr/bin/time, and the
// rest of it (V8's helper threads: concurrent GC, the optimising compiler).
//   npx tsx test/bench/profile-floor.ts [--mix full|few|both] [--config N,C,D] [--floor]
//     [--json OUT.json] [--before BEFORE.json] [--keep]
// --json writes the figures; --before prints them beside a file an earlier run wrote (the
// store before and after, say). Default N=4,000 C=400 D=500 ms, both mixes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './lib/args.js';
import { runCli, type CliResult } from './lib/cli-process.js';
import { bucketDir, CATEGORIES, CATEGORY_LABELS, emptyBuckets, perRun, total, type Buckets } from './lib/profile-buckets.js';
import { writeQuestions } from './lib/questions.js';
import { startSimProcess, type SimProcess } from './lib/sim-process.js';

const FLOOR = fileURLToPath(new URL('./floor-client.ts', import.meta.url));
const PROBE = fileURLToPath(new URL('./lib/thread-cpu-probe.mjs', import.meta.url));
const MIXES = { full: '', few: ' @nosearch @deltas=1' } as const;
type Mix = keyof typeof MIXES;

/** One profiled column: a side on a mix. */
interface Column {
  name: string;
  /** Main-thread CPU µs per run by category (its share of the samples × the thread's CPU). */
  perRunUs: Buckets;
  /** The main thread's CPU per run, µs (start-up excluded). */
  mainUs: number;
  /** The whole process's CPU per run (time(1), start-up excluded), µs. */
  processUs: number;
}

/** What one profiled process gave: its samples by category, its main thread's and its whole CPU (µs). */
interface Profiled {
  buckets: Buckets;
  mainUs: number;
  processUs: number;
}

const args = benchArgs();
const mixArg = args.get('mix', 'both');
if (mixArg !== 'both' && !(mixArg in MIXES)) throw new Error(`--mix: full, few or both, not ${mixArg}`);
const mixes: Mix[] = mixArg === 'both' ? ['full', 'few'] : [mixArg as Mix];
const [n, c, d] = args.get('config', '4000,400,500').split(',').map(Number) as [number, number, number];
const dir = mkdtempSync(join(tmpdir(), 'resq-bench-profile-'));

type Launch = (flags: string[], env: NodeJS.ProcessEnv) => Promise<CliResult>;

async function profiled(name: string, run: Launch): Promise<Profiled> {
  const out = join(dir, name);
  mkdirSync(out);
  const cpuFile = join(dir, `${name}.thread-cpu.json`);
  const r = await run(['--cpu-prof', `--cpu-prof-dir=${out}`, '--cpu-prof-interval', '200', '--import', PROBE], { RESQ_THREAD_CPU: cpuFile });
  if (r.code !== 0) throw new Error(`${name} exited ${r.code}: ${r.stderr.slice(-2000)}`);
  const main = JSON.parse(readFileSync(cpuFile, 'utf8')) as { user: number; system: number };
  return { buckets: bucketDir(out), mainUs: main.user + main.system, processUs: r.cpuMs * 1000 };
}

const resq = (sim: SimProcess, questions: string, db: string, conc: number): Launch => (flags, env) =>
  runCli({
    args: ['run', questions, '--db', db, '--base-url', sim.url, '--concurrency', String(conc), '--no-download', '--json'],
    env: { RESQ_API_KEY: sim.key, ...env },
    nodeFlags: flags,
  });
const floor = (sim: SimProcess, questions: string, conc: number): Launch => (flags, env) =>
  runCli({ args: [sim.url, sim.key, questions, String(conc)], script: FLOOR, nodeFlags: flags, env });

/** A column: per run above one run, the main thread's CPU shared out by the samples' categories. */
function column(name: string, full: Profiled, idle: Profiled): Column {
  const samples = perRun(full.buckets, idle.buckets, n);
  const mainUs = (full.mainUs - idle.mainUs) / n;
  const scale = mainUs / total(samples);
  const perRunUs = emptyBuckets();
  for (const cat of CATEGORIES) perRunUs[cat] = samples[cat] * scale;
  return { name, perRunUs, mainUs, processUs: (full.processUs - idle.processUs) / n };
}

const columns: Column[] = [];
const sim = await startSimProcess();
try {
  const one = join(dir, 'one.csv');
  writeQuestions(one, 1, () => 'one @duration=1ms');
  const sides = args.has('floor') ? (['resq', 'floor'] as const) : (['resq'] as const);
  const idle = new Map<string, Profiled>();
  for (const side of sides) {
    idle.set(side, await profiled(`${side}-idle`, side === 'resq' ? resq(sim, one, join(dir, 'one.db'), 1) : floor(sim, one, 1)));
  }
  for (const mix of mixes) {
    const questions = join(dir, `q-${mix}.csv`);
    writeQuestions(questions, n, (i) => `Question ${i} @duration=${d}ms${MIXES[mix]}`);
    for (const side of sides) {
      await sim.reset();
      const name = `${side}-${mix}`;
      const full = await profiled(name, side === 'resq' ? resq(sim, questions, join(dir, `${mix}.db`), c) : floor(sim, questions, c));
      columns.push(column(`${side}, ${mix === 'full' ? 'full mix' : 'few events'}`, full, idle.get(side)!));
    }
  }
} finally {
  await sim.stop();
  if (!args.has('keep')) rmSync(dir, { recursive: true, force: true });
  else process.stderr.write(`profiles kept in ${dir}\n`);
}

const jsonPath = args.get('json', '');
if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify({ at: new Date().toISOString(), n, c, d, columns }, null, 2)}\n`);
const beforePath = args.get('before', '');
const before: Column[] = beforePath ? (JSON.parse(readFileSync(beforePath, 'utf8')) as { columns: Column[] }).columns : [];

// Before and after side by side: each column of the earlier file beside this run's of the same name.
const shown: [string, Column][] = [];
for (const col of columns) {
  const was = before.find((b) => b.name === col.name);
  if (was) shown.push([`${col.name}: before`, was]);
  shown.push([before.length ? `${col.name}: after` : col.name, col]);
}
const us = (x: number): string => Math.round(x).toLocaleString('en-US');
const lines = [
  `per run, µs of CPU (N=${n} C=${c} D=${d} ms, (N runs − one run) / N, under the profiler) | ${shown.map(([h]) => h).join(' | ')} |`,
  `|---|${shown.map(() => '---:').join('|')}|`,
  ...CATEGORIES.map((cat) => `| ${CATEGORY_LABELS[cat]} | ${shown.map(([, col]) => us(col.perRunUs[cat])).join(' | ')} |`),
  `| **main thread** (its CPU, shared out by the samples above) | ${shown.map(([, col]) => `**${us(col.mainUs)}**`).join(' | ')} |`,
  `| V8's helper threads (concurrent GC, optimising compiler): the process less its main thread | ${shown.map(([, col]) => us(col.processUs - col.mainUs)).join(' | ')} |`,
  `| the whole process (time(1)) | ${shown.map(([, col]) => us(col.processUs)).join(' | ')} |`,
];
process.stdout.write(`| ${lines.join('\n')}\n`);
