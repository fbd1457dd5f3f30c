import { describe, expect, it } from 'vitest';
import { NetworkError, TimeoutError } from '../../src/api/errors.js';
import { isLocalFault, toNetworkError } from '../../src/api/network-errors.js';

const req = { method: 'GET', path: '/runs/r1', attempt: 2, maxAttempts: 6 };

function coded(code: string, message = 'failed'): Error {
  return Object.assign(new Error(message), { code });
}

describe('toNetworkError', () => {
  it("names this machine's shortage (EMFILE, ENFILE, ENOMEM, ENOBUFS, ENOSPC) as local: retryable, nothing sent", () => {
    for (const code of ['EMFILE', 'ENFILE', 'ENOMEM', 'ENOBUFS', 'ENOSPC']) {
      const err = toNetworkError(coded(code, `connect ${code} 127.0.0.1:4000`), req);
      expect(err).toMatchObject({ phase: 'local', retryable: true, causeCode: code });
      expect(err!.message).toContain('nothing was sent');
      expect(err!.message).not.toContain('127.0.0.1');
      expect(isLocalFault(err)).toBe(true);
      expect(isLocalFault(coded(code))).toBe(true);
    }
    expect(isLocalFault(toNetworkError(coded('ECONNREFUSED'), req))).toBe(false);
  });

  it('marks refused connections and DNS failures as connect phase', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']) {
      const err = toNetworkError(coded(code), req);
      expect(err).toBeInstanceOf(NetworkError);
      expect(err).toMatchObject({ phase: 'connect', retryable: true, causeCode: code, code: 'RESQ_NETWORK' });
    }
  });

  it('marks resets and closed sockets as request phase', () => {
    const err = toNetworkError(coded('UND_ERR_SOCKET', 'other side closed'), req);
    expect(err).toMatchObject({ phase: 'request', retryable: true });
    expect(err?.message).toBe('network error GET /runs/r1 (attempt 2/6): UND_ERR_SOCKET other side closed');
  });

  it('maps undici timeouts to TimeoutError with the right phase', () => {
    const connect = toNetworkError(coded('UND_ERR_CONNECT_TIMEOUT'), req);
    expect(connect).toBeInstanceOf(TimeoutError);
    expect(connect).toMatchObject({ phase: 'connect', code: 'RESQ_TIMEOUT' });
    const headers = toNetworkError(coded('UND_ERR_HEADERS_TIMEOUT'), req);
    expect(headers).toMatchObject({ phase: 'request' });
    expect(headers?.message).toBe('timeout GET /runs/r1 (attempt 2/6): no response headers in time');
    expect(toNetworkError(coded('UND_ERR_BODY_TIMEOUT'), req)).toBeInstanceOf(TimeoutError);
  });

  it('finds the code inside an AggregateError from a multi-address connect', () => {
    const agg = new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], 'all failed');
    expect(toNetworkError(agg, req)).toMatchObject({ phase: 'connect', causeCode: 'ECONNREFUSED' });
  });

  it('makes certificate errors permanent', () => {
    expect(toNetworkError(coded('CERT_HAS_EXPIRED'), req)).toMatchObject({ retryable: false });
    expect(toNetworkError(coded('ERR_TLS_CERT_ALTNAME_INVALID'), req)).toMatchObject({ retryable: false });
  });

  it('leaves unknown errors alone (they are bugs)', () => {
    expect(toNetworkError(new TypeError('x is undefined'), req)).toBeNull();
    expect(toNetworkError(coded('SOMETHING_ELSE'), req)).toBeNull();
    expect(toNetworkError('string', req)).toBeNull();
  });
});
