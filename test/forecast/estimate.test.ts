import { describe, expect, it } from 'vitest';
import { forecast, normalCdf, quantile, summarize, sumOf, sumSd, Z90 } from '../../src/forecast/estimate.js';

describe('forecast arithmetic', () => {
  it('interpolates quantiles between ranks', () => {
    expect(quantile([], 0.5)).toBeNull();
    expect(quantile([7], 0.9)).toBe(7);
    expect(quantile([0, 2, 4, 6, 8], 0.5)).toBe(4);
    expect(quantile([0, 2, 4, 6, 8], 0.9)).toBeCloseTo(7.2, 10);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
  });

  it('summarises a sample with its sample standard deviation', () => {
    expect(summarize([])).toBeNull();
    const s = summarize([8, 0, 6, 2, 4])!;
    expect(s).toMatchObject({ n: 5, mean: 4, median: 4, min: 0, max: 8 });
    expect(s.sd).toBeCloseTo(Math.sqrt(10), 12);
    expect(s.p10).toBeCloseTo(0.8, 12);
  });

  it('spreads a sum by the normal approximation, the doubt of the mean included, within count × min and count × max', () => {
    const s = summarize([0, 2, 4, 6, 8])!;
    const t = sumOf(s, 5);
    expect(t.estimate).toBe(20);
    // sd √10 × √(5 draws + 5² / 5 for a mean learned from 5) = 10.
    expect(sumSd(s, 5)).toBeCloseTo(10, 12);
    expect(t.low).toBeCloseTo(20 - Z90 * 10, 9);
    expect(t.high).toBeCloseTo(20 + Z90 * 10, 9);
    expect(sumOf(summarize([0, 100])!, 1)).toEqual({ estimate: 50, low: 0, high: 100 });
  });

  it('computes the normal distribution function', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(Z90)).toBeCloseTo(0.9, 6);
    expect(normalCdf(-1.959963985)).toBeCloseTo(0.025, 6);
  });

  it('forecasts cost, budget, holds and wall time, each with its spread', () => {
    const f = forecast({ questions: 5, costs: [2, 4, 6, 8, 0], holds: [0, 0, 0, 0, 1], seconds: [1, 2, 3, 4, 5], cap: 2, budget: 25 });
    expect(f.costPerQuestion).toEqual({ median: 4, p90: expect.closeTo(7.2, 10), mean: 4 });
    expect(f.totalCost!.estimate).toBe(20);
    expect(f.budget!.share).toBe(0.8);
    // P(sum > 25) with sum ~ N(20, 10²): 1 − Φ(5 / 10).
    expect(f.budget!.chanceOver).toBeCloseTo(1 - normalCdf(0.5), 9);
    expect(f.held).toMatchObject({ estimate: 1, low: 0, perQuestion: 0.2 });
    expect(f.held!.high).toBeCloseTo(1 + Z90 * Math.sqrt(0.2) * Math.sqrt(10), 9);
    // ⌈5 / 2⌉ = 3 waves of the median 3 s (p10 1.4 s, p90 4.6 s).
    expect(f.wallSeconds).toMatchObject({ estimate: 9, waves: 3 });
    expect(f.wallSeconds!.low).toBeCloseTo(4.2, 9);
    expect(f.wallSeconds!.high).toBeCloseTo(13.8, 9);
    expect(f.batchCost).toEqual(f.totalCost);
    // What the batch spent counts: 25 spent of 25, any cost to come goes over.
    const spent = forecast({ questions: 2, costs: [5, 5], holds: [0, 0], seconds: [], cap: 1, budget: 25, spent: 25 });
    expect(spent.totalCost!.estimate).toBe(10);
    expect(spent.batchCost).toEqual({ estimate: 35, low: 35, high: 35 });
    expect(spent.budget).toMatchObject({ share: 1.4, chanceOver: 1 });
    const none = forecast({ questions: 3, costs: [], holds: [], seconds: [], cap: 1, budget: null });
    expect(none).toMatchObject({ costPerQuestion: null, totalCost: null, budget: null, held: null, wallSeconds: null });
  });
});
