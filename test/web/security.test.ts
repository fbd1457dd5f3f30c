import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import { FAILURES_PER_MINUTE } from '../../src/web/throttle.js';
import { SESSION_IDLE_MS } from '../../src/web/sessions.js';
import { serveChild } from './support/serve-child.js';
import { cookiePair, login, testClock } from './support/session.js';
import { bearer, rawRequest, webFixture, type WebFixture } from './support/web-fixture.js';

describe('the web view guard (real server on loopback)', () => {
  let f: WebFixture;
  let cookie: string;
  beforeAll(async () => {
    f = await webFixture();
    cookie = await login(f.server);
  }, 60_000);
  afterAll(async () => f?.close());

  const url = (p: string) => `${f.server.origin}${p}`;
  const withCookie = (c = cookie) => ({ Cookie: c });

  it('refuses every route without the token (401), the page, the API and /metrics alike', async () => {
    for (const p of ['/', '/b/web', '/api/batches', '/api/batches/web/items', '/metrics', '/static/app.js']) {
      const r = await fetch(url(p));
      expect(r.status, p).toBe(401);
      expect(await r.text()).toContain('token required');
    }
    expect((await fetch(url('/api/batches'), { headers: { Authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await fetch(url('/api/batches'), { headers: { Cookie: 'resq_token=nope' } })).status).toBe(401);
    expect((await fetch(url('/?token=nope'), { redirect: 'manual' })).status).toBe(401);
  });

  it('the one-time link opens a session: the cookie (named for the port, HttpOnly, SameSite=Strict) holds a random id, never the token', async () => {
    const link = new URL(f.server.loginUrl());
    expect([...link.searchParams.keys()]).toEqual(['code']);
    expect(link.href).not.toContain(f.server.token);
    const r = await fetch(`${f.server.origin}/b/web?state=held&code=${link.searchParams.get('code')}`, { redirect: 'manual' });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/b/web?state=held');
    const set = r.headers.get('set-cookie')!;
    expect(set).toMatch(new RegExp(`^resq-session-${f.server.port}=[^;]+; Path=/; HttpOnly; SameSite=Strict$`));
    expect(set).not.toContain(f.server.token);
    expect(decodeURIComponent(set)).not.toContain(f.server.token);
    expect((await fetch(url('/b/web'), { headers: withCookie(cookiePair(set)) })).status).toBe(200);
    expect((await fetch(url('/api/batches'), { headers: bearer(f.server) })).status).toBe(200);
  });

  it('a code is spent by its first visit: again without a session it is 401, with a live session it goes to the page', async () => {
    const link = f.server.loginUrl();
    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(401);
    expect(await again.text()).toMatch(/used already or has expired/);
    const signedIn = await fetch(link, { redirect: 'manual', headers: withCookie(cookiePair(first.headers.get('set-cookie'))) });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/');
    expect(signedIn.headers.get('set-cookie')).toBeNull();
  });

  it('?token= still opens a session (a proxy that keeps one address), and its cookie is not the token either', async () => {
    const r = await fetch(url(`/compare?a=web&token=${f.server.token}`), { redirect: 'manual' });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/compare?a=web');
    expect(r.headers.get('set-cookie')).not.toContain(f.server.token);
    expect((await fetch(url('/api/batches'), { headers: withCookie(cookiePair(r.headers.get('set-cookie'))) })).status).toBe(200);
  });

  it('a login visit is sent on only to a path of this server: //host and /\\host stay here', async () => {
    for (const [path, where] of [
      ['//evil.example/path', '/evil.example/path'],
      ['/\\evil.example/path', '/evil.example/path'],
      ['///evil.example', '/evil.example'],
    ] as const) {
      const r = await rawRequest(url(`${path}?code=${new URL(f.server.loginUrl()).searchParams.get('code')}`), {});
      expect(r.status, path).toBe(303);
      const location = String(r.headers.location);
      expect(location, path).toBe(where);
      expect(new URL(location, f.server.origin).origin).toBe(f.server.origin);
    }
  });

  it('a cookie of another resq (another port) or a forged one is ignored, not fatal', async () => {
    const other = `resq-session-${f.server.port + 1}=abc.def; resq_token=${f.server.token}`;
    expect((await fetch(url('/api/batches'), { headers: withCookie(other) })).status).toBe(401);
    expect((await fetch(url('/api/batches'), { headers: withCookie(`${other}; ${cookie}`) })).status).toBe(200);
    const name = `resq-session-${f.server.port}`;
    for (const forged of [`${name}=${encodeURIComponent('made-up.c2lnbmF0dXJl')}`, `${name}=%E0%A4%A`, `${name}=`, `${name}="a.b"`, '=;;=;', `${name}=${'x'.repeat(4000)}.${'y'.repeat(44)}=`])
      expect((await fetch(url('/api/batches'), { headers: withCookie(forged) })).status, forged.slice(0, 40)).toBe(401);
  });

  it('a login proxy\'s Authorization: Basic does not override a valid session; a wrong Bearer still does', async () => {
    const basic = { Authorization: `Basic ${Buffer.from('ada:proxy-password').toString('base64')}` };
    expect((await fetch(url('/api/batches'), { headers: { ...basic, ...withCookie() } })).status).toBe(200);
    expect((await fetch(url('/api/batches'), { headers: basic })).status).toBe(401);
    expect((await fetch(url('/api/batches'), { headers: { Authorization: 'Bearer nope', ...withCookie() } })).status).toBe(401);
  });

  it('refuses a foreign Host header (DNS rebinding), with or without the token', async () => {
    for (const host of ['evil.example', `evil.example:${f.server.port}`, '127.0.0.1:1']) {
      const r = await rawRequest(url('/api/batches'), { headers: { Host: host, ...bearer(f.server) } });
      expect(r.status, host).toBe(421);
    }
    const ok = await rawRequest(url('/api/batches'), { headers: { Host: `localhost:${f.server.port}`, ...bearer(f.server) } });
    expect(ok.status).toBe(200);
  });

  it('a session write must carry this page\'s Origin exactly: scheme, host and port (403 otherwise); nothing is recorded', async () => {
    // An empty body passes the guard and fails the schema (400): a refused Origin is 403 before it.
    const post = (headers: Record<string, string>) =>
      fetch(url('/api/batches/web/items/plan/answer'), { method: 'POST', headers: { 'Content-Type': 'application/json', ...withCookie(), ...headers }, body: '{}' });
    const p = f.server.port;
    for (const origin of [
      'http://evil.example',
      `http://localhost:${p + 1}`,
      `https://127.0.0.1:${p}`,
      `ftp://127.0.0.1:${p}`,
      `http://user@127.0.0.1:${p}`,
      `http://user:pw@127.0.0.1:${p}`,
      `http://127.0.0.1:${p}/`,
      'null',
    ]) expect((await post({ Origin: origin })).status, origin).toBe(403);
    expect((await post({})).status).toBe(403);
    expect((await post({ Origin: `http://127.0.0.1:${p}` })).status).toBe(400);
    expect((await f.store.getItem(f.batch.id, 'plan'))!.state).toBe('held');
    expect(await f.store.decisionsForItem(f.batch.id, 'plan')).toEqual([]);
  });

  it('behind a TLS proxy (--behind-proxy, X-Forwarded-Proto: https) the write\'s Origin is https://NAME, and http://NAME is refused', async () => {
    const s = await startWebServer({ store: f.store, port: 0, allowHosts: ['resq.example.org'], behindProxy: true });
    try {
      const c = await login(s);
      const post = (origin: string) =>
        rawRequest(`${s.origin}/api/batches/web/items/plan/answer`, {
          method: 'POST',
          headers: { Host: 'resq.example.org', 'X-Forwarded-Proto': 'https', Origin: origin, 'Content-Type': 'application/json', Cookie: c },
          body: '{}',
        });
      expect((await post('https://resq.example.org')).status).toBe(400);
      expect((await post('http://resq.example.org')).status).toBe(403);
      expect((await post('https://resq.example.org:8443')).status).toBe(403);
    } finally {
      await s.close();
    }
  });

  it('sign out ends the session: its cookie is refused afterwards, and the answer removes it', async () => {
    const c = await login(f.server);
    const r = await fetch(url('/api/session/end'), { method: 'POST', headers: { ...withCookie(c), Origin: f.server.origin, 'Content-Type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(204);
    expect(r.headers.get('set-cookie')).toMatch(new RegExp(`^resq-session-${f.server.port}=; Max-Age=0; `));
    expect((await fetch(url('/api/batches'), { headers: withCookie(c) })).status).toBe(401);
    expect((await fetch(url('/api/batches'), { headers: withCookie() })).status).toBe(200);
  });

  it('every answer carries a CSP without inline script and with frame-ancestors none; API answers are no-store', async () => {
    for (const p of ['/', '/api/batches', '/static/app.js']) {
      const r = await fetch(url(p), { headers: withCookie() });
      const csp = r.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
    }
    for (const p of ['/', '/api/batches', '/api/batches/web', '/api/batches/web/items', '/api/nope', '/metrics', '/api/batches/web/charts/states.svg'])
      expect((await fetch(url(p), { headers: withCookie() })).headers.get('cache-control'), p).toBe('no-store');
    const r = await fetch(url('/'), { headers: withCookie() });
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    // the page has no inline script: its only script is a file of this site
    expect(await r.text()).toMatch(/<script type="module" src="\/static\/app.js"><\/script>/);
  });
});

describe('sessions and guessing over time (a clock the test moves)', () => {
  let f: WebFixture;
  beforeAll(async () => {
    f = await webFixture();
  }, 60_000);
  afterAll(async () => f?.close());

  it('a session ends after a working day unused; used within it, it lives on', async () => {
    const clock = testClock();
    const s = await startWebServer({ store: f.store, port: 0, clock });
    try {
      const c = await login(s);
      const get = async () => (await fetch(`${s.origin}/api/batches`, { headers: { Cookie: c } })).status;
      clock.advance(SESSION_IDLE_MS - 60_000);
      expect(await get()).toBe(200);
      clock.advance(SESSION_IDLE_MS - 60_000);
      expect(await get()).toBe(200);
      clock.advance(SESSION_IDLE_MS + 1);
      expect(await get()).toBe(401);
      clock.advance(-SESSION_IDLE_MS);
      expect(await get()).toBe(401);
    } finally {
      await s.close();
    }
  });

  it('a login code unused for a few minutes is dead', async () => {
    const clock = testClock();
    const s = await startWebServer({ store: f.store, port: 0, clock });
    try {
      const fresh = s.loginUrl();
      clock.advance(4 * 60_000);
      expect((await fetch(fresh, { redirect: 'manual' })).status).toBe(303);
      const late = s.loginUrl();
      clock.advance(5 * 60_000 + 1);
      expect((await fetch(late, { redirect: 'manual' })).status).toBe(401);
    } finally {
      await s.close();
    }
  });

  it('restarting ends every session, unless RESQ_SERVE_TOKEN fixed the token (the cookie is signed with a key from it)', async () => {
    // `resq serve` itself reads the variable (src/cli/commands/serve.ts): three real processes on one port and database.
    const token = 'c0ffee5e7a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d';
    const db = join(f.dir, 'resq.db');
    const a = await serveChild(['--db', db, '--port', '0'], { RESQ_SERVE_TOKEN: token });
    const port = String(new URL(a.origin).port);
    let c: string;
    try {
      expect(a.token).toBe(token);
      c = cookiePair((await fetch(a.url, { redirect: 'manual' })).headers.get('set-cookie'));
    } finally {
      await a.stop();
    }
    const b = await serveChild(['--db', db, '--port', port], { RESQ_SERVE_TOKEN: token });
    try {
      expect(b.token).toBe(token);
      expect((await fetch(`${b.origin}/api/batches`, { headers: { Cookie: c } })).status).toBe(200);
    } finally {
      await b.stop();
    }
    const fresh = await serveChild(['--db', db, '--port', port], { RESQ_SERVE_TOKEN: undefined });
    try {
      expect(fresh.token).not.toBe(token);
      expect((await fetch(`${fresh.origin}/api/batches`, { headers: { Cookie: c } })).status).toBe(401);
    } finally {
      await fresh.stop();
    }
  }, 60_000);

  it(`wrong tokens and codes are throttled per address: after ${FAILURES_PER_MINUTE} a minute 429 with Retry-After, even for the right token; a session still passes; one log line a minute`, async () => {
    const clock = testClock();
    const lines: string[] = [];
    const s = await startWebServer({ store: f.store, port: 0, clock, log: (l) => lines.push(l) });
    try {
      const c = await login(s);
      const status = async (headers: Record<string, string>, p = '/api/batches') => {
        const r = await fetch(`${s.origin}${p}`, { headers, redirect: 'manual' });
        return { status: r.status, retry: r.headers.get('retry-after') };
      };
      for (let i = 0; i < FAILURES_PER_MINUTE - 1; i++) expect((await status({ Authorization: `Bearer wrong-${i}` })).status).toBe(401);
      expect((await status({}, '/?code=not-a-code')).status).toBe(401);
      for (let i = 0; i < 20; i++) expect(await status({ Authorization: `Bearer wrong-${i}` })).toEqual({ status: 429, retry: '60' });
      expect((await status(bearer(s))).status).toBe(429);
      expect((await status({}, `/?token=${s.token}`)).status).toBe(429);
      expect((await status({ Cookie: c })).status).toBe(200);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^1 wrong token or login code from 127\.0\.0\.1/);
      clock.advance(30_000);
      expect(await status(bearer(s))).toEqual({ status: 429, retry: '30' });
      clock.advance(30_001);
      expect((await status(bearer(s))).status).toBe(200);
      expect((await status({ Authorization: 'Bearer wrong-again' })).status).toBe(401);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/^28 wrong tokens or login codes since the last line from 127\.0\.0\.1/);
      for (const l of lines) expect(l).not.toContain(s.token);
    } finally {
      await s.close();
    }
  });
});
