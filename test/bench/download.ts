// Benchmark (not a test): throughput of one large file from the simulator through the
// Downloader versus curl on the same loopback, the Downloader's peak RSS and its CPU time
// (all threads, and the main thread alone: on a shared machine CPU is steadier than wall).
//   npx tsx test/bench/download.ts [--size 1gb] [--rounds 5] [--child-flags '--max-semi-space-size=4']
// --child-flags: node flags for the Downloader child only, to try runtime settings; without
// it the child runs with the heap flags bin/resq.js runs with (bin/heap-flags.js), which is
// the honest figure.
// The simulator runs in its own process (`resq sim --port 0`); every Downloader round runs
// in a fresh child process, so its peak RSS (maxRSS) is the Downloader's alone.
import { spawn, spawnSync } from 'node:child_process';
import { HEAP_FLAGS } from '../../bin/heap-flags.js';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceClient } from '../../src/api/index.js';
import { Downloader } from '../../src/files/index.js';
import { fileRefs } from '../../src/runner/run-snapshot.js';
import { openStore, type FileRefInput } from '../../src/store/index.js';

const KEY = 'sim-key-alice';
const here = fileURLToPath(import.meta.url);
const root = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : dflt;
};

interface ChildResult {
  ms: number;
  bytes: number;
  startRss: number;
  maxRss: number;
  /** CPU (user + system) the download took, all threads (libuv's writes, GC helpers) included. */
  cpuMs: number;
  /** The part of it on the main thread. */
  mainCpuMs: number;
}

/** Child mode: one Downloader download of `ref` into `out`; prints a ChildResult. */
async function childDownload(baseUrl: string, ref: FileRefInput, out: string): Promise<void> {
  const startRss = process.memoryUsage().rss;
  const client = new ServiceClient({ baseUrl, apiKey: KEY });
  const store = await openStore(':memory:');
  const loader = await store.beginBatchLoad({
    id: 'bench',
    name: 'bench',
    kind: 'runs',
    sourcePath: '-',
    sourceSha256: '-',
    baseUrl,
    settings: { concurrency: 1, follow: 'poll', download: { enabled: true, concurrency: 1, out }, pipelineFile: null, service: 'url' },
    policy: null,
  });
  await loader.add({ id: 'item', seq: 0, line: 1, question: 'q', threadKey: null, meta: {} });
  await loader.commit([]);
  // The file row comes from the item's finished run, as in a batch: claimed, admitted, finished.
  const [item] = (await store.claimItems('bench', { workerId: 'bench', leaseMs: 600_000, max: 1, cap: 1, afterSeq: -1 })).items;
  if (!item) throw new Error('no item to claim');
  const admitted = await store.markAdmitted(item, { id: 'run', status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: item.pendingKey ?? 'k' });
  await store.markFinished(admitted, { id: 'run', status: 'completed', threadId: null, createdAt: null, requiredAction: null, output: null, files: [ref] }, 'completed');
  const batch = (await store.findBatch('bench'))!;
  const t = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const mainCpu = process.threadCpuUsage();
  const d = new Downloader({ store, client, outDir: out, concurrency: 1 });
  d.kick(batch);
  const s = await d.drain();
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  const [all, main] = [process.cpuUsage(cpu), process.threadCpuUsage(mainCpu)];
  if (s.downloaded !== 1) throw new Error(`download failed: ${JSON.stringify(s.problems)}`);
  const result: ChildResult = { ms, bytes: s.bytes, startRss, maxRss: process.resourceUsage().maxRSS * 1024, cpuMs: (all.user + all.system) / 1000, mainCpuMs: (main.user + main.system) / 1000 };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await store.close();
  await client.close();
}

