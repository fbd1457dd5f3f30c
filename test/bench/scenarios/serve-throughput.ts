// Issue 22: what `resq serve` beside a running batch takes from its throughput. The
// `throughput` workload (N=600, C=60, D=1 s) run twice against a fresh simulator process
// each: alone, then with `resq serve` on the same database and a page open on the batch
// (its live event stream followed, as the batch page does). Target: with the page ≥ 0.95
// of the makespan alone.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from '../lib/args.js';
import { ROOT, atMs, runCli } from '../lib/cli-process.js';
import { writeQuestions } from '../lib/questions.js';
import { emitRows, fmt, row } from '../lib/report.js';
import { startSimProcess } from '../lib/sim-process.js';

const args = benchArgs();
const [n, c, d] = args.quick ? [120, 60, 1000] : [600, 60, 1000];
const name = `serve beside a batch N=${n} C=${c} D=${d}ms`;
const TOKEN = 'bench-3f9a1c77e0b24d5e8a6b1f02c4d9e7a3';

interface Served {
  url: string;
  events: number;
  stop(): Promise<void>;
}

/** Starts `resq serve` on the database and follows the batch page's live stream. */
async function serveWithPage(db: string, batch: string): Promise<Served> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/resq.js'), 'serve', '--db', db, '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, RESQ_SERVE_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (b: Buffer) => {
      buf += b.toString();
      const m = /serving (http:\/\/\S+?)\/\?code=/.exec(buf);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`resq serve exited ${code}`)));
  });
  const page = new AbortController();
  const served: Served = {
    url,
    events: 0,
    stop: async () => {
      page.abort();
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
  const res = await fetch(`${url}/api/batches/${encodeURIComponent(batch)}/events`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: page.signal });
  if (!res.ok || !res.body) throw new Error(`event stream: HTTP ${res.status}`);
  void (async () => {
    try {
      for await (const chunk of res.body!) served.events += (Buffer.from(chunk).toString().match(/^event: overview/gm) ?? []).length;
    } catch {
      // aborted at the end
    }
  })();
  return served;
}

async function once(withPage: boolean): Promise<{ batchMs: number; events: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'resq-bench-serve-tp-'));
  const sim = await startSimProcess();
  let served: Served | null = null;
  try {
    const questions = join(dir, 'q.csv');
    writeQuestions(questions, n, (i) => `Question ${i} @duration=${d}ms`);
    const db = join(dir, 'r.db');
    const base = ['run', questions, '--db', db, '--base-url', sim.url, '--concurrency', String(c), '--no-download', '--batch', 'tp', '--json'];
    // The batch recorded first, so the page can be open on it before the first run starts.
    const dry = await runCli({ args: [...base, '--dry-run'], env: { RESQ_API_KEY: sim.key }, timed: false });
    if (dry.code !== 0) throw new Error(`dry run exited ${dry.code}: ${dry.stderr}`);
    if (withPage) served = await serveWithPage(db, 'tp');
    const r = await runCli({ args: base, env: { RESQ_API_KEY: sim.key } });
    if (r.code !== 0) throw new Error(`resq exited ${r.code}: ${r.stderr}`);
    const batchMs = atMs(r.events.find((e) => e.type === 'end')) - atMs(r.events.find((e) => e.type === 'start'));
    return { batchMs, events: served?.events ?? 0 };
  } finally {
    await served?.stop();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const alone = await once(false);
const beside = await once(true);
const ratio = alone.batchMs / beside.batchMs;
emitRows([
  row(name, 'batch with a page open (start→end event)', fmt(beside.batchMs / 1000, 2, 's'), `alone ${fmt(alone.batchMs / 1000, 2, 's')}`, ratio, '>= 0.95', args.quick ? null : ratio >= 0.95),
  row(name, 'overview events the page received', String(beside.events), `over ${fmt(beside.batchMs / 1000, 1, 's')}`),
]);
