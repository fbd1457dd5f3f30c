import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceClient } from '../../../src/api/index.js';
import type { Sim } from '../../../src/sim/index.js';
import type { BatchSettings, ItemRecord, Store } from '../../../src/store/index.js';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/cli.js';

export { tempDir };

/** A client with short delays for tests against the simulator. */
export function simClient(sim: Sim): ServiceClient {
  return new ServiceClient({
    baseUrl: sim.url,
    apiKey: sim.keys[0] ?? '',
    retry: { baseDelayMs: 5, maxDelayMs: 50, maxAttempts: 3 },
    modelPollIntervalMs: 50,
  });
}

/** A fresh file-backed store in a temp folder (the SQLite adapter), and the folder. */
export function freshStore(): { store: SqliteStore; dir: string; db: string } {
  const dir = tempDir('resq-models-');
  const db = join(dir, 'resq.db');
  return { store: SqliteStore.open(db), dir, db };
}

/** Claims every queued row of a batch for a test worker, as a runner does before sending (the key is stored). */
export async function claimAll(store: Store, batchId: string): Promise<ItemRecord[]> {
  const claim = await store.claimItems(batchId, { workerId: 'test-worker', leaseMs: 600_000, max: 1_000_000, cap: 1_000_000, afterSeq: -1 });
  return claim.items;
}

/** Writes `text` to `name` in `dir` and returns the path. */
export function writeInput(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Batch settings for tests. */
export function settings(concurrency: number): BatchSettings {
  return { concurrency, follow: 'poll', download: { enabled: false, concurrency: 2, out: null }, pipelineFile: null, service: 'url' };
}

/** A poll plan fit for 100 ms jobs. */
export const FAST_POLL = { intervalMs: 100, stepMs: 20, minFirstMs: 10 } as const;
