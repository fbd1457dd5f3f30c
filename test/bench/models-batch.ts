// Benchmark (not a test): `resq models batch` on N rows of the async `fold` model with
// jobs of J ms at concurrency C. Ideal wall time: ceil(N / C) · J. Reports the measured
// time (whole CLI process, and the batch from its start to its end event) and the reads
// of running jobs per job (GET /model-runs/:id).
//   npx tsx test/bench/models-batch.ts [--rows 200] [--job-ms 5000] [--concurrency 20]
// The simulator runs in its own process (this file with --serve), so the CLI is measured alone.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name: string, dflt: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : dflt;
};
const ROWS = opt('rows', 200);
const JOB_MS = opt('job-ms', 5000);
const CONCURRENCY = opt('concurrency', 20);
const root = fileURLToPath(new URL('../../', import.meta.url));

if (args.includes('--serve')) {
  const { startSim } = await import('../../src/sim/index.js');
  const sim = await startSim({ port: 0, modelJobMs: JOB_MS });
  process.stdout.write(`${JSON.stringify({ url: sim.url, origin: sim.origin, key: sim.keys[0] })}\n`);
  process.once('SIGTERM', () => void sim.close().then(() => process.exit(0)));
} else {
  await main();
}

async function startSimProcess(): Promise<{ url: string; origin: string; key: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', '--job-ms', String(JOB_MS)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise<{ url: string; origin: string; key: string }>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      if (buf.includes('\n')) resolve(JSON.parse(buf.split('\n')[0]!) as { url: string; origin: string; key: string });
    });
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return { ...info, stop: () => child.kill('SIGTERM') };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'resq-bench-models-'));
  const sim = await startSimProcess();
  try {
    const file = join(dir, 'seqs.csv');
    // Distinct letters-only sequences: every row succeeds and makes one structure file.
    const seq = (i: number): string => `MK${i.toString(26).replace(/[0-9]/g, (d) => 'QRSTUVWXYZ'[Number(d)]!).toUpperCase()}`;
    writeFileSync(file, `id,sequence\n${Array.from({ length: ROWS }, (_, i) => `r${i},${seq(i)}`).join('\n')}\n`);
    const cli = join(root, 'test/models/support/models-cli.ts');
    const cliArgs = ['models', 'batch', 'fold', file, '--db', join(dir, 'bench.db'), '--out', join(dir, 'out'), '--output', join(dir, 'results.jsonl'),
      '--concurrency', String(CONCURRENCY), '--base-url', sim.url, '--json'];
    const t0 = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...cliArgs], { cwd: root, env: { ...process.env, RESQ_API_KEY: sim.key }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const wallMs = Date.now() - t0;
    const events = out.trim().split('\n').map((l) => JSON.parse(l) as { type: string; at?: string; counts?: Record<string, number> });
    const start = events.find((e) => e.type === 'start');
    const end = events.find((e) => e.type === 'end');
    const batchMs = start?.at && end?.at ? Date.parse(end.at) - Date.parse(start.at) : NaN;
    const counters = (await (await fetch(`${sim.origin}/_sim/counters`)).json()) as { requestsByRoute: Record<string, number>; modelRunsAdmitted: number };
    const polls = counters.requestsByRoute['GET /model-runs/:id'] ?? 0;
    const ideal = Math.ceil(ROWS / CONCURRENCY) * JOB_MS;
    const rows = [
      ['rows', ROWS],
      ['job ms', JOB_MS],
      ['concurrency', CONCURRENCY],
      ['exit code', code],
      ['succeeded', end?.counts?.completed ?? 0],
      ['model runs admitted', counters.modelRunsAdmitted],
      ['ideal s', (ideal / 1000).toFixed(1)],
      ['batch s (start→end event)', (batchMs / 1000).toFixed(1)],
      ['CLI process wall s', (wallMs / 1000).toFixed(1)],
      ['batch / ideal', (batchMs / ideal).toFixed(3)],
      ['poll requests', polls],
      ['poll requests per job', (polls / ROWS).toFixed(2)],
    ] as const;
    const w = Math.max(...rows.map((r) => r[0].length));
    for (const [k, v] of rows) process.stdout.write(`${k.padEnd(w)}  ${v}\n`);
  } finally {
    sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
