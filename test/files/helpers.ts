import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ServiceClient } from '../../src/api/index.js';
import { toSnapshot } from '../../src/runner/run-snapshot.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore, type BatchRecord, type BatchSettings, type FileRefInput, type RunSnapshot, type Store } from '../../src/store/index.js';

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
  const store = await openStore(opts.fileDb ? join(dir, 'resq.db') : ':memory:');
  return {
    sim,
    client,
    store,
    dir,
    out: join(dir, 'out'),
    close: async () => {
      await store.close();
      await client.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Creates a batch whose items are the given questions (id → question). */
export async function newBatch(store: Store, name: string, items: Record<string, string>, id = `id-${name}`): Promise<BatchRecord> {
  const loader = await store.beginBatchLoad({
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
    await loader.add({ id: itemId, seq: seq++, line: seq + 1, question, threadKey: null, meta: {} });
  await loader.commit([]);
  const batch = await store.findBatch(name);
  if (!batch) throw new Error('batch not stored');
  return batch;
}

/** A finished run of one item, as the store records it (its `files` are the item's file refs). */
export function finishedRun(id: string, files: FileRefInput[], createdAt: string | null = null): RunSnapshot {
  return { id, status: 'completed', threadId: null, createdAt, requiredAction: null, output: { text: 'done' }, files };
}

/**
 * Records runs through the port as the runner does: claims the batch's queued items, then
 * admits the run(s) given for each item; every run but the last pauses and is answered, the
 * last finishes. Each run's `files` become the item's file rows (expiry from its `createdAt`).
 */
export async function finishItems(store: Store, batch: BatchRecord, runs: Record<string, RunSnapshot | RunSnapshot[]>): Promise<void> {
  const lease = { workerId: 'test-worker', leaseMs: 600_000 };
  await store.claimItems(batch.id, { ...lease, max: 1_000_000, cap: 1_000_000, afterSeq: -1 });
  for (const [itemId, given] of Object.entries(runs)) {
    const chain = Array.isArray(given) ? given : [given];
    let item = await store.getItem(batch.id, itemId);
    if (!item) throw new Error(`no item ${itemId}`);
    let parentRunId: string | null = null;
    for (const [step, run] of chain.entries()) {
      const key = item.pendingKey ?? `k-${itemId}-${step}`;
      item = await store.markAdmitted(item, { id: run.id, status: 'running', threadId: run.threadId, step, parentRunId, idempotencyKey: key });
      if (step === chain.length - 1) {
        await store.markFinished(item, run, 'completed');
        break;
      }
      const paused: RunSnapshot = { ...run, status: 'requires_action', requiredAction: { tool: 'confirm_scope', input: {} } };
      item = (
        await store.markPaused(item, paused, () => ({
          kind: 'answer',
          nextKey: `k-${itemId}-${step + 1}`,
          decision: { runId: run.id, tool: 'confirm_scope', input: {}, answer: { approved: true }, by: 'policy', reason: null, cost: 0 },
        }))
      ).item;
      parentRunId = run.id;
    }
  }
}

/**
 * Runs every item's question on the simulator and records the files its run made;
 * `extra` adds more file references to an item's run.
 */
export async function runItems(env: Env, batch: BatchRecord, extra: Record<string, FileRefInput[]> = {}): Promise<void> {
  const items = await env.store.listItems(batch.id);
  const runs: Record<string, RunSnapshot> = {};
  await Promise.all(
    items.map(async (it) => {
      const started = await env.client.createRun({ input: it.question }, { idempotencyKey: `k-${batch.id}-${it.id}` });
      const snap = toSnapshot(await env.client.followRun(started.id));
      runs[it.id] = { ...snap, files: [...snap.files, ...(extra[it.id] ?? [])] };
    }),
  );
  await finishItems(env.store, batch, runs);
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
