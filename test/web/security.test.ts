import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedHosts } from '../../src/web/security.js';
import { bearer, rawRequest, webFixture, type WebFixture } from './support/web-fixture.js';

describe('the web view guard (real server on loopback)', () => {
  let f: WebFixture;
  beforeAll(async () => {
    f = await webFixture();
  }, 60_000);
  afterAll(async () => f?.close());

  const url = (p: string) => `${f.server.origin}${p}`;
  const cookie = () => ({ Cookie: `resq_token=${f.server.token}` });

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

  it('a ?token= visit sets an HttpOnly SameSite=Strict cookie and drops the token from the URL', async () => {
    const r = await fetch(url(`/b/web?state=held&token=${f.server.token}`), { redirect: 'manual' });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/b/web?state=held');
    expect(r.headers.get('set-cookie')).toBe(`resq_token=${f.server.token}; HttpOnly; SameSite=Strict; Path=/`);
    expect((await fetch(url('/b/web'), { headers: cookie() })).status).toBe(200);
    expect((await fetch(url('/api/batches'), { headers: bearer(f.server) })).status).toBe(200);
  });

  it('refuses a foreign Host header (DNS rebinding), with or without the token', async () => {
    for (const host of ['evil.example', `evil.example:${f.server.port}`, '127.0.0.1:1']) {
      const r = await rawRequest(url('/api/batches'), { headers: { Host: host, ...bearer(f.server) } });
      expect(r.status, host).toBe(421);
    }
    const ok = await rawRequest(url('/api/batches'), { headers: { Host: `localhost:${f.server.port}`, ...bearer(f.server) } });
    expect(ok.status).toBe(200);
  });

  it('refuses a cookie write whose Origin is not the page (403) or missing; nothing is recorded', async () => {
    const body = JSON.stringify({ person: 'Mallory', reply: { kind: 'approve' } });
    const post = (headers: Record<string, string>) => fetch(url('/api/batches/web/items/plan/answer'), { method: 'POST', headers: { 'Content-Type': 'application/json', ...cookie(), ...headers }, body });
    expect((await post({ Origin: 'http://evil.example' })).status).toBe(403);
    expect((await post({ Origin: `http://localhost:${f.server.port + 1}` })).status).toBe(403);
    expect((await post({})).status).toBe(403);
    expect((await f.store.getItem(f.batch.id, 'plan'))!.state).toBe('held');
    expect(await f.store.decisionsForItem(f.batch.id, 'plan')).toEqual([]);
  });

  it('every answer carries a CSP without inline script and with frame-ancestors none', async () => {
    for (const p of ['/', '/api/batches', '/static/app.js']) {
      const csp = (await fetch(url(p), { headers: cookie() })).headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
    }
    const r = await fetch(url('/'), { headers: cookie() });
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    // the page has no inline script: its only script is a file of this site
    expect(await r.text()).toMatch(/<script type="module" src="\/static\/app.js"><\/script>/);
  });

  it('allowedHosts: the bound host and port, loopback names on loopback, extra names with any port', () => {
    const a = allowedHosts('127.0.0.1', 8642, ['resq.example.org', 'other.example:443']);
    expect(['127.0.0.1:8642', 'localhost:8642', '[::1]:8642', 'resq.example.org', 'RESQ.example.org:8443', 'other.example:443'].every((h) => a(h))).toBe(true);
    expect(['127.0.0.1:8643', 'evil.example', 'other.example:80', '', undefined].some((h) => a(h))).toBe(false);
    const wide = allowedHosts('0.0.0.0', 80, []);
    expect(wide('localhost:80')).toBe(false);
    expect(wide('0.0.0.0:80')).toBe(true);
  });
});
