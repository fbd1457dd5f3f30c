import { describe, expect, it } from 'vitest';
import { interleave } from './sequencer.js';

describe('interleave (the order test files start in)', () => {
  it('keeps the first few, then spreads the heavier third: one of it for every two of the rest, each part in its own order', () => {
    const files = Array.from({ length: 12 }, (_, i) => `f${i}`);
    // Head f0-f2; heavier third of the 9 left: f3-f5; lighter: f6-f11.
    expect(interleave(files, 3)).toEqual(['f0', 'f1', 'f2', 'f3', 'f6', 'f7', 'f4', 'f8', 'f9', 'f5', 'f10', 'f11']);
  });

  it('loses and repeats no file, whatever the count', () => {
    for (let n = 0; n <= 40; n++) {
      const files = Array.from({ length: n }, (_, i) => i);
      const out = interleave(files);
      expect(out).toHaveLength(n);
      expect([...out].sort((a, b) => a - b)).toEqual(files);
    }
  });
});
