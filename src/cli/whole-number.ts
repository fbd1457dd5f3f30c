import { InputError } from '../errors.js';

/**
 * Checks a numeric flag: a whole number from `min` to `max`, else one plain line and exit 2
 * (`--concurrency: must be a whole number from 1 to 10000, got 2.5`). Undefined passes.
 */
export function wholeNumber<T extends number | undefined>(flag: string, value: T, min: number, max: number, hint = ''): T {
  if (value !== undefined && (!Number.isInteger(value) || value < min || value > max))
    throw new InputError(`--${flag}: must be a whole number from ${min} to ${max}${hint}, got ${value}`);
  return value;
}
