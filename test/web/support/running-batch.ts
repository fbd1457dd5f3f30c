import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePolicy } from '../../../src/config/index.js';
import { BatchRunner, loadBatch, type RunnerResult } from '../../../src/runner/index.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore, type BatchRecord, type Store } from '../../../src/store/index.js';
import { startWebServer, type WebServer } from '../../../src/web/server.js';
import { tempDir } from '../../support/cli.js';
import { testClient, testSettings } from '../../support/in-process.js';

/** A batch being worked by a runner in this process (no policy: every pause is held), and the web view over its database. */
export interface RunningBatch {
  sim: Sim;
  store: Store;
  batch: BatchRecord;
  server: WebServer;
  runner: BatchRunner;
  /** Resolves when the runner ends. */
  done: Promise<RunnerResult>;
  close(): Promise<void>;
}

/** Loads `csv`, starts a runner on it (answers polled every 100 ms; `policy` as its YAML would read, none: every pause held) and `resq serve`'s server on port 0. */
export async function runningBatch(csv: string, o: { name?: string; concurrency?: number; policy?: Record<string, unknown> } = {}): Promise<RunningBatch> {
  const sim = await startSim({ defaultDurationMs: 50 });
  const dir = tempDir('resq-web-run-');
  const questions = join(dir, `${o.name ?? 'live'}.csv`);
  writeFileSync(questions, csv);
  const store = await openStore(join(dir, 'resq.db'));
  const policy = o.policy ? parsePolicy(o.policy, 'policy.yaml') : null;
  const { batch } = await loadBatch({ store, questions, name: o.name ?? 'live', settings: testSettings(o.concurrency ?? 2), policy, baseUrl: sim.url });
  const client = testClient(sim);
  const runner = new BatchRunner({ store, client, batch, policy, answeredPollMs: 100 });
  const done = runner.run();
  const server = await startWebServer({ store, port: 0, tickMs: 250 });
  return {
    sim,
    store,
    batch,
    server,
    runner,
    done,
    close: async () => {
      runner.stop();
      await done.catch(() => undefined);
      await server.close();
      await client.close();
      await store.close();
      await sim.close();
    },
  };
}
