import { describe, expect, it } from 'vitest';
import { AdaptiveCap } from '../../src/runner/adaptive-cap.js';

describe('AdaptiveCap', () => {
  it('halves on a 429 at most once per cool-down and never drops below 1', () => {
    const cap = new AdaptiveCap(40, 1000);
    expect(cap.throttled(0)).toBe(true);
    expect(cap.current).toBe(20);
    expect(cap.throttled(500)).toBe(false);
    expect(cap.current).toBe(20);
    for (let t = 1000; t < 20000; t += 1000) cap.throttled(t);
    expect(cap.current).toBe(1);
    expect(cap.throttled(30000)).toBe(false);
  });

  it('grows back by one per `current` admissions, up to the maximum', () => {
    const cap = new AdaptiveCap(8, 0);
    cap.throttled(0);
    expect(cap.current).toBe(4);
    for (let i = 0; i < 3; i++) cap.admitted();
    expect(cap.current).toBe(4);
    cap.admitted();
    expect(cap.current).toBe(5);
    for (let i = 0; i < 100; i++) cap.admitted();
    expect(cap.current).toBe(8);
  });
});
