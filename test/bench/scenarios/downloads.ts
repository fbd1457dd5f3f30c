// Scenario 6: one 1 GiB file from the simulator (its own process) over loopback: resq's
// Downloader (a fresh process per round, via test/bench/download.ts --child: streamed to a
// temporary file, sha256, fsync, rename) against curl writing the same file. Medians.
// Its CPU time is shown too: on a shared machine it is steadier than wall time. Memory targets:
// the Downloader's peak RSS, and how far the simulator's peak RSS grows while it serves the
// file (its bytes are generated as they are sent; test/sim/files.test.ts checks the bytes).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceClient } from '../../../src/api/index.js';
import { fileRefs } from '../../../src/runner/run-snapshot.js';
import { HEAP_FLAGS } from '../../../bin/heap-flags.js';
import { benchArgs } from '../lib/args.js';
import { emitRows, fmt, quantile, row } from '../lib/report.js';
import { startSimProcess } from '../lib/sim-process.js';

const DOWNLOAD = fileURLToPath(new URL('../download.ts', import.meta.url));
const args = benchArgs();
const size = args.quick ? '256mb' : '1gb';
const rounds = args.quick ? 1 : 3;
const MiB = 2 ** 20;

/** Wall ms of curl fetching `url` into `to`, then (with `sync`) flushing that file to disk. */
function curl(url: string, key: string, to: string, sync: boolean): number {
  const t = performance.now();
  const r = spawnSync('curl', ['-s', '-f', '-o', to, '-H', `Authorization: Bearer ${key}`, url]);
  if (r.status !== 0) throw new Error(`curl failed: ${r.status}`);
  if (sync && spawnSync('sync', [to]).status !== 0) throw new Error('sync failed');
  return performance.now() - t;
}

const dir = mkdtempSync(join(tmpdir(), 'resq-bench-dl-'));
const sim = await startSimProcess();
const client = new ServiceClient({ baseUrl: sim.url, apiKey: sim.key, pollIntervalMs: 50 });
try {
  const created = await client.createRun({ input: `big file @files=csv @size=${size} @duration=10ms` }, { idempotencyKey: `bench-dl-${Date.now()}` });
  const ref = fileRefs(await client.followRun(created.id))[0]!;
  const curlMs: number[] = [];
  const curlSyncMs: number[] = [];
  const resqMs: number[] = [];
  const cpuMs: number[] = [];
  const mainCpuMs: number[] = [];
  let bytes = 0;
  let maxRss = 0;
  // The simulator generates a file's bytes as it sends them: its peak RSS must not grow with the file.
  const simRssBefore = sim.peakRssBytes();
  for (let i = 0; i < rounds; i++) {
    const out = join(dir, 'curl.out');
    curlMs.push(curl(ref.url, sim.key, out, false));
    rmSync(out);
    curlSyncMs.push(curl(ref.url, sim.key, out, true));
    rmSync(out);
    const r = spawnSync(process.execPath, [...HEAP_FLAGS, '--import', 'tsx', DOWNLOAD, '--child', sim.url, JSON.stringify(ref), join(dir, `resq-${i}`)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`Downloader child failed: ${r.stderr}`);
    const result = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { ms: number; bytes: number; maxRss: number; cpuMs: number; mainCpuMs: number };
    rmSync(join(dir, `resq-${i}`), { recursive: true, force: true });
    resqMs.push(result.ms);
    cpuMs.push(result.cpuMs);
    mainCpuMs.push(result.mainCpuMs);
    bytes = result.bytes;
    maxRss = Math.max(maxRss, result.maxRss);
  }
  const simGrowth = sim.peakRssBytes() - simRssBefore;
  const rate = (ms: number): number => bytes / MiB / (ms / 1000);
  const resq = rate(quantile(resqMs, 0.5));
  const plain = rate(quantile(curlMs, 0.5));
  const durable = rate(quantile(curlSyncMs, 0.5));
  const name = `download ${bytes / MiB >= 1024 ? `${bytes / 2 ** 30} GiB` : `${bytes / MiB} MiB`}, median of ${rounds}`;
  emitRows([
    row(name, 'resq Downloader throughput', fmt(resq, 0, 'MiB/s'), `curl -o file ${fmt(plain, 0, 'MiB/s')}`, resq / plain, '>= 0.8', resq / plain >= 0.8),
    row(name, 'vs curl, then sync of the file', fmt(resq, 0, 'MiB/s'), `curl + sync ${fmt(durable, 0, 'MiB/s')}`, resq / durable),
    row(name, 'Downloader CPU, all threads', fmt(quantile(cpuMs, 0.5), 0, 'ms'), `main thread ${fmt(quantile(mainCpuMs, 0.5), 0, 'ms')}`),
    row(name, 'Downloader process peak RSS', fmt(maxRss / MiB, 0, 'MiB'), '', null, '<= 150 MiB', maxRss / MiB <= 150),
    row(name, 'simulator peak RSS growth while serving it', fmt(simGrowth / MiB, 0, 'MiB'), `peak ${fmt(sim.peakRssBytes() / MiB, 0, 'MiB')}`, null, '<= 64 MiB', simGrowth / MiB <= 64),
  ]);
} finally {
  await client.close();
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
}
