// Issue 28: the simulator with a state file (what `resq … --sim` runs) holding N finished runs
// (1,000,000 by default, `--size N`; ten to a thread): how long it takes to start on it, and what admitting
// runs costs on top of it (latency of POST /runs and its respond, at concurrency 20) while the
// state is compacted in the background. Every admission is written to the journal before its
// reply; the whole state is written only by the compaction.
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { benchArgs } from '../lib/args.js';
import { emitRows, fmt, quantile, row } from '../lib/report.js';
import { startSimProcess } from '../lib/sim-process.js';

const MiB = 2 ** 20;
const args = benchArgs();
const n = Number(args.get('size', args.quick ? '50000' : '1000000'));
const waves = Number(args.get('admissions', args.quick ? '1000' : '4000'));
const c = 20;
const name = `sim state N=${n}`;
const dir = mkdtempSync(join(tmpdir(), 'resq-bench-sim-state-'));

/**
 * Writes a version 2 state file of `count` finished runs, ten to a thread, streamed. A state
 * file is one JSON string: at ~430 bytes a run, 1,000,000 runs stay under V8's 512 MiB string limit.
 */
async function writeState(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  const put = async (s: string): Promise<void> => {
    if (!out.write(s)) await once(out, 'drain');
  };
  const t0 = Date.UTC(2026, 0, 1);
  const threads: string[] = [];
  let runIds: string[] = [];
  let th = randomUUID();
  await put(`{"version":2,"origin":"http://127.0.0.1:0","clockOffsetMs":0,"threadSeq":${Math.ceil(count / 10)},"runs":[`);
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    runIds.push(id);
    const run = `{"id":"${id}","account":"alice","threadId":"${th}","createdAt":${t0 + i},"completedAt":${t0 + i + 200},"status":"completed","parentId":null,"chain":{"input":"Q${i}","answers":[],"narrow":false,"earlierMessages":${2 * (runIds.length - 1)}},"step":0,"answeredBy":null,"pausedAt":null,"progress":7,"callIds":null,"fileIds":null}`;
    await put(i ? `,${run}` : run);
    if (runIds.length === 10 || i === count - 1) {
      threads.push(`{"id":"${th}","account":"alice","title":"Q${i}","seq":${threads.length + 1},"updatedAt":${t0 + i + 200},"runIds":${JSON.stringify(runIds)}}`);
      th = randomUUID();
      runIds = [];
    }
  }
  await put('],"threads":[');
  for (let i = 0; i < threads.length; i += 10_000) await put((i ? ',' : '') + threads.slice(i, i + 10_000).join(','));
  await put('],"files":[],"modelRuns":[],"idempotency":[],"journalSeq":0}');
  out.end();
  await once(out, 'finish');
}

const state = join(dir, 'r.db.sim.json');
await writeState(state, n);
const stateBytes = statSync(state).size;
const t0 = performance.now();
const sim = await startSimProcess({ statePath: state, defaultDurationMs: 50 });
const startMs = performance.now() - t0;
try {
  const headers = { authorization: `Bearer ${sim.key}`, 'content-type': 'application/json' };
  const admit: number[] = [];
  const answer: number[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < waves; i = next++) {
      let t = performance.now();
      const res = await fetch(`${sim.url}/runs`, { method: 'POST', headers: { ...headers, 'idempotency-key': `b-${i}` }, body: JSON.stringify({ input: `Bench ${i} @duration=50ms @confirm=2` }) });
      const run = (await res.json()) as { id: string };
      admit.push(performance.now() - t);
      for (;;) {
        const r = (await (await fetch(`${sim.url}/runs/${run.id}`, { headers })).json()) as { status: string };
        if (r.status === 'requires_action') break;
        await new Promise((res) => setTimeout(res, 25));
      }
      t = performance.now();
      const ans = await fetch(`${sim.url}/runs/${run.id}/respond`, { method: 'POST', headers: { ...headers, 'idempotency-key': `a-${i}` }, body: JSON.stringify({ answer: { approved: true } }) });
      await ans.arrayBuffer();
      answer.push(performance.now() - t);
    }
  };
  const cpu0 = sim.cpuMs();
  const w0 = performance.now();
  await Promise.all(Array.from({ length: c }, worker));
  const wallMs = performance.now() - w0;
  const cpuMs = sim.cpuMs() - cpu0;
  emitRows([
    row(name, 'start on the state file (spawn → listening)', fmt(startMs / 1000, 2, 's'), `${fmt(stateBytes / MiB, 0, 'MiB')} state`),
    row(name, `POST /runs latency, median (${waves} at C=${c})`, fmt(quantile(admit, 0.5), 2, 'ms'), `p99 ${fmt(quantile(admit, 0.99), 1, 'ms')}`),
    row(name, 'POST /runs/{id}/respond latency, median', fmt(quantile(answer, 0.5), 2, 'ms'), `p99 ${fmt(quantile(answer, 0.99), 1, 'ms')}`),
    row(name, 'admissions + answers, wall', fmt(wallMs / 1000, 2, 's'), `simulator CPU ${fmt(cpuMs / 1000, 1, 's')}, peak RSS ${fmt(sim.peakRssBytes() / MiB, 0, 'MiB')}`),
  ]);
} finally {
  await sim.stop();
  if (!args.has('keep')) rmSync(dir, { recursive: true, force: true });
}
