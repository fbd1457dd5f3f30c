import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthError,
  BadRequestError,
  ConflictError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  type NetworkPhase,
} from '../../src/api/errors.js';
import {
  backoffDelay,
  decideRetry,
  DEFAULT_RETRY_OPTIONS,
  isRetryableStatus,
  retryAfterMs,
  type RetryContext,
} from '../../src/api/retry-policy.js';

const req = { method: 'POST', path: '/runs', attempt: 1, maxAttempts: 6 };

function apiError(Cls: typeof ApiError, status: number, extra: { apiCode?: string; retryAfter?: string } = {}): ApiError {
  return new Cls({
    ...req,
    status,
    apiCode: extra.apiCode ?? null,
    detail: 'x',
    requestId: null,
    retryAfter: extra.retryAfter ?? null,
  });
}

function netError(phase: NetworkPhase, retryable = true, Cls: typeof NetworkError = NetworkError): NetworkError {
  return new Cls({ ...req, phase, detail: 'boom', causeCode: 'ECONNRESET', retryable });
}

function ctx(error: unknown, over: Partial<RetryContext> = {}): RetryContext {
  return {
    error,
    attempt: 1,
    busyAttempts: 0,
    retryClass: 'idempotent',
    waitOnThreadBusy: true,
    aborted: false,
    options: { ...DEFAULT_RETRY_OPTIONS },
    random: () => 0.5,
    now: Date.parse('2026-01-01T00:00:00Z'),
    ...over,
  };
}

describe('backoffDelay', () => {
  it('grows exponentially under full jitter and stays under the cap', () => {
    const opts = { baseDelayMs: 100, maxDelayMs: 1000 };
    const almostOne = () => 0.999999;
    expect(backoffDelay(1, opts, almostOne)).toBe(99);
    expect(backoffDelay(2, opts, almostOne)).toBe(199);
    expect(backoffDelay(3, opts, almostOne)).toBe(399);
    expect(backoffDelay(10, opts, almostOne)).toBe(999);
    expect(backoffDelay(500, opts, almostOne)).toBe(999);
    expect(backoffDelay(3, opts, () => 0)).toBe(0);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delta-seconds', () => {
    expect(retryAfterMs('2', now, 60_000)).toBe(2000);
    expect(retryAfterMs('0', now, 60_000)).toBe(0);
    expect(retryAfterMs('1.5', now, 60_000)).toBe(1500);
  });
  it('reads an HTTP date relative to now; a past date is 0', () => {
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now, 60_000)).toBe(5000);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now, 60_000)).toBe(0);
  });
  it('caps a long wait', () => {
    expect(retryAfterMs('3600', now, 60_000)).toBe(60_000);
  });
  it('returns null for absent or malformed values', () => {
    expect(retryAfterMs(null, now, 60_000)).toBeNull();
    expect(retryAfterMs('', now, 60_000)).toBeNull();
    expect(retryAfterMs('soon', now, 60_000)).toBeNull();
    expect(retryAfterMs('-3', now, 60_000)).toBeNull();
  });
});

describe('isRetryableStatus', () => {
  it('retries 408, 429 and 5xx for idempotent requests only', () => {
    for (const s of [408, 429, 500, 502, 503, 504]) expect(isRetryableStatus(s, 'idempotent')).toBe(true);
    for (const s of [400, 401, 403, 404, 409, 422]) expect(isRetryableStatus(s, 'idempotent')).toBe(false);
  });
  it('retries only 429 for unsafe requests', () => {
    expect(isRetryableStatus(429, 'unsafe')).toBe(true);
    for (const s of [408, 500, 503]) expect(isRetryableStatus(s, 'unsafe')).toBe(false);
  });
});

