import { join } from 'node:path';
import { ServiceClient } from '../../src/api/index.js';
import { loadPolicyFile } from '../../src/config/index.js';
import { BatchRunner, loadBatch, type RunnerEvent, type RunnerResult } from '../../src/runner/index.js';
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

/** Loads the fixture into a fresh database and runs it in-process to the end. */
export async function runFixture(
  sim: Sim,
  items: FixtureItem[],
  opts: { concurrency?: number; follow?: 'sse' | 'poll'; client?: ServiceClient; onEvent?: (e: RunnerEvent) => void } = {},
): Promise<{ store: Store; result: RunnerResult; batchId: string }> {
  const dir = tempDir();
  const { questions, policy } = writeFixture(dir, items);
  const store = await openStore(join(dir, 'resq.db'));
  const pol = await loadPolicyFile(policy);
  const { batch } = await loadBatch({ store, questions, settings: testSettings(opts.concurrency ?? 8, opts.follow), policy: pol, baseUrl: sim.url });
  const client = opts.client ?? testClient(sim);
  const runner = new BatchRunner({ store, client, batch, policy: pol, retryLaterMs: [20, 50, 100, 200, 400], ...(opts.onEvent ? { onEvent: opts.onEvent } : {}) });
  const result = await runner.run();
  if (!opts.client) await client.close();
  return { store, result, batchId: batch.id };
}
