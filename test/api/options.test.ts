import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/api/options.js';
import { DEFAULT_RETRY_OPTIONS } from '../../src/api/retry-policy.js';
import { ConfigError } from '../../src/errors.js';

const KEY = 'sk-options-SECRET';

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('resolveOptions', () => {
  it('fills in every default', () => {
    const o = resolveOptions({ baseUrl: 'https://svc.example/api/v1/', apiKey: KEY });
    expect(o.baseUrl.href).toBe('https://svc.example/api/v1');
    expect(o.basePath).toBe('/api/v1');
    expect(o.retry).toEqual(DEFAULT_RETRY_OPTIONS);
    expect(o).toMatchObject({
      connectTimeoutMs: 10_000,
      requestTimeoutMs: 60_000,
      streamIdleTimeoutMs: 300_000,
      maxEventChars: 4 * 2 ** 20,
      connections: 128,
      requestConnections: 128,
      pollIntervalMs: 3_000,
      modelPollIntervalMs: 3_000,
    });
  });

  it('takes a bound on server-sent event size and refuses a bad one', () => {
    expect(resolveOptions({ baseUrl: 'http://h/api/v1', apiKey: KEY, maxEventChars: 1024 }).maxEventChars).toBe(1024);
    expect(() => resolveOptions({ baseUrl: 'http://h/api/v1', apiKey: KEY, maxEventChars: 0 })).toThrow(/maxEventChars/);
  });

  it('gives requests other than event streams at most 256 connections unless told', () => {
    const base = { baseUrl: 'http://h/api/v1', apiKey: KEY };
    expect(resolveOptions({ ...base, connections: 20_016 }).requestConnections).toBe(256);
    expect(resolveOptions({ ...base, connections: 20 }).requestConnections).toBe(20);
    expect(resolveOptions({ ...base, connections: 20_016, requestConnections: 1000 }).requestConnections).toBe(1000);
    expect(() => resolveOptions({ ...base, requestConnections: 0 })).toThrow(/requestConnections/);
  });

  it('merges partial retry options, ignoring undefined fields', () => {
    const o = resolveOptions({ baseUrl: 'http://h/api/v1', apiKey: KEY, retry: { maxAttempts: 2, baseDelayMs: undefined } });
    expect(o.retry.maxAttempts).toBe(2);
    expect(o.retry.baseDelayMs).toBe(250);
  });

  it.each([
    ['', /missing/],
    ['not a url', /not a valid URL/],
    ['ftp://h/api/v1', /http or https/],
    ['https://h/api/v2', /must end in \/api\/v1/],
    ['https://h/', /must end in \/api\/v1/],
    ['https://h/api/v1?token=abc', /query string/],
  ])('refuses base URL %j with a clear ConfigError', (baseUrl, pattern) => {
    const err = configError(() => resolveOptions({ baseUrl, apiKey: KEY }));
    expect(err.message).toMatch(pattern);
    expect(err.code).toBe('RESQ_CONFIG');
  });

  it('refuses credentials in the base URL without echoing them', () => {
    const err = configError(() => resolveOptions({ baseUrl: 'https://user:hunter2@h/api/v1', apiKey: KEY }));
    expect(err.message).not.toContain('hunter2');
  });

  it('refuses a missing or malformed key without echoing it', () => {
    expect(configError(() => resolveOptions({ baseUrl: 'http://h/api/v1', apiKey: '' })).message).toMatch(/missing/);
    const err = configError(() => resolveOptions({ baseUrl: 'http://h/api/v1', apiKey: `${KEY}\n` }));
    expect(err.message).not.toContain(KEY);
  });

  it('refuses nonsense numbers', () => {
    expect(() => resolveOptions({ baseUrl: 'http://h/api/v1', apiKey: KEY, retry: { maxAttempts: 0 } })).toThrow(/retry.maxAttempts/);
    expect(() => resolveOptions({ baseUrl: 'http://h/api/v1', apiKey: KEY, connections: Number.NaN })).toThrow(/connections/);
  });

  it('shields requests from a throwing log listener', () => {
    const o = resolveOptions({
      baseUrl: 'http://h/api/v1',
      apiKey: KEY,
      onLog: () => {
        throw new Error('listener bug');
      },
    });
    expect(() => o.onLog({ type: 'stream-fallback', runId: 'r', failures: 3, reason: 'x' })).not.toThrow();
  });
});
