import { describe, expect, it } from 'vitest';
import { missOf } from '../../src/forecast/hindsight.js';

describe('how far off a kept forecast was', () => {
  it('holds an estimate against the actual: off, its share, and whether p10–p90 held it', () => {
    expect(missOf({ estimate: 290, low: 225, high: 355 }, 350)).toEqual({ estimate: 290, low: 225, high: 355, actual: 350, off: 60, offShare: 60 / 290, inside: true });
    expect(missOf({ estimate: 290, low: 225, high: 320 }, 350)).toMatchObject({ off: 60, inside: false });
    expect(missOf({ estimate: 10, low: 5, high: 15 }, 5)).toMatchObject({ off: -5, offShare: -0.5, inside: true });
    expect(missOf({ estimate: 0, low: 0, high: 0 }, 2)).toMatchObject({ off: 2, offShare: null, inside: false });
  });
});
