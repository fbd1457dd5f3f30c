import { describe, expect, it } from 'vitest';
import { PollPlan } from '../../src/models/poll-plan.js';

describe('PollPlan', () => {
  it('waits the full interval before the first read while nothing is known', () => {
    const p = new PollPlan({ intervalMs: 3000, stepMs: 500 });
    expect(p.estimateMs).toBeNull();
    expect(p.firstDelay(0)).toBe(3000);
    expect(p.firstDelay(1000)).toBe(2000);
    expect(p.firstDelay(Infinity)).toBe(0);
  });

  it('reads learned jobs just before their expected end', () => {
    const p = new PollPlan({ intervalMs: 3000, stepMs: 500, minFirstMs: 1000 });
    for (const age of [5200, 5100, 5300, 5150, 5250]) p.observe(age);
    expect(p.estimateMs).toBe(5100);
    expect(p.firstDelay(0)).toBe(4600);
    p.observe(-1);
    p.observe(Number.NaN);
    expect(p.estimateMs).toBe(5100);
  });

  it('never reads sooner than minFirstMs, even for instant jobs', () => {
    const p = new PollPlan({ intervalMs: 3000, stepMs: 500, minFirstMs: 1000 });
    p.observe(100);
    expect(p.firstDelay(0)).toBe(1000);
  });

  it('grows the gap from stepMs to intervalMs', () => {
    const p = new PollPlan({ intervalMs: 3000, stepMs: 500 });
    expect([1, 2, 3, 4, 5, 6, 20].map((n) => p.nextDelay(n))).toEqual([500, 750, 1125, 1687.5, 2531.25, 3000, 3000]);
  });

  it('forgets old jobs beyond its window', () => {
    const p = new PollPlan({ window: 2 });
    p.observe(100);
    p.observe(9000);
    p.observe(9000);
    expect(p.estimateMs).toBe(9000);
  });
});
