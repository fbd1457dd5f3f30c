import { describe, expect, it, vi } from 'vitest';
import { SimClock } from '../../src/sim/clock.js';

describe('SimClock', () => {
  it('follows the wall clock plus every advance', () => {
    // A pinned wall clock: the machine's own may be stepped while the suite runs.
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    try {
      const clock = new SimClock();
      clock.advance(31 * 86_400_000);
      expect(clock.now()).toBe(1_700_000_000_000 + 31 * 86_400_000);
      vi.advanceTimersByTime(500);
      expect(clock.now()).toBe(1_700_000_000_500 + 31 * 86_400_000);
      expect(clock.iso()).toBe(new Date(1_700_000_000_500 + 31 * 86_400_000).toISOString());
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses to go backwards', () => {
    expect(() => new SimClock().advance(-1)).toThrow(RangeError);
    expect(() => new SimClock().advance(Number.NaN)).toThrow(RangeError);
  });
});
