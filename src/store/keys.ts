import { createHash } from 'node:crypto';

/**
 * The idempotency key of an item's request at `step` (0 = create the run, n = the n-th
 * respond). Derived, not random: the same batch, item and step give the same key on
 * every resume, and different batches never share one. The item id is hashed so that
 * any id the user chose fits in the service's 200 characters.
 * @param attempt attempts after the first (`resq retry`); 0 keeps the original keys
 */
export function idempotencyKey(batchId: string, itemId: string, step: number, attempt = 0): string {
  const item = createHash('sha256').update(itemId).digest('hex').slice(0, 24);
  // A retried item (`resq retry`) is a new attempt: new keys, so the service starts new runs.
  return attempt > 0 ? `resq:${batchId}:${item}:${step}:a${attempt}` : `resq:${batchId}:${item}:${step}`;
}
