import type { BatchRecord } from '../store/index.js';
import { Notifier, type NotifierOptions, type NotifierStore } from './sender.js';

/** How a worker (or `resq serve`) sends: the secret from its environment, its own notify command (a worker's only), and its timings. */
export interface SendOptions extends Omit<NotifierOptions, 'store' | 'batchId' | 'timeoutMs' | 'leaseMs'> {
  /** A claim's length; a delivery's timeout is kept under it (at most 10 s). @default 60000 */
  leaseMs?: number;
  /** How long a leaving worker goes on sending what is due. @default 5000 */
  graceMs?: number;
}

/** A claim always outlives its delivery: the timeout is at most 60% of the lease (and 10 s). */
function timings(o: SendOptions): Pick<NotifierOptions, 'leaseMs' | 'timeoutMs'> {
  const leaseMs = o.leaseMs ?? 60_000;
  return { leaseMs, timeoutMs: Math.max(100, Math.min(10_000, Math.floor(leaseMs * 0.6))) };
}

/** The sender of a worker's batch, started; null when the batch tells nobody. */
export function startWorkerNotifier(store: NotifierStore, batch: BatchRecord, o: SendOptions = {}): Notifier | null {
  if (!batch.settings.notify) return null;
  const n = new Notifier({ ...o, ...timings(o), store, batchId: batch.id });
  n.start();
  return n;
}

/**
 * The sender of every batch with receivers (`resq serve`), started. It runs no command (none
 * is ever given to it, and none is read from the store): a batch whose worker has one is left
 * to that worker while it lives.
 */
export function startServeNotifier(store: NotifierStore, o: Omit<SendOptions, 'command'> = {}): Notifier {
  const n = new Notifier({ ...o, ...timings(o), store, batchId: null, command: null });
  n.start();
  return n;
}
