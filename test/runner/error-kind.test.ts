import { describe, expect, it } from 'vitest';
import { ApiError, AuthError, BadRequestError, ConflictError, NetworkError, NotFoundError, RateLimitError, ServerError } from '../../src/api/index.js';
import { InputError } from '../../src/errors.js';
import { errorCodeOf, errorKind } from '../../src/runner/error-kind.js';

const req = { method: 'POST', path: '/runs', attempt: 1, maxAttempts: 6 };
const api = (status: number, apiCode: string | null = null) => ({ ...req, status, apiCode, requestId: null, detail: 'x', retryAfter: null });
const live = new AbortController().signal;

describe('errorKind', () => {
  it('stops the whole batch on a rejected key', () => {
    expect(errorKind(new AuthError(api(401)), live)).toBe('fatal');
  });
  it('ends the item on permanent faults', () => {
    expect(errorKind(new BadRequestError(api(400)), live)).toBe('permanent');
    expect(errorKind(new NotFoundError(api(404)), live)).toBe('permanent');
    expect(errorKind(new ConflictError(api(409, 'run_not_waiting')), live)).toBe('permanent');
    expect(errorKind(new ApiError(api(405)), live)).toBe('permanent');
    expect(errorKind(new InputError('bad key'), live)).toBe('permanent');
  });
  it('tries transient faults again later', () => {
    expect(errorKind(new ConflictError(api(409, 'thread_busy')), live)).toBe('transient');
    expect(errorKind(new ServerError(api(503)), live)).toBe('transient');
    expect(errorKind(new RateLimitError(api(429)), live)).toBe('transient');
    expect(errorKind(new ApiError(api(408)), live)).toBe('transient');
  });
  it('treats anything unknown as a bug, and anything after abort as aborted', () => {
    expect(errorKind(new TypeError('oops'), live)).toBe('bug');
    const c = new AbortController();
    c.abort();
    expect(errorKind(new ServerError(api(503)), c.signal)).toBe('aborted');
  });
  it("errorCodeOf keeps the service's code verbatim, else the HTTP status, resq's code, or internal for a bug", () => {
    expect(errorCodeOf(new BadRequestError(api(400, 'input_too_long')), 'permanent')).toBe('input_too_long');
    expect(errorCodeOf(new NotFoundError(api(404)), 'permanent')).toBe('http_404');
    expect(errorCodeOf(new InputError('bad key'), 'permanent')).toBe('RESQ_INPUT');
    expect(errorCodeOf(new TypeError('x is undefined'), 'bug')).toBe('internal');
  });
});
