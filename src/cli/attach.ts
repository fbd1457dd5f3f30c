import type { Policy } from '../policy/index.js';
import { BatchRunner, batchStatus, type RunnerResult } from '../runner/index.js';
import type { BatchRecord, Store } from '../store/index.js';
import { exitCodeForRun, EXIT } from './exit-codes.js';
import { pickRenderer } from './progress.js';
import type { Service } from './service.js';
import { formatStatus } from './summary.js';

/** Everything needed to drive a batch from the terminal. */
export interface AttachOptions {
  store: Store;
  batch: BatchRecord;
  service: Service;
  policy: Policy | null;
  json: boolean;
  dbPath: string;
  outDir: string | null;
}

/**
 * Runs a batch with progress on the terminal. The first SIGINT stops admitting and lets
 * in-flight writes commit (exit 130; `resq resume` picks the batch up); a second exits at once.
 */
export async function attachAndRun(o: AttachOptions): Promise<number> {
  const renderer = pickRenderer(o.json);
  const runner = new BatchRunner({
    store: o.store,
    client: o.service.client,
    batch: o.batch,
    policy: o.policy,
    onEvent: (e) => renderer.onEvent(e),
  });
  o.service.onThrottle = () => runner.throttled();
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(EXIT.interrupted);
    process.stderr.write('\nstopping: no new runs are admitted; runs in flight go on at the service (resq resume picks them up)\n');
    runner.stop();
  };
  process.on('SIGINT', onSigint);
  let result: RunnerResult;
  try {
    result = await runner.run();
  } finally {
    process.off('SIGINT', onSigint);
    renderer.stop();
  }
  const status = batchStatus(o.store, o.batch);
  if (o.json) {
    process.stdout.write(`${JSON.stringify({ type: 'summary', ...status, db: o.dbPath, out: o.outDir })}\n`);
  } else {
    process.stdout.write(`${formatStatus(status, { db: o.dbPath, out: o.outDir })}\n`);
    if (result.fatal) process.stderr.write(`resq: stopped: ${result.fatal.message}\n`);
    else if (result.interrupted) process.stderr.write(`interrupted: continue with \`resq resume ${o.batch.name} --db ${o.dbPath}\`\n`);
  }
  return exitCodeForRun(result);
}
