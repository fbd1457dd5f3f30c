import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceClient } from '../../../src/api/index.js';
import type { Sim } from '../../../src/sim/index.js';
import { ModelStore } from '../../../src/store/model-store.js';
import { Store, type BatchSettings } from '../../../src/store/index.js';
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

/** A fresh file-backed store in a temp folder, and the folder. */
export function freshStore(): { ms: ModelStore; dir: string; db: string } {
  const dir = tempDir('resq-models-');
  const db = join(dir, 'resq.db');
  return { ms: new ModelStore(Store.open(db)), dir, db };
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
