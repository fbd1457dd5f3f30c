// Scenario 5: a 100,000-item batch with 1,000 runs in flight is killed (SIGKILL) and
// resumed. By the time `resq resume` starts, the runs that were in flight have finished at
// the service, so re-attaching one means reading it and recording its end. Measured from
// the spawn of `resq resume`: every run that was in flight re-attached (recorded), and the
// first new submission (an item that had no run yet, now running).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from '../lib/args.js';
import { atMs, runCli } from '../lib/cli-process.js';
import { writeQuestions } from '../lib/questions.js';
import { emitRows, fmt, row } from '../lib/report.js';
import { startSimProcess } from '../lib/sim-process.js';

const args = benchArgs();
const n = args.quick ? 20_000 : 100_000;
const inFlight = args.quick ? 200 : 1000;
const runMs = 5000;
const name = `resume ${n / 1000}k items, ${inFlight} in flight`;
const dir = mkdtempSync(join(tmpdir(), 'resq-bench-resume-'));
const sim = await startSimProcess();
try {
  const questions = join(dir, 'q.csv');
  writeQuestions(questions, n, (i) => `Question ${i} @duration=${runMs}ms`);
  const db = join(dir, 'resq.db');
  const env = { RESQ_API_KEY: sim.key };
  const common = ['--db', db, '--base-url', sim.url, '--json'];
  const attached = new Set<string>();
  const first = await runCli({
    args: ['run', questions, '--batch', 'big', '--concurrency', String(inFlight), '--no-download', ...common],
    env,
    timed: false,
    onEvent: (e, child) => {
      if (e.type === 'item' && e.state === 'running') attached.add(String(e.id));
      if (attached.size >= inFlight && child.exitCode === null) child.kill('SIGKILL');
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
  const startEvent = resumed.events.find((e) => e.type === 'start');
  const t0 = resumed.startedAt;
  const reattachMs = reattachedAt - t0;
  emitRows([
    row(name, `all ${attached.size} in-flight runs re-attached`, fmt(reattachMs / 1000, 2, 's'), 'from resq resume spawn', null, '<= 2 s', reattachMs <= 2000),
    row(name, 'first new submission', fmt((firstNewAt - t0) / 1000, 2, 's'), 'from resq resume spawn'),
    row(name, 'CLI start → runner start event', fmt((atMs(startEvent) - t0) / 1000, 2, 's'), `${startEvent?.resumed} re-attached items listed`),
  ]);
} finally {
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
}
