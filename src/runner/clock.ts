/** Time as the scheduler sees it: injected, so tests move it instead of waiting. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or at once when `wake` aborts. */
  sleep(ms: number, wake: AbortSignal): Promise<void>;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, wake) =>
    new Promise((resolve) => {
      if (wake.aborted) return resolve();
      const t = setTimeout(done, Math.max(1, ms));
      wake.addEventListener('abort', done, { once: true });
      function done(): void {
        clearTimeout(t);
        wake.removeEventListener('abort', done);
        resolve();
      }
    }),
};
