// Issue 22: `resq serve` on a 1,000,000-item batch, SQLite and PostgreSQL: the batch overview,
// the first page of items, a page filtered by state and by a meta field, one item, and the
// server CPU of one live tick (the overview the event stream sends). Medians of 7 requests
// over HTTP on loopback, after one warm-up. `--size N` for a smaller batch; `--no-pg` skips
// PostgreSQL. The batch is loaded through the store and its states set in SQL (a realistic
// mix: 70% completed, 10% failed, 5% held, 3% running, the rest queued), not run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore, type Store } from '../../../src/store/index.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { startWebServer } from '../../../src/web/server.js';
import { readBatchStatus } from '../../../src/read/batch-status.js';
import { pgAvailable, startPgServer } from '../../support/pg-server.js';
import { testSettings } from '../../support/in-process.js';
import { benchArgs } from '../lib/args.js';
import { emitRows, fmt, quantile, row, type BenchRow } from '../lib/report.js';

const args = benchArgs();
const n = Number(args.get('size', args.quick ? '100000' : '1000000'));
const id = (i: number) => `item-${String(i).padStart(7, '0')}`;

/** The states of the mix, by seq. */
const STATE_SQL = `CASE WHEN seq % 100 < 70 THEN 'completed' WHEN seq % 100 < 80 THEN 'failed' WHEN seq % 100 < 85 THEN 'held' WHEN seq % 100 < 88 THEN 'running' ELSE 'queued' END`;

async function load(store: Store): Promise<string> {
  const loader = await store.beginBatchLoad({ id: 'serve-bench', name: 'big', kind: 'runs', sourcePath: '/bench/big.csv', sourceSha256: 'sha', baseUrl: null, settings: testSettings(64), policy: null }, { bulk: true });
  const chunk = 20_000;
  for (let start = 0; start < n; start += chunk) {
    const idx = Array.from({ length: Math.min(chunk, n - start) }, (_, k) => start + k);
    await loader.addColumns(
      { ids: idx.map(id), lines: idx.map((i) => i + 2), questions: idx.map((i) => `Question ${i} about protein ${i % 977}`), threads: idx.map(() => null), metas: idx.map((i) => JSON.stringify({ lab: `lab${i % 50}`, n: i })) },
      start,
    );
  }
  await loader.commit([]);
  return 'serve-bench';
}

const SET_STATES = (now: string) =>
  `UPDATE items SET state = ${STATE_SQL}, started_at = '${now}', updated_at = '${now}',
     finished_at = CASE WHEN seq % 100 < 80 THEN '${now}' ELSE NULL END,
     text = CASE WHEN seq % 100 < 70 THEN 'Answer to question ' || seq ELSE NULL END
   WHERE batch_num = (SELECT num FROM batches WHERE id = 'serve-bench') AND seq % 100 < 88`;

async function median(fn: () => Promise<unknown>, times = 7): Promise<number> {
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return quantile(ms, 0.5);
}

async function measure(label: string, store: Store): Promise<BenchRow[]> {
  const batch = (await store.findBatch('big'))!;
  const server = await startWebServer({ store, port: 0 });
  const get = async (p: string) => {
    const r = await fetch(`${server.origin}${p}`, { headers: { Authorization: `Bearer ${server.token}` } });
    if (r.status !== 200) throw new Error(`${p}: HTTP ${r.status}`);
    return r.arrayBuffer();
  };
  try {
    const name = `serve ${label} N=${n}`;
    const overview = await median(() => get('/api/batches/big'));
    const first = await median(() => get('/api/batches/big/items?limit=50'));
    const byState = await median(() => get('/api/batches/big/items?limit=50&state=held'));
    const byMeta = await median(() => get('/api/batches/big/items?limit=50&meta=lab&value=lab42'));
    const deep = await median(() => get(`/api/batches/big/items?limit=50&after=${Buffer.from(JSON.stringify([Math.floor(n / 2), Math.floor(n / 2)])).toString('base64url')}`));
    const item = await median(() => get(`/api/batches/big/items/${id(Math.floor(n / 3))}`));
    // One live tick: the overview and its JSON, CPU of this process (the server's).
    const cpu: number[] = [];
    for (let i = 0; i < 7; i++) {
      const c0 = process.cpuUsage();
      JSON.stringify(await readBatchStatus(store, batch, { nowMs: Date.now() }));
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    const tick = quantile(cpu, 0.5);
    const full = n === 1_000_000 && !args.quick;
    const judge = (ms: number, target: number) => (full ? ms <= target : null);
    return [
      row(name, 'batch overview (GET /api/batches/NAME)', fmt(overview, 1, 'ms'), '', target(overview, 50), '<= 50 ms', judge(overview, 50)),
      row(name, 'first page of items', fmt(first, 1, 'ms'), '', target(first, 200), '<= 200 ms', judge(first, 200)),
      row(name, 'page filtered by state (held)', fmt(byState, 1, 'ms'), '', target(byState, 500), '<= 500 ms', judge(byState, 500)),
      row(name, 'page filtered by a meta field', fmt(byMeta, 1, 'ms'), '', target(byMeta, 500), '<= 500 ms', judge(byMeta, 500)),
      row(name, 'a page in the middle (cursor)', fmt(deep, 1, 'ms')),
      row(name, 'an item', fmt(item, 1, 'ms'), '', target(item, 50), '<= 50 ms', judge(item, 50)),
      row(name, 'one live tick, server CPU', fmt(tick, 1, 'ms'), '', target(tick, 20), '<= 20 ms', judge(tick, 20)),
    ];
  } finally {
    await server.close();
  }
}

/** measured against a target, higher is better. */
function target(ms: number, limit: number): number {
  return limit / ms;
}

const rows: BenchRow[] = [];
const dir = mkdtempSync(join(tmpdir(), 'resq-bench-serve-'));
try {
  const now = new Date().toISOString();
  const sqlite = (await openStore(join(dir, 'serve.db'))) as SqliteStore;
  await load(sqlite);
  sqlite.db.exec(SET_STATES(now));
  rows.push(...(await measure('sqlite', sqlite)));
  await sqlite.close();
  if (!args.has('no-pg') && pgAvailable()) {
    const server = await startPgServer();
    try {
      const url = await server.createDatabase('serve_bench');
      const store = await openStore(url);
      await load(store);
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(SET_STATES(now));
      await c.query('ANALYZE items');
      await c.end();
      rows.push(...(await measure('postgres', store)));
      await store.close();
    } finally {
      await server.stop();
    }
  }
  emitRows(rows);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
