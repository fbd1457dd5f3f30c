import { describe, expect, it } from 'vitest';
import { FaultPlan, faultProblems, noFaults } from '../../src/sim/faults.js';

describe('FaultPlan', () => {
  it('starts with no faults and merges partial settings', () => {
    const plan = new FaultPlan(1);
    expect(plan.get()).toEqual(noFaults());
    expect(plan.drawBefore('POST /runs')).toBeNull();
    plan.set({ dropBefore: 1 });
    plan.set({ latencyMs: 5 });
    expect(plan.get()).toMatchObject({ dropBefore: 1, latencyMs: 5 });
    plan.clear();
    expect(plan.get()).toEqual(noFaults());
  });

  it('draws before-faults in the order rate429, error5xxBefore, dropBefore', () => {
    const plan = new FaultPlan(1);
    plan.set({ rate429: 1, error5xxBefore: 1, dropBefore: 1 });
    expect(plan.drawBefore('GET /threads')).toBe('rate429');
    plan.set({ rate429: 0 });
    expect(plan.drawBefore('GET /threads')).toBe('error5xxBefore');
    plan.set({ error5xxBefore: 0 });
    expect(plan.drawBefore('GET /threads')).toBe('dropBefore');
    plan.set({ error5xxAfter: 1, dropAfter: 1 });
    expect(plan.drawAfter('GET /threads')).toBe('error5xxAfter');
  });

  it('limits faults to the listed routes', () => {
    const plan = new FaultPlan(1);
    plan.set({ dropAfter: 1, routes: ['POST /runs'] });
    expect(plan.drawAfter('POST /runs')).toBe('dropAfter');
    expect(plan.drawAfter('GET /runs/:id')).toBeNull();
    plan.set({ routes: null });
    expect(plan.drawAfter('GET /runs/:id')).toBe('dropAfter');
  });

  it('hits a fractional probability about that often, repeatably per seed', () => {
    const run = (seed: number): number => {
      const plan = new FaultPlan(seed);
      plan.set({ error5xxBefore: 0.3 });
      let hits = 0;
      for (let i = 0; i < 2000; i++) if (plan.drawBefore('x')) hits++;
      return hits;
    };
    expect(run(7)).toBe(run(7));
    expect(run(7) / 2000).toBeGreaterThan(0.25);
    expect(run(7) / 2000).toBeLessThan(0.35);
  });

  it('draws only 500, 502 and 503', () => {
    const plan = new FaultPlan(3);
    const seen = new Set(Array.from({ length: 100 }, () => plan.draw5xx()));
    expect([...seen].sort()).toEqual([500, 502, 503]);
  });
});

describe('faultProblems', () => {
  it('names every bad field', () => {
    expect(faultProblems({ rate429: 0.5, sseEndAfterEvents: null, routes: ['POST /runs'] })).toEqual([]);
    expect(faultProblems('x')).toEqual(['faults must be an object']);
    const p = faultProblems({ rate429: 1.5, latencyMs: -1, routes: [1], sseEndAfterEvents: 1.5, bogus: 1 });
    expect(p).toHaveLength(5);
  });
});
