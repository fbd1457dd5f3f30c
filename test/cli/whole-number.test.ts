import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { wholeNumber } from '../../src/cli/whole-number.js';

describe('wholeNumber', () => {
  it('passes whole numbers in range and undefined', () => {
    expect(wholeNumber('limit', 3, 1, 10)).toBe(3);
    expect(wholeNumber('limit', undefined, 1, 10)).toBeUndefined();
  });
  it('refuses fractions, out-of-range values and NaN as a user error naming the flag', () => {
    for (const v of [0, 11, 2.5, Number.NaN]) expect(() => wholeNumber('limit', v, 1, 10)).toThrow(InputError);
    expect(() => wholeNumber('port', -1, 0, 65535, ' (0 = any free port)')).toThrow('--port: must be a whole number from 0 to 65535 (0 = any free port), got -1');
  });
});
