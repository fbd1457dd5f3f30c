/**
 * Waits `ms`, resolving early (never rejecting) when `signal` aborts. The timer holds the
 * process open on purpose: under a top-level await, a batch whose every row is waiting
 * must not let Node exit.
 */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
