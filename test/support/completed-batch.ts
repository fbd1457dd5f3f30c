import { join } from 'node:path';
import type { Verdict } from '../../src/score/types.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { snap } from '../store/snapshot.js';
import { tempDir } from './cli.js';

/** A verdict as a scorer records it: score 1 or 0 with the pass, none when unscored. */
export function verdictOf(scorer: string, version: string, pass: boolean | null, over: Partial<Verdict> = {}): Verdict {
  return { scorer, version, pass, score: pass === null ? null : Number(pass), reason: 'r', scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes', ...over };
}

/** A real SQLite file holding batch `b1` of `n` items q0…, each run and completed through the store's transitions. */
export async function completedBatch(n: number): Promise<SqliteStore> {
  const store = SqliteStore.open(join(tempDir('resq-completed-'), 'r.db'));
  const loader = await store.beginBatchLoad({
    id: 'b1', name: 'completed', kind: 'runs', sourcePath: '/q.csv', sourceSha256: 'x', baseUrl: null, policy: null,
    settings: { concurrency: 4, follow: 'sse', download: { enabled: false, concurrency: 1, out: null }, pipelineFile: null, service: 'sim' },
  });
  for (let i = 0; i < n; i++) await loader.add({ id: `q${i}`, seq: i, line: i + 2, question: `q${i}?`, threadKey: null, meta: {} });
  await loader.commit([]);
  const w = (await store.registerWorker('b1', { host: 'h', pid: 1 })).id;
  for (let i = 0; i < n; i++) {
    const [it] = (await store.claimItems('b1', { workerId: w, leaseMs: 60_000, max: 1, cap: 10, afterSeq: i - 1, takeOver: [] })).items;
    const run = await store.markAdmitted(it!, { id: `r${i}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: it!.pendingKey! });
    await store.markFinished(run, snap(`r${i}`), 'completed');
  }
  return store;
}