async function startSimProcess(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [join(root, 'bin/resq.js'), 'sim', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      const line = buf.split('\n')[0];
      if (buf.includes('\n') && line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

/** curl into `to`; with `sync`, then fsync that file (coreutils `sync FILE`), as durable as the Downloader. */
function curl(url: string, to: string, sync = false): number {
  const t = process.hrtime.bigint();
  const r = spawnSync('curl', ['-s', '-f', '-o', to, '-H', `Authorization: Bearer ${KEY}`, url]);
  if (r.status !== 0) throw new Error(`curl failed: ${r.status}`);
  if (sync && spawnSync('sync', [to]).status !== 0) throw new Error('sync failed');
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** The client alone (no disk): how fast bytes come through `openFile`, optionally hashed. */
async function viaClient(client: ServiceClient, url: string, hash: boolean): Promise<number> {
  const t = process.hrtime.bigint();
  const f = await client.openFile(url);
  const h = hash ? createHash('sha256') : null;
  for await (const chunk of f.body as AsyncIterable<Buffer>) h?.update(chunk);
  h?.digest('hex');
  return Number(process.hrtime.bigint() - t) / 1e6;
}

function viaDownloaderProcess(baseUrl: string, ref: FileRefInput, out: string, flags: string[]): ChildResult {
  const r = spawnSync(process.execPath, [...flags, '--import', 'tsx', here, '--child', baseUrl, JSON.stringify(ref), out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`downloader child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as ChildResult;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mibps = (bytes: number, ms: number): number => bytes / (1024 * 1024) / (ms / 1000);
const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;

async function main(): Promise<void> {
  const size = opt('size', '1gb');
  const rounds = Number(opt('rounds', '5'));
  const given = opt('child-flags', '').split(' ').filter(Boolean);
  const childFlags = given.length ? given : [...HEAP_FLAGS];
  const sim = await startSimProcess();
  const client = new ServiceClient({ baseUrl: sim.url, apiKey: KEY, pollIntervalMs: 50 });
  const dir = mkdtempSync(join(tmpdir(), 'resq-bench-'));
  try {
    const created = await client.createRun({ input: `bench @files=csv @size=${size} @duration=10ms` }, { idempotencyKey: `bench-${Date.now()}` });
    const ref = fileRefs(await client.followRun(created.id))[0]!;
    const rows = {
      curlNull: { what: 'curl -o /dev/null', ms: [] as number[] },
      curlFile: { what: 'curl -o file', ms: [] as number[] },
      curlSync: { what: 'curl -o file; sync file', ms: [] as number[] },
      bare: { what: 'client.openFile, discard', ms: [] as number[] },
      hashed: { what: 'client.openFile + sha256, discard', ms: [] as number[] },
      resq: { what: 'resq Downloader (disk, sha256, fsync)', ms: [] as number[] },
    };
    let bytes = 0;
    let maxRss = 0;
    let startRss = 0;
    const cpu: number[] = [];
    const mainCpu: number[] = [];
    for (let i = 0; i < rounds; i++) {
      rows.curlNull.ms.push(curl(ref.url, '/dev/null'));
      rows.curlFile.ms.push(curl(ref.url, join(dir, 'curl.out')));
      rmSync(join(dir, 'curl.out'), { force: true });
      rows.curlSync.ms.push(curl(ref.url, join(dir, 'curl.out'), true));
      rmSync(join(dir, 'curl.out'), { force: true });
      rows.bare.ms.push(await viaClient(client, ref.url, false));
      rows.hashed.ms.push(await viaClient(client, ref.url, true));
      const r = viaDownloaderProcess(sim.url, ref, join(dir, `out-${i}`), childFlags);
      rmSync(join(dir, `out-${i}`), { recursive: true, force: true });
      rows.resq.ms.push(r.ms);
      bytes = r.bytes;
      maxRss = Math.max(maxRss, r.maxRss);
      startRss = Math.max(startRss, r.startRss);
      cpu.push(r.cpuMs);
      mainCpu.push(r.mainCpuMs);
    }
    const base = mibps(bytes, median(rows.curlNull.ms));
    const fileRate = mibps(bytes, median(rows.curlFile.ms));
    console.log(`file: ${size} (${bytes} bytes), ${rounds} rounds, medians; node ${process.version}${childFlags.length ? `; Downloader child flags: ${childFlags.join(' ')}` : ''}`);
    console.log('what'.padEnd(40), 'ms'.padStart(7), 'MiB/s'.padStart(7), 'vs curl>/dev/null'.padStart(18), 'vs curl>file'.padStart(13));
    for (const r of Object.values(rows)) {
      const rate = mibps(bytes, median(r.ms));
      console.log(r.what.padEnd(40), median(r.ms).toFixed(0).padStart(7), rate.toFixed(0).padStart(7), (rate / base).toFixed(2).padStart(18), (rate / fileRate).toFixed(2).padStart(13));
    }
    console.log(`Downloader process: peak RSS (maxRSS) ${mib(maxRss)}, of which ${mib(startRss)} before the download began`);
    console.log(`Downloader process: CPU ${median(cpu).toFixed(0)} ms for the download (median), ${median(mainCpu).toFixed(0)} ms of it on the main thread`);
  } finally {
    await client.close();
    sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (args[0] === '--child') await childDownload(args[1]!, JSON.parse(args[2]!) as FileRefInput, args[3]!);
else await main();
