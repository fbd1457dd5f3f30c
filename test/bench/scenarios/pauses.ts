// Scenario 3: 300 questions, each pausing twice (confirm_scope, then ask_choice), answered by
// a policy. The simulator measures, for every respond, the time from the run pausing to the
// respond request arriving (counter pauseToRespondMs). Run lengths are spread over 0.5-1.5 s
// so pauses arrive at a steady rate instead of all in one instant.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from '../lib/args.js';
import { emitRows, fmt, quantile, row } from '../lib/report.js';
import { startSimProcess } from '../lib/sim-process.js';
import { APPROVE_ALL, runResq } from '../lib/workload.js';

const args = benchArgs();
const n = args.quick ? 100 : 300;
const c = 60;
const name = `pauses N=${n}×2 C=${c}`;
const dir = mkdtempSync(join(tmpdir(), 'resq-bench-pauses-'));
const sim = await startSimProcess();
try {
  await runResq({
    dir,
    sim,
    n,
    concurrency: c,
    question: (i) => `Plan ${i} @duration=${500 + ((i * 337) % 1000)}ms @confirm=2 @choice`,
    policy: APPROVE_ALL,
    flags: ['--no-download'],
  });
  const waits = (await sim.counters()).pauseToRespondMs;
  if (waits.length !== 2 * n) throw new Error(`expected ${2 * n} responds, the simulator saw ${waits.length}`);
  const median = quantile(waits, 0.5);
  emitRows([
    row(name, 'pause → answer sent, median', fmt(median, 1, 'ms'), '', null, '<= 50 ms', median <= 50),
    row(name, 'pause → answer sent, p99', fmt(quantile(waits, 0.99), 1, 'ms')),
    row(name, 'pause → answer sent, max', fmt(Math.max(...waits), 1, 'ms'), `${waits.length} pauses`),
  ]);
} finally {
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
}
