// Benchmark (not a test): throughput of one large file from the simulator through the
// Downloader versus curl on the same loopback, and the Downloader's peak RSS.
//   npx tsx test/bench/download.ts [--size 1gb] [--rounds 3]
// The simulator runs in its own process (`resq sim --port 0`), so its memory is not counted.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceClient } from '../../src/api/index.js';
import { Downloader } from '../../src/files/index.js';
import { fileRefs } from '../../src/runner/run-snapshot.js';
import { Store } from '../../src/store/index.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : dflt;
};
const SIZE = opt('size', '1gb');
const ROUNDS = Number(opt('rounds', '3'));
const KEY = 'sim-key-alice';
const root = fileURLToPath(new URL('../../', import.meta.url));

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

function mbps(bytes: number, ms: number): number {
  return bytes / (1024 * 1024) / (ms / 1000);
}

function curl(url: string, to: string): number {
  const t = process.hrtime.bigint();
  const r = spawnSync('curl', ['-s', '-f', '-o', to, '-H', `Authorization: Bearer ${KEY}`, url]);
  if (r.status !== 0) throw new Error(`curl failed: ${r.status}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

async function viaDownloader(client: ServiceClient, ref: ReturnType<typeof fileRefs>[number], out: string): Promise<{ ms: number; bytes: number; peakRssDelta: number }> {
  const store = Store.open(':memory:');
  const loader = store.beginBatchLoad({
    id: 'bench',
    name: 'bench',
    kind: 'runs',
    sourcePath: '-',
    sourceSha256: '-',
    baseUrl: null,
    settings: { concurrency: 1, follow: 'poll', download: { enabled: true, concurrency: 1, out }, pipelineFile: null, service: 'url' },
    policy: null,
  });
  loader.add({ id: 'item', seq: 0, line: 1, question: 'q', threadKey: null, meta: {} });
  loader.commit([]);
  store.files.record('bench', 'item', 'run', ref, new Date(), null);
  const batch = store.findBatch('bench')!;
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const t = process.hrtime.bigint();
  const d = new Downloader({ store, client, outDir: out, concurrency: 1 });
  d.kick(batch);
  const s = await d.drain();
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  clearInterval(timer);
  store.close();
  if (s.downloaded !== 1) throw new Error(`download failed: ${JSON.stringify(s.problems)}`);
  return { ms, bytes: s.bytes, peakRssDelta: peak - base };
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

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const sim = await startSimProcess();
const client = new ServiceClient({ baseUrl: sim.url, apiKey: KEY, pollIntervalMs: 50 });
const dir = mkdtempSync(join(tmpdir(), 'resq-bench-'));
try {
  const run = await client.followRun((await client.createRun({ input: `bench @files=csv @size=${SIZE} @duration=10ms` }, { idempotencyKey: `bench-${Date.now()}` })).id);
  const ref = fileRefs(run)[0]!;
  const rows: { what: string; ms: number[]; bytes: number }[] = [];
  const curlNull = { what: 'curl -o /dev/null', ms: [] as number[], bytes: 0 };
  const curlFile = { what: 'curl -o file', ms: [] as number[], bytes: 0 };
  const bare = { what: 'client.openFile, discard', ms: [] as number[], bytes: 0 };
  const hashed = { what: 'client.openFile + sha256, discard', ms: [] as number[], bytes: 0 };
  const resq = { what: 'resq Downloader (disk, sha256, fsync)', ms: [] as number[], bytes: 0 };
  let peakDelta = 0;
  for (let i = 0; i < ROUNDS; i++) {
    curlNull.ms.push(curl(ref.url, '/dev/null'));
    curlFile.ms.push(curl(ref.url, join(dir, 'curl.out')));
    rmSync(join(dir, 'curl.out'), { force: true });
    bare.ms.push(await viaClient(client, ref.url, false));
    hashed.ms.push(await viaClient(client, ref.url, true));
    const r = await viaDownloader(client, ref, join(dir, `out-${i}`));
    rmSync(join(dir, `out-${i}`), { recursive: true, force: true });
    resq.ms.push(r.ms);
    resq.bytes = r.bytes;
    peakDelta = Math.max(peakDelta, r.peakRssDelta);
  }
  curlNull.bytes = curlFile.bytes = bare.bytes = hashed.bytes = resq.bytes;
  rows.push(curlNull, curlFile, bare, hashed, resq);
  const ref0 = mbps(curlNull.bytes, median(curlNull.ms));
  console.log(`file: ${SIZE} (${resq.bytes} bytes), ${ROUNDS} rounds, median shown; node ${process.version}`);
  console.log('what'.padEnd(40), 'median ms'.padStart(10), 'MiB/s'.padStart(8), 'vs curl>/dev/null'.padStart(18));
  for (const r of rows) {
    const rate = mbps(r.bytes, median(r.ms));
    console.log(r.what.padEnd(40), median(r.ms).toFixed(0).padStart(10), rate.toFixed(0).padStart(8), (rate / ref0).toFixed(2).padStart(18));
  }
  console.log(`vs curl -o file: ${(mbps(resq.bytes, median(resq.ms)) / mbps(curlFile.bytes, median(curlFile.ms))).toFixed(2)}`);
  console.log(`Downloader peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB for the whole bench process; ` +
    `largest growth during a download: ${(peakDelta / 1024 / 1024).toFixed(1)} MiB`);
} finally {
  await client.close();
  sim.stop();
  rmSync(dir, { recursive: true, force: true });
}
