import { createHash } from 'node:crypto';

/**
 * The idempotency key of an item's request at `step` (0 = create the run, n = the n-th
 * respond). Derived, not random: the same batch, item and step give the same key on
 * every resume, and different batches never share one. The item id is hashed so that
 * any id the user chose fits in the service's 200 characters.
 */
export function idempotencyKey(batchId: string, itemId: string, step: number): string {
  const item = createHash('sha256').update(itemId).digest('hex').slice(0, 24);
  return `resq:${batchId}:${item}:${step}`;
}
