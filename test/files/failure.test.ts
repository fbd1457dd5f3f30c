import { describe, expect, it } from 'vitest';
import { ApiError, AuthError, NetworkError, NotFoundError, RateLimitError, ServerError, TimeoutError } from '../../src/api/index.js';
import { classifyFailure, expiryOf, goneStatus } from '../../src/files/failure.js';
import { UnsafePathError } from '../../src/files/safe-name.js';
import { IncompleteBodyError } from '../../src/files/write-file.js';

const req = { method: 'GET', path: '/files/f1', attempt: 6, maxAttempts: 6 };
const api = (status: number) => ({ ...req, status, apiCode: null, detail: 'x', requestId: null, retryAfter: null });
const net = (retryable: boolean) => ({ ...req, phase: 'request' as const, detail: 'ECONNRESET', causeCode: 'ECONNRESET', retryable });

describe('classifyFailure', () => {
  it.each([
    ['an abort, whatever the error', new ServerError(api(503)), true, 'abort'],
    ['404', new NotFoundError(api(404)), false, 'gone'],
    ['a dropped connection', new NetworkError(net(true)), false, 'retry'],
    ['a TLS failure', new NetworkError(net(false)), false, 'fail'],
    ['a timeout', new TimeoutError(net(true)), false, 'retry'],
    ['5xx', new ServerError(api(502)), false, 'retry'],
    ['429', new RateLimitError(api(429)), false, 'retry'],
    ['408', new ApiError(api(408)), false, 'retry'],
    ['a short body', new IncompleteBodyError('short'), false, 'retry'],
    ['401', new AuthError(api(401)), false, 'fail'],
    ['400-ish', new ApiError(api(413)), false, 'fail'],
    ['an unsafe path', new UnsafePathError('no'), false, 'fail'],
    // This machine short of disk or files: waited on and tried again (issue 37), like a throttled service.
    ['a full disk', Object.assign(new Error('ENOSPC: no space left'), { code: 'ENOSPC' }), false, 'retry'],
    ['too many open files', Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' }), false, 'retry'],
    ['a bug', new TypeError('x is undefined'), false, 'fail'],
  ])('%s → %s', (_what, err, aborted, kind) => {
    expect(classifyFailure(err, aborted as boolean).kind).toBe(kind);
  });

  it('says the key was refused on 401 and names disk errors', () => {
    expect(classifyFailure(new AuthError(api(401)), false)).toMatchObject({ reason: expect.stringMatching(/key was refused/) });
    expect(classifyFailure(Object.assign(new Error('EACCES'), { code: 'EACCES' }), false)).toMatchObject({ reason: 'disk: EACCES' });
  });
});

describe('goneStatus', () => {
  const file = { expiresAt: '2026-02-01T00:00:00.000Z', firstSeenAt: '2026-01-02T00:00:00.000Z' };
  it('is expired after the expiry and missing before it', () => {
    expect(goneStatus(file, new Date('2026-02-01T00:00:01Z'))).toMatchObject({ status: 'expired', reason: expect.stringMatching(/expired at 2026-02-01/) });
    expect(goneStatus(file, new Date('2026-01-20T00:00:00Z'))).toMatchObject({ status: 'missing', reason: expect.stringMatching(/kept until 2026-02-01.*another account/) });
  });

  it('falls back to first seen + 30 days when the expiry is unreadable', () => {
    expect(expiryOf({ expiresAt: 'garbage', firstSeenAt: '2026-01-02T00:00:00.000Z' })).toBe(Date.parse('2026-02-01T00:00:00.000Z'));
    expect(goneStatus({ expiresAt: '', firstSeenAt: '2026-01-02T00:00:00.000Z' }, new Date('2026-02-02T00:00:00Z')).status).toBe('expired');
  });
});
