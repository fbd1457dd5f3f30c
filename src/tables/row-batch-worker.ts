// The question reader thread: parses a question set with readHere and posts RowBatches
// to the thread that stores them, at most `window` batches ahead of it.
import { parentPort, workerData } from 'node:worker_threads';
import { InputError } from '../errors.js';
import { type WorkerInput, type WorkerMessage, readHere } from './row-batches.js';

const port = parentPort;
if (!port) throw new Error('row-batch-worker runs only as a worker thread');
const input = workerData as WorkerInput;
let credits = input.window;
let wake: (() => void) | null = null;
port.on('message', (m) => {
  if (m !== 'more') return;
  credits++;
  wake?.();
  wake = null;
});
const post = (m: WorkerMessage): void => port.postMessage(m);

try {
  const read = readHere(input.path, input);
  for await (const batch of read.batches) {
    while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    credits--;
    post({ type: 'batch', batch });
  }
  post({ type: 'end', sha256: read.sha256() });
} catch (e) {
  const err = e instanceof Error ? e : new Error(String(e));
  post({ type: 'error', problems: e instanceof InputError ? e.problems : null, message: err.message, stack: err.stack });
}
port.close();
