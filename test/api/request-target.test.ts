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

describe('resolveTarget below the base URL', () => {
  const viaUrl = (path: string, search = ''): string => new URL(`https://svc.example/api/v1${path}${search}`).href;

  it('gives what the URL would for the client\'s own paths: url, origin, path, label', () => {
    for (const [path, query, search] of [
      ['/runs', undefined, ''],
      [`/runs/${segment('r 1/ü?', 'run id')}/events`, { after: -1 }, '?after=-1'],
      ['/runs/r1/events', { after: undefined }, ''],
      ['/model-runs/m.1', { a: 'x y', b: 2 }, '?a=x+y&b=2'],
    ] as const) {
      const t = resolveTarget(base, '/api/v1', path, query);
      expect(t.url.href).toBe(viaUrl(path, search));
      expect(t.origin).toBe('https://svc.example');
      expect(t.path).toBe(`/api/v1${path}${search}`);
      expect(t.label).toBe(path);
      expect(t.sameOrigin).toBe(true);
    }
  });

  it('leaves a path a URL would change (dot segments, spaces, a query of its own) to the URL', () => {
    for (const path of ['/runs/../files/x', '/runs/./r1', '/runs/a b', '/runs?x=1', 'runs/r1']) {
      const t = resolveTarget(base, '/api/v1', path, { after: 3 });
      expect(t.path).toBe(`${t.url.pathname}${t.url.search}`);
      expect(t.origin).toBe(t.url.origin);
    }
    expect(resolveTarget(base, '/api/v1', '/runs/../files/x').url.href).toBe('https://svc.example/api/v1/files/x');
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
