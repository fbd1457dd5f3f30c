import { join } from 'node:path';
import { ServiceClient } from '../../src/api/index.js';
import { loadPolicyFile } from '../../src/config/index.js';
import type { DownloadSummary } from '../../src/files/index.js';
import type { RunnerResult } from '../../src/runner/index.js';
import { runBatchSession, type SessionEvent } from '../../src/runner/session.js';
import type { Sim } from '../../src/sim/index.js';
import { openStore, type BatchSettings, type Store } from '../../src/store/index.js';
import { tempDir } from './cli.js';
import { writeFixture, type FixtureItem } from './batch-fixture.js';

/** Settings for test batches. */
export function testSettings(concurrency: number, follow: 'sse' | 'poll' = 'sse'): BatchSettings {
  return { concurrency, follow, download: { enabled: false, concurrency: 2, out: null }, pipelineFile: null, service: 'url' };
}

/** A client with short delays, for tests against the simulator. */
export function testClient(sim: Sim, over: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {}): ServiceClient {
  return new ServiceClient({
    baseUrl: sim.url,
    apiKey: sim.keys[0] ?? '',
    retry: { baseDelayMs: 5, maxDelayMs: 50, threadBusyDelayMs: 20, maxAttempts: 10 },
    pollIntervalMs: 50,
    ...over,
  });
}

/**
 * Loads the fixture into a fresh database and runs it in-process to the end, as `resq run`
 * does (runBatchSession): files downloaded into the folder's `out` as the runs make them.
 */
export async function runFixture(
  sim: Sim,
  items: FixtureItem[],
  opts: { concurrency?: number; follow?: 'sse' | 'poll'; client?: ServiceClient; onEvent?: (e: SessionEvent) => void } = {},
): Promise<{ store: Store; result: RunnerResult; batchId: string; files: DownloadSummary | null }> {
  const dir = tempDir();
  const { questions, policy } = writeFixture(dir, items);
  const store = await openStore(join(dir, 'resq.db'));
  const pol = await loadPolicyFile(policy);
  const settings = testSettings(opts.concurrency ?? 8, opts.follow);
  settings.download = { enabled: true, concurrency: 2, out: join(dir, 'out') };
  const client = opts.client ?? testClient(sim);
  try {
    const s = await runBatchSession({
      store,
      source: { questions, settings, policy: pol, baseUrl: sim.url },
      service: client,
      retryLaterMs: [20, 50, 100, 200, 400],
      ...(opts.onEvent ? { onEvent: opts.onEvent } : {}),
    });
    return { store, result: s.run!, batchId: s.batch.id, files: s.files };
  } finally {
    if (!opts.client) await client.close();
  }
}
