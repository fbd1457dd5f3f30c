// Scenario 5: a 100,000-item batch with 1,000 runs in flight is killed (SIGKILL) and
// resumed. By the time `resq resume` starts, the runs that were in flight have finished at
// the service, so re-attaching one means reading it and recording its end. Measured from
// the spawn of `resq resume`: every run that was in flight re-attached (recorded), and the
// first new submission (an item that had no run yet, now running). Median of 3 rounds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from '../lib/args.js';
import { atMs, runCli } from '../lib/cli-process.js';
import { writeQuestions } from '../lib/questions.js';
import { emitRows, fmt, quantile, row } from '../lib/report.js';
import { startSimProcess } from '../lib/sim-process.js';

const args = benchArgs();
const n = args.quick ? 20_000 : 100_000;
const inFlight = args.quick ? 200 : 1000;
const rounds = args.quick ? 1 : 3;
const runMs = 5000;

interface Round {
  reattachMs: number;
  firstNewMs: number;
  startMs: number;
}

async function oneRound(): Promise<Round> {
  const dir = mkdtempSync(join(tmpdir(), 'resq-bench-resume-'));
  const sim = await startSimProcess();
  try {
    const questions = join(dir, 'q.csv');
    writeQuestions(questions, n, (i) => `Question ${i} @duration=${runMs}ms`);
    const env = { RESQ_API_KEY: sim.key };
    const common = ['--db', join(dir, 'resq.db'), '--base-url', sim.url, '--json'];
    const attached = new Set<string>();
    const first = await runCli({
      args: ['run', questions, '--batch', 'big', '--concurrency', String(inFlight), '--no-download', ...common],
      env,
      timed: false,
      onEvent: (e, child) => {
        if (e.type === 'item' && e.state === 'running') attached.add(String(e.id));
        if (attached.size >= inFlight && child.exitCode === null && !child.killed) child.kill('SIGKILL');
      },
    });
    if (first.signal !== 'SIGKILL') throw new Error(`first run was not killed: exit ${first.code} ${first.stderr.slice(-500)}`);
    // Let the runs that were in flight finish at the service.
    await new Promise((resolve) => setTimeout(resolve, runMs + 500));
    let reattached = 0;
    let reattachedAt = NaN;
    let firstNewAt = NaN;
    const resumed = await runCli({
      args: ['resume', 'big', ...common],
      env,
      timed: false,
      onEvent: (e, child) => {
        if (e.type !== 'item') return;
        const id = String(e.id);
        if (attached.has(id) && e.state === 'completed' && ++reattached === attached.size) reattachedAt = atMs(e);
        if (!attached.has(id) && e.state === 'running' && Number.isNaN(firstNewAt)) firstNewAt = atMs(e);
        if (!Number.isNaN(reattachedAt) && !Number.isNaN(firstNewAt) && child.exitCode === null && !child.killed) child.kill('SIGINT');
      },
      nodeFlags: args.has('cpu-prof') ? ['--cpu-prof', `--cpu-prof-dir=${args.get('cpu-prof-dir', dir)}`] : [],
    });
    if (Number.isNaN(reattachedAt)) throw new Error(`re-attached ${reattached}/${attached.size}: ${resumed.stderr.slice(-500)}`);
    const t0 = resumed.startedAt;
    return { reattachMs: reattachedAt - t0, firstNewMs: firstNewAt - t0, startMs: atMs(resumed.events.find((e) => e.type === 'start')) - t0 };
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const results: Round[] = [];
for (let i = 0; i < rounds; i++) results.push(await oneRound());
const med = (k: keyof Round): number => quantile(results.map((r) => r[k]), 0.5);
const all = (k: keyof Round): string => results.map((r) => fmt(r[k] / 1000, 2)).join(', ');
const name = `resume ${n / 1000}k items, ${inFlight} in flight, median of ${rounds}`;
const reattach = med('reattachMs');
emitRows([
  row(name, `all ${inFlight} in-flight runs re-attached`, fmt(reattach / 1000, 2, 's'), `rounds: ${all('reattachMs')} s`, null, '<= 2 s', reattach <= 2000),
  row(name, 'first new submission', fmt(med('firstNewMs') / 1000, 2, 's'), `rounds: ${all('firstNewMs')} s`),
  row(name, 'CLI start → runner start event', fmt(med('startMs') / 1000, 2, 's'), 'of the above: node, tsx, modules, database'),
]);
