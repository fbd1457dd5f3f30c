import { describe, expect, it } from 'vitest';
import { idempotencyKey } from '../../src/store/keys.js';

describe('idempotencyKey', () => {
  it('is stable for the same batch, item and step', () => {
    expect(idempotencyKey('b', 'item', 0)).toBe(idempotencyKey('b', 'item', 0));
  });
  it('differs across batches, items and steps', () => {
    const keys = new Set([idempotencyKey('b', 'i', 0), idempotencyKey('b', 'i', 1), idempotencyKey('b', 'j', 0), idempotencyKey('c', 'i', 0)]);
    expect(keys.size).toBe(4);
  });
  it('fits the service limit of 200 characters whatever the item id', () => {
    expect(idempotencyKey('5f0c7d1e-0000-4000-8000-000000000000', 'x'.repeat(10_000), 99).length).toBeLessThanOrEqual(200);
  });
});
