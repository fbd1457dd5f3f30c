import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/sim/clock.js';

describe('SimClock', () => {
  it('follows the wall clock plus every advance', () => {
    const clock = new SimClock();
    const before = Date.now();
    clock.advance(31 * 86_400_000);
    expect(clock.now()).toBeGreaterThanOrEqual(before + 31 * 86_400_000);
    expect(Date.parse(clock.iso())).toBe(Math.floor(Date.parse(clock.iso())));
  });

  it('refuses to go backwards', () => {
    expect(() => new SimClock().advance(-1)).toThrow(RangeError);
    expect(() => new SimClock().advance(Number.NaN)).toThrow(RangeError);
  });
});
