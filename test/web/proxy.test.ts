import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { forwardedProto, viaHttps } from '../../src/web/proxy.js';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import { tempDir } from '../support/cli.js';
import { rawRequest } from './support/web-fixture.js';

const headers = (h: Record<string, string>) => (name: string) => Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];

describe('what a proxy says about the scheme, read as proxies write it', () => {
  it.each([
    [{ 'X-Forwarded-Proto': 'https' }, 'https'],
    [{ 'X-Forwarded-Proto': 'HTTPS' }, 'https'],
    [{ 'X-Forwarded-Proto': 'https,http' }, 'https'],
    [{ 'X-Forwarded-Proto': ' https , http' }, 'https'],
    [{ 'X-Forwarded-Proto': 'http, https' }, 'http'],
    [{ Forwarded: 'proto=https' }, 'https'],
    [{ Forwarded: 'for=192.0.2.60;proto=HTTPS;by=203.0.113.43' }, 'https'],
    [{ Forwarded: 'For="[2001:db8:cafe::17]:4711";Proto="https", for=10.0.0.1;proto=http' }, 'https'],
    [{ Forwarded: 'for=10.0.0.1;proto=http, for=10.0.0.2;proto=https' }, 'http'],
    [{ Forwarded: 'for=10.0.0.1', 'X-Forwarded-Proto': 'https' }, 'https'],
    [{ Forwarded: 'proto=http', 'X-Forwarded-Proto': 'https' }, 'http'],
    [{}, null],
  ] as [Record<string, string>, string | null][])('%o → %s', (h, want) => {
    expect(forwardedProto(headers(h))).toBe(want);
  });

  it('is believed only behind a proxy (--behind-proxy)', () => {
    expect(viaHttps(true, headers({ 'X-Forwarded-Proto': 'HTTPS' }))).toBe(true);
    expect(viaHttps(false, headers({ 'X-Forwarded-Proto': 'https' }))).toBe(false);
    expect(viaHttps(false, headers({ Forwarded: 'proto=https' }))).toBe(false);
    expect(viaHttps(true, headers({}))).toBe(false);
  });
});

describe('the session cookie and the page origin behind a proxy (real servers, with and without --behind-proxy)', () => {
  const TOKEN = 'c0ffee5e7a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d';
  let store: SqliteStore;
  let proxied: WebServer;
  let direct: WebServer;
  beforeAll(async () => {
    store = SqliteStore.open(join(tempDir('resq-proxy-'), 'resq.db'));
    [proxied, direct] = await Promise.all([
      startWebServer({ store, port: 0, token: TOKEN, allowHosts: ['resq.example.org'], behindProxy: true }),
      startWebServer({ store, port: 0, token: TOKEN, allowHosts: ['resq.example.org'] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([proxied?.close(), direct?.close()]);
    await store?.close();
  });

  const VARIANTS: Record<string, string>[] = [
    { 'X-Forwarded-Proto': 'https' },
    { 'X-Forwarded-Proto': 'HTTPS' },
    { 'X-Forwarded-Proto': 'https,http' },
    { Forwarded: 'proto=https' },
    { Forwarded: 'for=192.0.2.60;Proto="HTTPS"' },
  ];
  const flagsOf = (set: unknown) => String(set).split('; ').slice(1).sort();
  const signIn = async (s: WebServer, h: Record<string, string>) => {
    const r = await rawRequest(`${s.origin}/?token=${TOKEN}`, { headers: { Host: 'resq.example.org', ...h } });
    expect(r.status).toBe(303);
    return String(r.headers['set-cookie']);
  };

  it('behind a proxy that says https in any of its ways, the cookie is Secure and a write from https://NAME passes', async () => {
    for (const h of VARIANTS) {
      const set = await signIn(proxied, h);
      expect(flagsOf(set), JSON.stringify(h)).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict', 'Secure']);
      const write = (origin: string) =>
        rawRequest(`${proxied.origin}/api/invites`, { method: 'POST', headers: { Host: 'resq.example.org', ...h, Cookie: set.split(';')[0]!, Origin: origin, 'Content-Type': 'application/json' }, body: '{}' });
      const made = await write('https://resq.example.org');
      expect(made.status, JSON.stringify(h)).toBe(201);
      expect((JSON.parse(made.body) as { link: string }).link).toMatch(/^https:\/\/resq\.example\.org\/\?code=/);
      expect((await write('http://resq.example.org')).status, JSON.stringify(h)).toBe(403);
    }
    expect(flagsOf(await signIn(proxied, { 'X-Forwarded-Proto': 'http, https' }))).not.toContain('Secure');
  });

  it('without --behind-proxy the same headers are not believed: no Secure, and the write is held to http:// (the 403 names the flag)', async () => {
    for (const h of VARIANTS) {
      const set = await signIn(direct, h);
      expect(flagsOf(set), JSON.stringify(h)).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict']);
      const refused = await rawRequest(`${direct.origin}/api/invites`, {
        method: 'POST',
        headers: { Host: 'resq.example.org', ...h, Cookie: set.split(';')[0]!, Origin: 'https://resq.example.org', 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatch(/start resq serve with --behind-proxy/);
    }
  });

  it("sign-out clears the cookie with the flags it was set with (Path, HttpOnly, SameSite, and Secure behind https)", async () => {
    for (const [s, h] of [
      [proxied, { 'X-Forwarded-Proto': 'https' }],
      [proxied, { Forwarded: 'proto=https' }],
      [direct, {}],
    ] as [WebServer, Record<string, string>][]) {
      const set = await signIn(s, h);
      const origin = s === proxied ? 'https://resq.example.org' : 'http://resq.example.org';
      const r = await rawRequest(`${s.origin}/api/session/end`, { method: 'POST', headers: { Host: 'resq.example.org', ...h, Cookie: set.split(';')[0]!, Origin: origin, 'Content-Type': 'application/json' }, body: '{}' });
      expect(r.status).toBe(204);
      const cleared = String(r.headers['set-cookie']);
      expect(cleared).toMatch(/^resq-session-\d+=; /);
      expect(flagsOf(cleared).filter((f) => f !== 'Max-Age=0')).toEqual(flagsOf(set));
      expect(flagsOf(cleared)).toContain('Max-Age=0');
    }
  });
});
