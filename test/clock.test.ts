import { describe, expect, it } from 'vitest';
import { isoNow, sleep, systemClock, type Clock } from '../src/clock.js';

describe('sleep', () => {
  it('resolves after the delay', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
  });

  it('resolves (never rejects) when the signal aborts, before or during the wait', async () => {
    await expect(sleep(60_000, AbortSignal.abort(new Error('stop')))).resolves.toBeUndefined();
    const c = new AbortController();
    const p = sleep(60_000, c.signal);
    c.abort(new Error('stop'));
    await expect(p).resolves.toBeUndefined();
  });
});

describe('systemClock', () => {
  it('reads the wall clock and sleeps with the one sleep', () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
    expect(systemClock.sleep).toBe(sleep);
  });

  it('writes the time of any clock as ISO 8601', () => {
    const fixed: Clock = { now: () => Date.UTC(2026, 0, 2, 3, 4, 5, 6), sleep: async () => {} };
    expect(isoNow(fixed)).toBe('2026-01-02T03:04:05.006Z');
  });

  it('gives each millisecond its own text, whichever clock asks in turn', () => {
    let t = Date.UTC(2026, 0, 2, 3, 4, 5, 6);
    const moving: Clock = { now: () => t, sleep: async () => {} };
    const other: Clock = { now: () => Date.UTC(2030, 5, 6, 7, 8, 9, 10), sleep: async () => {} };
    expect(isoNow(moving)).toBe('2026-01-02T03:04:05.006Z');
    expect(isoNow(moving)).toBe('2026-01-02T03:04:05.006Z');
    t += 1;
    expect(isoNow(moving)).toBe('2026-01-02T03:04:05.007Z');
    expect(isoNow(other)).toBe('2030-06-06T07:08:09.010Z');
    expect(isoNow(moving)).toBe('2026-01-02T03:04:05.007Z');
    t = 0;
    expect(isoNow(moving)).toBe('1970-01-01T00:00:00.000Z');
  });
});