describe('decideRetry', () => {
  it('never retries an aborted request, even a retryable failure', () => {
    expect(decideRetry(ctx(apiError(ServerError, 503), { aborted: true }))).toEqual({ retry: false });
  });

  it('stops at the attempt limit', () => {
    expect(decideRetry(ctx(apiError(ServerError, 503), { attempt: 5 })).retry).toBe(true);
    expect(decideRetry(ctx(apiError(ServerError, 503), { attempt: 6 })).retry).toBe(false);
  });

  it('never retries 400, 401, 403, 404, 422 or a plain 409', () => {
    const cases: [typeof ApiError, number][] = [
      [BadRequestError, 400],
      [AuthError, 401],
      [AuthError, 403],
      [NotFoundError, 404],
      [BadRequestError, 422],
      [ConflictError, 409],
    ];
    for (const [Cls, status] of cases) expect(decideRetry(ctx(apiError(Cls, status))).retry).toBe(false);
  });

  it('backs off on 5xx with the jittered delay', () => {
    const d = decideRetry(ctx(apiError(ServerError, 500), { attempt: 3, random: () => 0.5 }));
    expect(d).toEqual({ retry: true, delayMs: 500, budget: 'attempts', reason: 'HTTP 500' });
  });

  it('honours Retry-After over backoff, capped', () => {
    const d = decideRetry(ctx(apiError(RateLimitError, 429, { retryAfter: '7' })));
    expect(d).toMatchObject({ retry: true, delayMs: 7000 });
    const capped = decideRetry(ctx(apiError(RateLimitError, 429, { retryAfter: '999' })));
    expect(capped).toMatchObject({ retry: true, delayMs: 60_000 });
  });

  it('falls back to backoff when Retry-After is malformed', () => {
    const d = decideRetry(ctx(apiError(ServerError, 503, { retryAfter: 'later' }), { random: () => 0 }));
    expect(d).toMatchObject({ retry: true, delayMs: 0 });
  });

  it('waits out thread_busy on its own budget, not the attempt budget', () => {
    const busy = apiError(ConflictError, 409, { apiCode: 'thread_busy' });
    const d = decideRetry(ctx(busy, { attempt: 6, busyAttempts: 1 }));
    expect(d).toEqual({ retry: true, delayMs: 2000, budget: 'thread-busy', reason: 'thread_busy' });
    expect(decideRetry(ctx(busy, { busyAttempts: 30 })).retry).toBe(false);
    expect(decideRetry(ctx(busy, { waitOnThreadBusy: false })).retry).toBe(false);
  });

  it('retries network errors and timeouts of idempotent requests', () => {
    expect(decideRetry(ctx(netError('request'))).retry).toBe(true);
    expect(decideRetry(ctx(netError('connect', true, TimeoutError))).retry).toBe(true);
    expect(decideRetry(ctx(netError('request', true, TimeoutError))).retry).toBe(true);
  });

  it('retries an unsafe request only when it provably never reached the service', () => {
    const unsafe = { retryClass: 'unsafe' as const };
    expect(decideRetry(ctx(netError('connect'), unsafe)).retry).toBe(true);
    expect(decideRetry(ctx(netError('request'), unsafe)).retry).toBe(false);
    expect(decideRetry(ctx(netError('request', true, TimeoutError), unsafe)).retry).toBe(false);
    expect(decideRetry(ctx(apiError(ServerError, 500), unsafe)).retry).toBe(false);
    expect(decideRetry(ctx(apiError(ServerError, 503, { retryAfter: '1' }), unsafe)).retry).toBe(false);
    expect(decideRetry(ctx(apiError(RateLimitError, 429), unsafe)).retry).toBe(true);
  });

  it('does not retry network errors marked permanent or a closed client', () => {
    expect(decideRetry(ctx(netError('connect', false))).retry).toBe(false);
    expect(decideRetry(ctx(netError('closed', false))).retry).toBe(false);
  });

  it('never retries unknown errors or shape errors', () => {
    expect(decideRetry(ctx(new TypeError('bug'))).retry).toBe(false);
    expect(decideRetry(ctx(new ResponseShapeError({ method: 'GET', path: '/x', issues: ['a'] }))).retry).toBe(false);
    expect(decideRetry(ctx('a string')).retry).toBe(false);
  });
});
