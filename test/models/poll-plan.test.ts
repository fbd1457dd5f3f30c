import { describe, expect, it } from 'vitest';
import { PollPlan } from '../../src/models/poll-plan.js';

describe('PollPlan', () => {
  it('reads early and backs off to the interval while nothing is known', () => {
    const p = new PollPlan({ intervalMs: 3000, stepMs: 500, minFirstMs: 1000 });
    expect(p.estimateMs).toBeNull();
    expect(p.firstDelay(0)).toBe(1000);
    expect(p.firstDelay(400)).toBe(600);
    expect(p.firstDelay(Infinity)).toBe(0);
    expect([1, 2, 3, 4, 5, 6, 20].map((n) => p.nextDelay(n))).toEqual([500, 750, 1125, 1687.5, 2531.25, 3000, 3000]);
  });

  it('reads learned jobs just before their expected end, with a step of 5 % of it', () => {
    const p = new PollPlan({ intervalMs: 3000, stepMs: 500, minFirstMs: 1000 });
    for (const age of [5200, 5100, 5300, 5150, 5250]) p.observe(age);
    expect(p.estimateMs).toBe(5100);
    expect(p.firstDelay(0)).toBe(5100 - 255);
    expect(p.nextDelay(1)).toBe(255);
    p.observe(-1);
    p.observe(Number.NaN);
    expect(p.estimateMs).toBe(5100);
  });

  it('caps the step for long jobs and floors it for short ones', () => {
    const long = new PollPlan({ intervalMs: 3000, stepMs: 500 });
    long.observe(3_600_000);
    expect(long.firstDelay(0)).toBe(3_600_000 - 500);
    expect(long.nextDelay(10)).toBe(3000);
    const short = new PollPlan({ minFirstMs: 10 });
    short.observe(200);
    expect(short.firstDelay(0)).toBe(150);
  });

  it('never reads sooner than minFirstMs, even for instant jobs', () => {
    const p = new PollPlan({ intervalMs: 3000, stepMs: 500, minFirstMs: 1000 });
    p.observe(100);
    expect(p.firstDelay(0)).toBe(1000);
  });

  it('forgets old jobs beyond its window', () => {
    const p = new PollPlan({ window: 2 });
    p.observe(100);
    p.observe(9000);
    p.observe(9000);
    expect(p.estimateMs).toBe(9000);
  });
});
