// Time, defined once: the one abortable sleep and the clock every part outside the simulator
// takes as a parameter (tests move a clock of their own instead of waiting).

/** Time as resq's parts see it: injected, so tests move it instead of waiting. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Waits `ms`, resolving early (never rejecting) when `signal` aborts: the caller looks at its
 * signal afterwards. The timer holds the process open on purpose: under a top-level await, a
 * batch whose every item is waiting must not let Node exit.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now(), sleep };

/** The clock's time as an ISO 8601 string, as the store writes timestamps. */
export function isoNow(clock: Clock = systemClock): string {
  const ms = clock.now();
  // A burst stamps many rows and lines within one millisecond: the text is made once for it,
  // not once per row (a Date and its ISO string are among the costs of every run).
  if (ms !== lastIso.ms) {
    lastIso.ms = ms;
    lastIso.text = new Date(ms).toISOString();
  }
  return lastIso.text;
}

/** The last millisecond {@link isoNow} formatted, and its text. */
const lastIso = { ms: NaN, text: '' };
