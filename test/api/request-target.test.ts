import { describe, expect, it } from 'vitest';
import { checkIdempotencyKey, resolveTarget, segment } from '../../src/api/request-target.js';
import { InputError } from '../../src/errors.js';

const base = new URL('https://svc.example/api/v1');

describe('resolveTarget', () => {
  it('joins a path below the base URL and labels it relative to it', () => {
    const t = resolveTarget(base, '/api/v1', '/runs/r1/events', { after: 5, skip: undefined });
    expect(t.url.href).toBe('https://svc.example/api/v1/runs/r1/events?after=5');
    expect(t.sameOrigin).toBe(true);
    expect(t.label).toBe('/runs/r1/events');
  });

  it('takes absolute URLs as they are and labels other origins without the query', () => {
    const t = resolveTarget(base, '/api/v1', 'https://cdn.example/f/1?sig=SECRET');
    expect(t.sameOrigin).toBe(false);
    expect(t.label).toBe('https://cdn.example/f/1');
  });

  it('treats a different port or scheme as another origin', () => {
    expect(resolveTarget(base, '/api/v1', 'http://svc.example/api/v1/files/x').sameOrigin).toBe(false);
    expect(resolveTarget(base, '/api/v1', 'https://svc.example:8443/api/v1/files/x').sameOrigin).toBe(false);
    expect(resolveTarget(base, '/api/v1', 'https://svc.example:443/api/v1/files/x').sameOrigin).toBe(true);
  });

  it('labels a same-origin path outside the base path by its full path', () => {
    expect(resolveTarget(base, '/api/v1', 'https://svc.example/other/x').label).toBe('/other/x');
  });
});

describe('segment', () => {
  it('percent-encodes ids so they stay one segment', () => {
    expect(segment('a/b?c', 'run id')).toBe('a%2Fb%3Fc');
  });
  it('refuses empty, dot and dot-dot ids', () => {
    for (const bad of ['', '.', '..']) expect(() => segment(bad, 'run id')).toThrow(InputError);
  });
});

describe('checkIdempotencyKey', () => {
  it('accepts up to 200 visible characters', () => {
    expect(() => checkIdempotencyKey('k'.repeat(200))).not.toThrow();
  });
  it('refuses longer, empty or unprintable keys', () => {
    expect(() => checkIdempotencyKey('k'.repeat(201))).toThrow(/at most 200/);
    expect(() => checkIdempotencyKey('')).toThrow(InputError);
    expect(() => checkIdempotencyKey('a\r\nb')).toThrow(InputError);
  });
});
