// The store's own CPU per run, in one process, without HTTP or the runner: what a change to
// the SQLite adapter's hot path saves, told apart from the noise of a shared machine better
// than `resq run`'s whole process is (its HTTP, GC and the simulator beside it). N items in a
// file database; then as the runner does it at C in flight: claims of a few freed slots at a
// time, each claimed item admitted (markAdmitted) and finished (markFinished), the writes of
// one turn grouped (the store's write group), until every item ended. Main thread CPU
// (process.threadCpuUsage) per run over the rounds; the median printed.
//   npx tsx test/bench/store-per-run.ts [--n 4000] [--c 400] [--rounds 5]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ItemRecord, RunSnapshot } from '../../src/store/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { NewBatch } from '../../src/store/shapes.js';
import { benchArgs } from './lib/args.js';
import { quantile } from './lib/report.js';

const args = benchArgs();
const n = Number(args.get('n', '4000'));
const c = Number(args.get('c', '400'));
const rounds = Number(args.get('rounds', '5'));
/** Slots freed per claim, as completions arrive a few at a time. */
const BURST = 4;

const BATCH: NewBatch = {
  id: 'b', name: 'store-per-run', kind: 'runs', sourcePath: '/q.csv', sourceSha256: 'sha', baseUrl: 'http://svc/api/v1',
  settings: { concurrency: c, follow: 'sse', download: { enabled: false, concurrency: 2, out: null }, pipelineFile: null, service: 'sim' }, policy: null,
};

function snapshot(id: string): RunSnapshot {
  return { id, status: 'completed', threadId: null, createdAt: new Date().toISOString(), requiredAction: null, output: { text: `answer of ${id}`, tool_results: [] }, files: [] };
}

/** One round: µs of main-thread CPU per run for claim + admit + finish of every item. */
async function round(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'resq-bench-store-'));
  const store = SqliteStore.open(join(dir, 'r.db'));
  try {
    const loader = await store.beginBatchLoad(BATCH);
    for (let i = 0; i < n; i++) await loader.add({ id: `i${i}`, seq: i, line: i + 2, question: `Question ${i} @duration=500ms`, threadKey: null, meta: {} });
    await loader.flush();
    await loader.commit([]);
    const worker = (await store.registerWorker(BATCH.id, { host: 'h', pid: 1 })).id;
    let cursor = -1;
    let runs = 0;
    const t0 = process.threadCpuUsage();
    const claim = async (max: number, ended: string[]): Promise<ItemRecord[]> => {
      const got = await store.claimItems(BATCH.id, { workerId: worker, leaseMs: 60_000, max, cap: c, afterSeq: cursor, ended, takeOver: [] });
      cursor = got.cursor;
      return got.items;
    };
    // The scheduler looks for orphans on its regular tick, not with each freed slot: takeOver [] as it passes.
    // A run's life: admitted, then finished; each write awaited as the driver awaits it.
    const live = async (item: ItemRecord): Promise<string> => {
      const id = `run-${runs++}`;
      const ran = await store.markAdmitted(item, { id, status: 'running', threadId: null, step: item.step, parentRunId: null, idempotencyKey: item.pendingKey! });
      await store.markFinished(ran, snapshot(id), 'completed');
      return item.id;
    };
    let flying = (await claim(c, [])).map(live);
    while (flying.length > 0) {
      const next: Promise<string>[] = [];
      for (let i = 0; i < flying.length; i += BURST) {
        const ended = await Promise.all(flying.slice(i, i + BURST));
        next.push(...(await claim(ended.length, ended)).map(live));
      }
      flying = next;
    }
    const t = process.threadCpuUsage(t0);
    if (runs !== n) throw new Error(`ran ${runs} of ${n}`);
    return (t.user + t.system) / n;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const each: number[] = [];
for (let r = 0; r < rounds; r++) each.push(await round());
process.stdout.write(`store CPU per run (claim, admit, finish; N=${n} C=${c}): median ${quantile(each, 0.5).toFixed(1)} µs; rounds ${each.map((x) => x.toFixed(1)).join(', ')}\n`);
