import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ServiceClient } from '../../src/api/index.js';
import { fileRefs } from '../../src/runner/run-snapshot.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { Store, type BatchRecord, type BatchSettings } from '../../src/store/index.js';

export const settings: BatchSettings = {
  concurrency: 4,
  follow: 'sse',
  download: { enabled: true, concurrency: 4, out: null },
  pipelineFile: null,
  service: 'sim',
};

/** A simulator, a client with fast retries, a temp folder and an in-memory store. */
export interface Env {
  sim: Sim;
  client: ServiceClient;
  store: Store;
  dir: string;
  out: string;
  close(): Promise<void>;
}

/** `fileDb`: the store is `<dir>/resq.db` (another process can open it) instead of `:memory:`. */
export async function newEnv(opts: { fileDb?: boolean } = {}): Promise<Env> {
  const sim = await startSim({ defaultDurationMs: 20 });
  const client = new ServiceClient({
    baseUrl: sim.url,
    apiKey: 'sim-key-alice',
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    pollIntervalMs: 20,
  });
  const dir = mkdtempSync(join(tmpdir(), 'resq-files-'));
  const store = Store.open(opts.fileDb ? join(dir, 'resq.db') : ':memory:');
  return {
    sim,
    client,
    store,
    dir,
    out: join(dir, 'out'),
    close: async () => {
      store.close();
      await client.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Creates a batch whose items are the given questions (id → question). */
export function newBatch(store: Store, name: string, items: Record<string, string>, id = `id-${name}`): BatchRecord {
  const loader = store.beginBatchLoad({
    id,
    name,
    kind: 'runs',
    sourcePath: '/q.csv',
    sourceSha256: 'x',
    baseUrl: null,
    settings,
    policy: null,
  });
  let seq = 0;
  for (const [itemId, question] of Object.entries(items))
    loader.add({ id: itemId, seq: seq++, line: seq + 1, question, threadKey: null, meta: {} });
  loader.commit([]);
  const batch = store.findBatch(name);
  if (!batch) throw new Error('batch not stored');
  return batch;
}

/** Runs every item's question on the simulator and records the files its run made. */
export async function runItems(env: Env, batch: BatchRecord): Promise<void> {
  const items = env.store.items.list(batch.id);
  await Promise.all(
    items.map(async (it) => {
      const started = await env.client.createRun({ input: it.question }, { idempotencyKey: `k-${batch.id}-${it.id}` });
      const run = await env.client.followRun(started.id);
      const created = typeof run.created_at === 'string' ? new Date(run.created_at) : null;
      for (const f of fileRefs(run)) env.store.files.record(batch.id, it.id, run.id, f, new Date(), created);
    }),
  );
}

/** Every file under `root`, as paths relative to it. */
export function listFiles(root: string): string[] {
  const out: string[] = [];
  if (!existsSync(root)) return out;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(root, p));
    }
  };
  walk(root);
  return out.sort();
}

/** Size of a file. */
export function sizeOf(path: string): number {
  return statSync(path).size;
}
