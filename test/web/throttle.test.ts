import { describe, expect, it } from 'vitest';
import { FAILURES_PER_MINUTE, Throttle } from '../../src/web/throttle.js';

describe('the guessing throttle (a clock the test moves)', () => {
  it(`lets ${FAILURES_PER_MINUTE} failures a minute through per address, then says how long to wait; other addresses are not held up`, () => {
    let t = 0;
    const lines: string[] = [];
    const th = new Throttle({ now: () => t, report: (l) => lines.push(l) });
    for (let i = 0; i < FAILURES_PER_MINUTE; i++) {
      expect(th.waitS('10.0.0.1')).toBe(0);
      th.fail('10.0.0.1');
      t += 1000;
    }
    expect(th.waitS('10.0.0.1')).toBe(55);
    expect(th.waitS('10.0.0.2')).toBe(0);
    t += 55_000;
    expect(th.waitS('10.0.0.1')).toBe(0);
  });

  it('reports at most one line a minute, counting every try', () => {
    let t = 0;
    const lines: string[] = [];
    const th = new Throttle({ now: () => t, report: (l) => lines.push(l) });
    for (let i = 0; i < 20_000; i++) th.fail('10.0.0.1', i < FAILURES_PER_MINUTE);
    expect(lines).toEqual([`1 wrong token or login code from 10.0.0.1 (after ${FAILURES_PER_MINUTE} a minute an address waits)`]);
    t += 60_000;
    th.fail('10.0.0.3');
    expect(lines[1]).toBe(`20000 wrong tokens or login codes since the last line from 10.0.0.1, 10.0.0.3 (after ${FAILURES_PER_MINUTE} a minute an address waits)`);
  });
});
