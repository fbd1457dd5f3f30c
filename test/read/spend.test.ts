import { describe, expect, it } from 'vitest';
import { budgetOf, HELD_WAIT_BUCKETS, histogramOf } from '../../src/read/spend.js';

describe('spend and waits', () => {
  it('reads the batch budget from a stored policy, or null', () => {
    expect(budgetOf({ confirm_scope: { approve_max_cost: 1, batch_budget: 200 } })).toBe(200);
    expect(budgetOf({ confirm_scope: { approve_max_cost: 1 } })).toBeNull();
    expect(budgetOf(null)).toBeNull();
    expect(budgetOf({ confirm_scope: { batch_budget: '200' } })).toBeNull();
  });

  it('counts values into cumulative buckets, with the count and the sum', () => {
    expect(histogramOf([1, 5, 6, 400], [5, 60, 300])).toEqual({
      buckets: [{ le: 5, count: 2 }, { le: 60, count: 3 }, { le: 300, count: 3 }],
      count: 4,
      sum: 412,
    });
    expect(histogramOf([], HELD_WAIT_BUCKETS).buckets.every((b) => b.count === 0)).toBe(true);
    expect([...HELD_WAIT_BUCKETS]).toEqual([...HELD_WAIT_BUCKETS].sort((a, b) => a - b));
  });
});
