import type { Clock } from '../../src/clock.js';

/**
 * Virtual time: `now()` moves only when something sleeps (by the time it sleeps) or the test
 * calls `advance`; a sleep resolves on the next turn of the event loop, so real I/O (HTTP to
 * the simulator, SQLite) goes on beside it. An aborted sleep resolves at once, as the
 * project's one sleep does.
 */
export function virtualClock(start = 1_000_000): Clock & { advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => void (t += ms),
    sleep: (ms, signal) =>
      new Promise((resolve) => {
        if (signal?.aborted) return resolve();
        t += ms;
        setImmediate(resolve);
      }),
  };
}
