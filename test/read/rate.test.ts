import { describe, expect, it } from 'vitest';
import { coveredMs, etaSeconds, ratePerSecond } from '../../src/read/rate.js';
import { virtualClock } from '../support/virtual-clock.js';

/** ISO time `s` seconds after the clock's start. */
function at(clock: { now(): number }, s: number): string {
  return new Date(clock.now() + s * 1000).toISOString();
}

describe('coveredMs', () => {
  it('adds the time any interval covers inside the window, overlaps once', () => {
    expect(coveredMs([{ start: 0, end: 10 }, { start: 5, end: 15 }, { start: 30, end: 40 }], 0, 100)).toBe(25);
    expect(coveredMs([{ start: 0, end: 10 }, { start: 30, end: 40 }], 5, 35)).toBe(10);
    expect(coveredMs([], 0, 10)).toBe(0);
  });
});

describe('ratePerSecond: over the time runs were running', () => {
  const clock = virtualClock(Date.parse('2026-01-01T00:00:00Z'));

  it('null before two items ended', () => {
    expect(ratePerSecond({ finishedAt: [], runs: [] })).toBeNull();
    expect(ratePerSecond({ finishedAt: [at(clock, 5)], runs: [{ createdAt: at(clock, 0), finishedAt: at(clock, 5) }] })).toBeNull();
  });

  it('eight workers each ending an item a second: about 8 items/s, whatever the window\'s size', () => {
    // 8 in flight, each run 1 s, back to back for 10 s: 80 ends.
    const runs = [];
    for (let s = 0; s < 10; s++) for (let w = 0; w < 8; w++) runs.push({ createdAt: at(clock, s + w / 8), finishedAt: at(clock, s + 1 + w / 8) });
    const ends = runs.map((r) => r.finishedAt).sort().reverse();
    expect(ratePerSecond({ finishedAt: ends, runs })).toBeCloseTo(8, 0);
    // The latest 20 alone (the store's window): the same rate, not 20 over a run's length.
    const latest = ends.slice(0, 20);
    expect(ratePerSecond({ finishedAt: latest, runs: runs.filter((r) => latest.includes(r.finishedAt)) })).toBeCloseTo(8, 0);
  });

  it('a batch stopped for a day and resumed: the day when nothing ran is not counted', () => {
    const day = 86_400;
    const runs = [
      { createdAt: at(clock, 0), finishedAt: at(clock, 1) },
      { createdAt: at(clock, 1), finishedAt: at(clock, 2) },
      { createdAt: at(clock, day), finishedAt: at(clock, day + 1) },
      { createdAt: at(clock, day + 1), finishedAt: at(clock, day + 2) },
    ];
    const rate = ratePerSecond({ finishedAt: runs.map((r) => r.finishedAt).reverse(), runs })!;
    // Three ends after the first over the 3 s that runs ran in the window (1–2, day–day+2): 1 item/s, not 0.00003.
    expect(rate).toBeCloseTo(1, 5);
  });
});

describe('ratePerSecond: items that ended together', () => {
  const clock = virtualClock(Date.parse('2026-01-01T00:00:00Z'));
  it('counted over the time their runs ran, not over the milliseconds between their ends', () => {
    const runs = [0, 1, 2].map((ms) => ({ createdAt: at(clock, 0), finishedAt: at(clock, 2 + ms / 1000) }));
    // Three runs of 2 s side by side: 1.5 items/s, not 2 ends in 2 ms (1,000 items/s).
    expect(ratePerSecond({ finishedAt: runs.map((r) => r.finishedAt).reverse(), runs })).toBeCloseTo(1.5, 1);
  });
});

describe('etaSeconds', () => {
  it('the unfinished items at the rate; 0 when none is left; none without a live worker or a rate', () => {
    expect(etaSeconds(7.5, 800, true)).toBe(107);
    expect(etaSeconds(7.5, 0, false)).toBe(0);
    expect(etaSeconds(7.5, 800, false)).toBeNull();
    expect(etaSeconds(null, 800, true)).toBeNull();
  });

  it('leaves out the items waiting for a person; when every item left waits for one, no time (not done)', () => {
    expect(etaSeconds(7.5, 800, true, 50)).toBe(100);
    expect(etaSeconds(7.5, 4, true, 4)).toBeNull();
    expect(etaSeconds(7.5, 4, false, 4)).toBeNull();
  });
});
