// Scenario 2: resq against a plain client that polls every 3 s (test/bench/plain-client.ts),
// on the same workloads, each against a fresh simulator process; wall times, requests, ratio.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../lib/args.js';
import { emitRows, fmt, row, type BenchRow } from '../lib/report.js';
import { startSimProcess, totalRequests } from '../lib/sim-process.js';
import { APPROVE_ALL, runResq } from '../lib/workload.js';
import type { PlainClientResult } from '../plain-client.js';

const PLAIN = fileURLToPath(new URL('../plain-client.ts', import.meta.url));
const args = benchArgs();
const workloads = [
  { label: 'no pauses', n: args.quick ? 120 : 600, c: 60, question: (i: number) => `Question ${i} @duration=1000ms`, target: true },
  { label: 'pause + file', n: args.quick ? 60 : 300, c: 60, question: (i: number) => `Question ${i} @duration=1000ms @confirm=2 @files=md`, target: false },
];

function runPlain(url: string, key: string, questions: string, concurrency: number): Promise<PlainClientResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', PLAIN, url, key, questions, String(concurrency)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) =>
    child.once('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as PlainClientResult) : reject(new Error(`plain client exited ${code}`)))),
  );
}

const rows: BenchRow[] = [];
for (const w of workloads) {
  const name = `vs 3 s poller, ${w.label} N=${w.n} C=${w.c} D=1s`;
  const dir = mkdtempSync(join(tmpdir(), 'resq-bench-plain-'));
  const sim = await startSimProcess();
  try {
    const resq = await runResq({ dir, sim, n: w.n, concurrency: w.c, question: w.question, policy: APPROVE_ALL });
    const resqRequests = totalRequests(await sim.counters());
    await sim.reset();
    const plain = await runPlain(sim.url, sim.key, resq.questionsPath, w.c);
    const plainRequests = totalRequests(await sim.counters());
    if (plain.completed !== w.n) throw new Error(`plain client completed ${plain.completed}/${w.n}`);
    const speedup = plain.wallMs / resq.batchMs;
    rows.push(
      row(name, 'resq batch (start→end event)', fmt(resq.batchMs / 1000, 2, 's'), `poller ${fmt(plain.wallMs / 1000, 2, 's')}`, speedup, w.target ? '>= 3' : '', w.target ? speedup >= 3 : null),
      row(name, 'resq whole CLI process', fmt(resq.wallMs / 1000, 2, 's'), `poller ${fmt(plain.wallMs / 1000, 2, 's')}`, plain.wallMs / resq.wallMs),
      row(name, 'requests per question', fmt(resqRequests / w.n, 2), `poller ${fmt(plainRequests / w.n, 2)}`, plainRequests / resqRequests),
    );
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
emitRows(rows);
