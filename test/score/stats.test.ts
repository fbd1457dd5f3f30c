import { describe, expect, it } from 'vitest';
import { mcnemarExact, wilson } from '../../src/score/stats.js';

describe('wilson', () => {
  it('matches the Wilson score interval at known values (95%)', () => {
    const half = wilson(5, 10)!;
    expect(half.low).toBeCloseTo(0.236590, 5);
    expect(half.high).toBeCloseTo(0.763410, 5);
    const some = wilson(81, 263)!;
    expect(some.low).toBeCloseTo(0.255288, 5);
    expect(some.high).toBeCloseTo(0.366211, 5);
  });

  it('stays inside [0, 1] and is not empty at no passes or all passes', () => {
    expect(wilson(0, 10)).toEqual({ low: 0, high: expect.closeTo(0.277540, 5) });
    expect(wilson(10, 10)).toEqual({ low: expect.closeTo(0.722460, 5), high: 1 });
    expect(wilson(1, 1)!.low).toBeCloseTo(0.206543, 5);
  });

  it('null when there is nothing to estimate', () => {
    expect(wilson(0, 0)).toBeNull();
  });

  it('narrows with a smaller z', () => {
    const wide = wilson(50, 100)!;
    const narrow = wilson(50, 100, 1)!;
    expect(narrow.high - narrow.low).toBeLessThan(wide.high - wide.low);
  });
});

describe('mcnemarExact', () => {
  it('matches the exact binomial p at known small values', () => {
    expect(mcnemarExact(1, 5)).toBeCloseTo(0.21875, 10);
    expect(mcnemarExact(5, 1)).toBeCloseTo(0.21875, 10);
    expect(mcnemarExact(0, 5)).toBeCloseTo(0.0625, 10);
    expect(mcnemarExact(2, 8)).toBeCloseTo(0.109375, 10);
    expect(mcnemarExact(10, 30)).toBeCloseTo(0.0022214337732, 10);
  });

  it('is 1 with no discordant pair and capped at 1 when they balance', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(3, 3)).toBe(1);
  });

  it('holds for large counts without overflow', () => {
    expect(mcnemarExact(100, 150)).toBeCloseTo(0.0018833009, 8);
    expect(mcnemarExact(4000, 4200)).toBeCloseTo(0.0279724236, 7);
    // scipy.stats.binomtest(100000, 201000, 0.5).pvalue
    expect(mcnemarExact(100_000, 101_000)).toBeCloseTo(0.0258623924, 7);
  });
});
