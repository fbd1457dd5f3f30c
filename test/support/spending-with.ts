import type { Store } from '../../src/store/index.js';
import { testSettings } from './in-process.js';

/**
 * Loads batch `<batchId>.judge`, spending with `batchId`'s budget (as an agent judge's companion
 * batch does), and records a policy's approval of `cost` on its one item: the group has spent
 * `cost` more while `batchId`'s own approved cost is unchanged.
 */
export async function spendWith(store: Store, batchId: string, cost: number): Promise<void> {
  const id = `${batchId}.judge`;
  const loader = await store.beginBatchLoad({ id, name: id, kind: 'runs', sourcePath: `judge:${batchId}`, sourceSha256: '', baseUrl: null, settings: testSettings(1), policy: null, spendsWith: batchId });
  await loader.add({ id: 'j', seq: 0, line: 1, question: 'judge it', threadKey: null, meta: {} });
  await loader.commit([]);
  const w = (await store.registerWorker(id, { host: 'h', pid: 1 })).id;
  const it = (await store.claimItems(id, { workerId: w, leaseMs: 60_000, max: 1, cap: 1, afterSeq: -1 })).items[0]!;
  const running = await store.markAdmitted(it, { id: `r-${id}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: it.pendingKey! });
  const paused = { id: `r-${id}`, status: 'requires_action', threadId: null, createdAt: null, requiredAction: { tool: 'confirm_scope', input: { cost } }, output: null, files: [] };
  await store.markPaused(running, paused, () => ({
    kind: 'answer', nextKey: `k-${id}`,
    decision: { runId: `r-${id}`, tool: 'confirm_scope', input: { cost }, answer: { approved: true }, by: 'policy', reason: 'judging', cost },
  }));
  await store.retireWorker(w);
}
