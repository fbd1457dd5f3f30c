// Scenario 7: long runs whose event stream the service ends every few minutes. Scaled down
// 30×: runs of 20 s with the stream ending every 4 s stand for 10-minute runs with a
// 2-minute stream limit. resq must reconnect with `after` each time and never fall back to
// polling: requests per run stay at 1 + D / streamMax, however long the run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from '../lib/args.js';
import { emitRows, fmt, row } from '../lib/report.js';
import { startSimProcess, totalRequests } from '../lib/sim-process.js';
import { runResq } from '../lib/workload.js';

const args = benchArgs();
const n = args.quick ? 20 : 100;
const runMs = args.quick ? 8000 : 20_000;
// A little over D/5, so the run ends mid-stream rather than racing the fifth cut.
const streamMaxMs = runMs / 5 + 250;
const name = `long streams N=${n}, D=${runMs / 1000}s, stream ends every ${streamMaxMs / 1000}s`;
const dir = mkdtempSync(join(tmpdir(), 'resq-bench-long-'));
const sim = await startSimProcess({ streamMaxMs });
try {
  const r = await runResq({ dir, sim, n, concurrency: n, question: (i) => `Long question ${i} @duration=${runMs}ms`, flags: ['--no-download'] });
  const c = await sim.counters();
  const perRun = totalRequests(c) / c.runsAdmitted;
  const bound = 1 + Math.ceil(runMs / streamMaxMs);
  const polls = (c.requestsByRoute['GET /runs/:id'] ?? 0) / c.runsAdmitted;
  const poller = 1 + Math.ceil(runMs / 3000);
  emitRows([
    row(name, 'requests per run', fmt(perRun, 2), `1 + D/streamMax = ${bound}`, bound / perRun, `<= ${bound}`, perRun <= bound),
    row(name, 'polls per run (fallback used?)', fmt(polls, 2), `3 s poller ${poller}`),
    row(name, 'batch, start→end event', fmt(r.batchMs / 1000, 2, 's'), `ideal ${fmt(runMs / 1000, 1, 's')}`, runMs / r.batchMs),
  ]);
} finally {
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
}
