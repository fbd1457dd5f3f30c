import { describe, expect, it } from 'vitest';
import { BatchCap } from '../../src/runner/batch-cap.js';
import type { Store } from '../../src/store/index.js';

/** Only what BatchCap uses of the store: the batch's cap limit. */
function limitStore(): { store: Store; limit: () => number | null | undefined } {
  let limit: number | null | undefined;
  const store = { setCapLimit: async (_: string, v: number | null) => void (limit = v) } as unknown as Store;
  return { store, limit: () => limit };
}

describe('BatchCap', () => {
  it("takes the lower of the batch's share and what this machine fits; a local fault halves only this worker's, nothing stored", async () => {
    const { store, limit } = limitStore();
    const cap = new BatchCap({ cap: 400, local: 49, store, batchId: 'b', onChange: () => {} });
    expect(cap.share).toBe(49);
    cap.workers = 10;
    expect(cap.share).toBe(40);
    cap.workers = 1;
    cap.localFault(1000);
    await Promise.resolve();
    expect(cap.share).toBe(24);
    expect(cap.current).toBe(400);
    expect(limit()).toBeUndefined();
  });

  it('splits the cap over the live workers, and gathers claims only for large shares', () => {
    const { store } = limitStore();
    const cap = new BatchCap({ cap: 60, store, batchId: 'b', onChange: () => {} });
    expect(cap.share).toBe(60);
    cap.workers = 3;
    expect(cap.share).toBe(20);
    expect(cap.gather).toBe(1);
    const big = new BatchCap({ cap: 10_000, store, batchId: 'b', onChange: () => {} });
    expect(big.gather).toBe(156);
    expect(big.gatherMs).toBe(100);
  });

  it('a 429 halves the cap and stores it for the batch; a lower stored cap is taken; recovery lifts it', async () => {
    const { store, limit } = limitStore();
    const changes: string[] = [];
    const cap = new BatchCap({ cap: 8, store, batchId: 'b', onChange: (c, why) => changes.push(`${c} ${why}`) });
    cap.throttled(1000);
    await Promise.resolve();
    expect(cap.current).toBe(4);
    expect(limit()).toBe(4);
    await cap.sync(2);
    expect(cap.current).toBe(2);
    expect(changes).toEqual(['4 HTTP 429 from the service', '2 lowered by another worker of the batch (HTTP 429)']);
    // Admissions raise it one slot per cap's worth; the batch's limit follows, lifted at the full cap.
    for (let i = 0; i < 2 + 3 + 4 + 5 + 6 + 7; i++) cap.admitted();
    expect(cap.current).toBe(8);
    await cap.sync(2);
    expect(limit()).toBeNull();
  });
});
