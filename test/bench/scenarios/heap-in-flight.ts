// Issue 39.5: what a run in flight holds in JavaScript. `resq run` with C runs in flight
// (N=C questions of a long @duration, so none ends) against the simulator in its own
// process; once all C are running and have settled, the process (preloaded with
// lib/heap-probe.mjs) collects garbage, reports its heap and writes a heap snapshot. The
// same with one run in flight gives the base. Per run: (heap used at C − at 1) / (C − 1),
// and from the snapshots the closures (V8 node type `closure`) and the largest kinds of
// object by constructor. `--config C` (default 3,000; --quick 500), `--settle MS`, `--keep`.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../lib/args.js';
import { runCli } from '../lib/cli-process.js';
import { heapCensus, perRunDiff, type HeapCensus } from '../lib/heap-snapshot.js';
import { writeQuestions } from '../lib/questions.js';
import { emitRows, fmt, row } from '../lib/report.js';
import { startSimProcess, type SimProcess } from '../lib/sim-process.js';

const PROBE = fileURLToPath(new URL('../lib/heap-probe.mjs', import.meta.url));
const KiB = 1024;

const args = benchArgs();
const c = Number(args.get('config', args.quick ? '500' : '3000'));
const settleMs = Number(args.get('settle', '4000'));
const name = `heap in flight C=${c}`;
const dir = mkdtempSync(join(tmpdir(), 'resq-bench-heap-'));

/** Heap used (after a full GC) and the snapshot's census of a resq process holding `runs` in flight. */
async function heapAt(sim: SimProcess, runs: number): Promise<{ heapUsed: number; census: HeapCensus }> {
  const out = join(dir, `c${runs}`);
  mkdirSync(out);
  const questions = join(out, 'q.csv');
  // Ten minutes: every run stays in flight until the process is killed.
  writeQuestions(questions, runs, (i) => `Question ${i} @duration=600000ms`);
  let running = 0;
  let signalled = false;
  let poll: NodeJS.Timeout | null = null;
  const r = await runCli({
    args: ['run', questions, '--db', join(out, 'r.db'), '--base-url', sim.url, '--concurrency', String(runs), '--no-download', '--json'],
    env: { RESQ_API_KEY: sim.key, RESQ_HEAP_PROBE: out },
    nodeFlags: ['--expose-gc', '--import', PROBE],
    timed: false,
    onEvent: (e, child) => {
      if (e.type === 'item' && e.state === 'running') running += 1;
      if (running < runs || signalled) return;
      signalled = true;
      setTimeout(() => {
        child.kill('SIGUSR2');
        poll = setInterval(() => {
          if (!existsSync(join(out, 'done'))) return;
          clearInterval(poll!);
          child.kill('SIGKILL');
        }, 200);
      }, settleMs);
    },
  });
  if (!existsSync(join(out, 'done'))) throw new Error(`resq exited ${r.code ?? r.signal} before its snapshot (${running} running): ${r.stderr.slice(-2000)}`);
  const heap = JSON.parse(readFileSync(join(out, 'heap.json'), 'utf8')) as { heapUsed: number };
  const census = heapCensus(join(out, 'heap.heapsnapshot'));
  if (!args.has('keep')) rmSync(join(out, 'heap.heapsnapshot'));
  return { heapUsed: heap.heapUsed, census };
}

const sim = await startSimProcess();
try {
  const one = await heapAt(sim, 1);
  await sim.reset();
  const many = await heapAt(sim, c);
  const runs = c - 1;
  const perRun = (many.heapUsed - one.heapUsed) / runs;
  const snapPerRun = (many.census.totalBytes - one.census.totalBytes) / runs;
  const count = (k: string): number => ((many.census.count.get(k) ?? 0) - (one.census.count.get(k) ?? 0)) / runs;
  const bytes = (k: string): number => ((many.census.bytes.get(k) ?? 0) - (one.census.bytes.get(k) ?? 0)) / runs;
  const kinds = ['closure', 'object', 'string', 'code', 'array', 'hidden', 'native', 'object shape'];
  const top = perRunDiff(many.census, one.census, runs, 14);
  emitRows([
    row(name, 'JavaScript heap used per run in flight', fmt(perRun / KiB, 1, 'KiB'), `${fmt(many.heapUsed / 2 ** 20, 1, 'MiB')} at C, ${fmt(one.heapUsed / 2 ** 20, 1, 'MiB')} at 1, after a full GC`, 8 / (perRun / KiB), '<= 8 KiB', args.quick ? null : perRun <= 8 * KiB),
    row(name, 'heap snapshot, self sizes per run in flight', fmt(snapPerRun / KiB, 1, 'KiB'), kinds.map((k) => `${k} ${fmt(bytes(k), 0)}`).join(', ')),
    row(name, 'closures per run in flight', fmt(count('closure'), 1), `objects ${fmt(count('object'), 1)}, strings ${fmt(count('string'), 1)}, arrays ${fmt(count('array'), 1)}, contexts ${fmt(((many.census.byName.get('object:system / Context')?.count ?? 0) - (one.census.byName.get('object:system / Context')?.count ?? 0)) / runs, 1)}`),
    ...top.map((t) => row(name, `  ${t.key.slice(0, 60)}`, `${fmt(t.bytes, 0)} B`, `${fmt(t.count, 2)} per run`)),
  ]);
} finally {
  await sim.stop();
  if (!args.has('keep')) rmSync(dir, { recursive: true, force: true });
}
