import { ApiError, ConflictError, NetworkError } from './errors.js';

/** How the client retries. */
export interface RetryOptions {
  /** Attempts per request, the first included (thread-busy waits have their own budget). @default 6 */
  maxAttempts: number;
  /** Backoff base: attempt n waits a random time in [0, min(maxDelayMs, baseDelayMs·2^(n-1))). @default 250 */
  baseDelayMs: number;
  /** Upper bound of one backoff delay. @default 20_000 */
  maxDelayMs: number;
  /** Upper bound applied to a server's `Retry-After`. @default 60_000 */
  maxRetryAfterMs: number;
  /** Wait after a 409 `thread_busy` before trying again. @default 2_000 */
  threadBusyDelayMs: number;
  /** Attempts spent on 409 `thread_busy` before giving up with a `ConflictError`. @default 30 */
  threadBusyMaxAttempts: number;
}

/** The defaults of {@link RetryOptions}. */
export const DEFAULT_RETRY_OPTIONS: Readonly<RetryOptions> = Object.freeze({
  maxAttempts: 6,
  baseDelayMs: 250,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
  threadBusyDelayMs: 2_000,
  threadBusyMaxAttempts: 30,
});

/**
 * How safe a request is to repeat.
 * - `idempotent`: GET, DELETE, and POSTs carrying an Idempotency-Key the service honours
 *   (POST /runs, POST /runs/{id}/respond): retried on network errors, timeouts, 408, 429, 5xx.
 * - `unsafe`: a POST the service does not deduplicate (POST /models/{id}/runs): retried only
 *   when the service provably did not act on it: 429, or a failure before connecting.
 */
export type RetryClass = 'idempotent' | 'unsafe';

/** Everything {@link decideRetry} looks at; nothing else. */
export interface RetryContext {
  /** What the attempt threw (an `ApiError`, `NetworkError`, or anything else). */
  error: unknown;
  /** Ordinary attempts made so far, this one included (1-based). */
  attempt: number;
  /** Attempts answered 409 `thread_busy` so far, this one included. */
  busyAttempts: number;
  /** How safe the request is to repeat. */
  retryClass: RetryClass;
  /** Whether 409 `thread_busy` is worth waiting out (only for requests that start a run). */
  waitOnThreadBusy: boolean;
  /** True when the caller aborted: never retried. */
  aborted: boolean;
  /** Limits and delays. */
  options: RetryOptions;
  /** Uniform [0, 1) source for full jitter. */
  random: () => number;
  /** Current time in ms since the epoch, for `Retry-After` dates. */
  now: number;
}

/** The verdict: give up (rethrow), or wait `delayMs` and try again. */
export type RetryDecision =
  | { retry: false }
  | {
      retry: true;
      delayMs: number;
      /** `thread-busy` attempts count against `threadBusyMaxAttempts`, others `maxAttempts`. */
      budget: 'attempts' | 'thread-busy';
      /** Why, for log events: `HTTP 503`, `ECONNRESET`, `thread_busy`. */
      reason: string;
    };

const NO: RetryDecision = { retry: false };

/**
 * Decides, in one ordered pass, whether a failed attempt is retried and after how long:
 * abort → limit → method/idempotency → status → Retry-After → network error → otherwise
 * rethrow. Unknown errors (bugs, shape errors) are never retried.
 */
export function decideRetry(ctx: RetryContext): RetryDecision {
  const { error, options } = ctx;
  if (ctx.aborted) return NO;

  // 409 thread_busy has its own budget: a busy thread is normal, not a failure.
  if (error instanceof ConflictError && error.threadBusy) {
    if (!ctx.waitOnThreadBusy || ctx.busyAttempts >= options.threadBusyMaxAttempts) return NO;
    const hinted = retryAfterMs(error.retryAfter, ctx.now, options.maxRetryAfterMs);
    return { retry: true, delayMs: hinted ?? options.threadBusyDelayMs, budget: 'thread-busy', reason: 'thread_busy' };
  }

  if (ctx.attempt >= options.maxAttempts) return NO;

  if (error instanceof ApiError) {
    if (!isRetryableStatus(error.status, ctx.retryClass)) return NO;
    const hinted = retryAfterMs(error.retryAfter, ctx.now, options.maxRetryAfterMs);
    const delayMs = hinted ?? backoffDelay(ctx.attempt, options, ctx.random);
    return { retry: true, delayMs, budget: 'attempts', reason: `HTTP ${error.status}` };
  }

  if (error instanceof NetworkError) {
    if (!error.retryable) return NO;
    // An unsafe request may have been acted on unless it never left the machine.
    if (ctx.retryClass === 'unsafe' && error.phase !== 'connect' && error.phase !== 'local') return NO;
    const delayMs = backoffDelay(ctx.attempt, options, ctx.random);
    return { retry: true, delayMs, budget: 'attempts', reason: error.causeCode ?? 'network error' };
  }

  return NO;
}

/** Whether an HTTP status is worth another attempt for a request of this class. */
export function isRetryableStatus(status: number, retryClass: RetryClass): boolean {
  // 429 means the service refused the request without acting on it, so even unsafe ones retry.
  if (status === 429) return true;
  if (retryClass === 'unsafe') return false;
  return status === 408 || (status >= 500 && status <= 599);
}

/**
 * Exponential backoff with full jitter: a uniform delay in
 * [0, min(maxDelayMs, baseDelayMs · 2^(attempt-1))).
 */
export function backoffDelay(
  attempt: number,
  options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number,
): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}

/**
 * Parses `Retry-After` (delta-seconds or an HTTP date) into milliseconds from `now`,
 * capped at `capMs`. Null when absent or malformed; a date in the past gives 0.
 */
export function retryAfterMs(header: string | null | undefined, now: number, capMs: number): number | null {
  if (header === null || header === undefined) return null;
  const value = header.trim();
  if (value === '') return null;
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(value)) {
    ms = Math.round(Number(value) * 1000);
  } else {
    // An HTTP date always has a month name; Date.parse would read `-3` as a year.
    const at = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
    // Malformed retry timing headers should not disable retries: fall back to backoff.
    if (Number.isNaN(at)) return null;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, capMs);
}
