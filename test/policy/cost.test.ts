import { describe, expect, it } from 'vitest';
import { COST_BOUND, costDoubt, costShown, keptTotal, planCost, recordedCost, untrustedCost } from '../../src/policy/cost.js';
import { planCost as fromCheck } from '../../src/policy/check.js';

describe('the cost reader', () => {
  it('trusts a finite number from 0 to 1e12, and nothing else', () => {
    expect(COST_BOUND).toBe(1e12);
    for (const c of [0, 12.5, 1e12]) expect([planCost({ cost: c }), costDoubt({ cost: c }), untrustedCost({ cost: c })]).toEqual([c, null, null]);
    expect(planCost({})).toBeNull();
    expect(costDoubt({ cost: null })).toBeNull();
  });

  it.each([
    [1e308, 'above 1e12', '1e308 (untrusted: above 1e12)'],
    [1e12 + 1, 'above 1e12', '1000000000001 (untrusted: above 1e12)'],
    [Number.POSITIVE_INFINITY, 'above 1e12', 'Infinity (untrusted: above 1e12)'],
    [-140, 'negative', '-140 (untrusted: negative)'],
    [Number.NEGATIVE_INFINITY, 'negative', '-Infinity (untrusted: negative)'],
    [Number.NaN, 'not a number', 'NaN (untrusted: not a number)'],
    ['about 30 credits', 'not a number', '"about 30 credits" (untrusted: not a number)'],
    [[1, 2], 'not a number', '[1,2] (untrusted: not a number)'],
  ])('%s is untrusted (%s), shown as sent and marked', (cost, why, shown) => {
    expect(planCost({ cost })).toBeNull();
    expect(costDoubt({ cost })).toBe(why);
    expect(costShown({ cost })).toBe(shown);
    expect(untrustedCost({ cost })).toBe(shown);
  });

  it('shows a huge text cost cut to one line', () => {
    const shown = costShown({ cost: 'x'.repeat(300_000) })!;
    expect(shown.length).toBeLessThan(140);
    expect(shown).toMatch(/^"x{79}…" \(untrusted: not a number\)$/);
  });

  it('is the planCost check.ts exports (one reader)', () => {
    expect(fromCheck).toBe(planCost);
  });

  it('records only a trusted cost, and keeps a sum read back finite', () => {
    expect([recordedCost(7), recordedCost(1e308), recordedCost(-140), recordedCost(Number.NaN), recordedCost('9')]).toEqual([7, 0, 0, 0, 0]);
    expect([keptTotal(150), keptTotal(null), keptTotal(Number.POSITIVE_INFINITY), keptTotal(Number.NaN), keptTotal(-140)]).toEqual([150, 0, Number.MAX_VALUE, Number.MAX_VALUE, 0]);
  });
});
