import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePolicy } from '../../src/config/index.js';
import { BatchRunner, loadBatch } from '../../src/runner/index.js';
import type { Sim } from '../../src/sim/index.js';
import type { BatchRecord, Store } from '../../src/store/index.js';
import { testClient, testSettings } from './in-process.js';

/**
 * Loads a CSV question set as batch `name` into `store` and runs it to the end against the
 * simulator with `policy` (a policy as its YAML would read; null holds every pause).
 */
export async function runCsvBatch(sim: Sim, store: Store, dir: string, name: string, csv: string, policy: Record<string, unknown> | null): Promise<BatchRecord> {
  const questions = join(dir, `${name}.csv`);
  writeFileSync(questions, csv);
  const pol = policy === null ? null : parsePolicy(policy, `${name}-policy.yaml`);
  const { batch } = await loadBatch({ store, questions, name, settings: testSettings(4), policy: pol, baseUrl: sim.url });
  const client = testClient(sim);
  try {
    await new BatchRunner({ store, client, batch, policy: pol }).run();
  } finally {
    await client.close();
  }
  return batch;
}
