import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startWebServer, type WebServer, type WebServerOptions } from '../../src/web/server.js';
import { SESSION_IDLE_MS, secretDigest, sessionKey } from '../../src/web/sessions.js';
import { FAILURES_PER_MINUTE } from '../../src/web/throttle.js';
import { tempDir } from '../support/cli.js';
import { cookiePair, login, testClock } from './support/session.js';
import { onNewConnection } from './support/fresh-connection.js';
import { rawRequest } from './support/web-fixture.js';

// Issue 37.5: sessions kept in the store end for good — across a restart on the same database
// with the same fixed token, and across two servers on one database; a login replaces the
// session a browser brought; a throttled client's login code is not even checked.

const TOKEN = 'c0ffee5e7a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d';

describe('sessions that end for good (real servers on loopback, a real SQLite file)', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  const database = () => join(tempDir('resq-sessions-'), 'resq.db');
  /** A store on `path` and a server over it: what `resq serve --db path` is, closed in reverse. */
  const serve = async (path: string, o: Omit<WebServerOptions, 'store'> = {}): Promise<WebServer & { store: SqliteStore; stop(): Promise<void> }> => {
    const store = SqliteStore.open(path);
    const server = await startWebServer({ store, port: 0, token: TOKEN, ...o });
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      await server.close();
      await store.close();
    };
    open.push({ close: stop });
    return Object.assign(server, { store, stop });
  };
  const status = async (s: WebServer, cookie: string) => (await fetch(`${s.origin}/api/batches`, { headers: { Cookie: cookie } })).status;
  /** The same on a connection of its own: a server restarted on the old port is not asked over a socket of the stopped one. */
  const statusAfterRestart = async (s: WebServer, cookie: string) => (await onNewConnection(`${s.origin}/api/batches`, { headers: { Cookie: cookie } })).status;
  const signOut = async (s: WebServer, cookie: string) =>
    fetch(`${s.origin}/api/session/end`, { method: 'POST', headers: { Cookie: cookie, Origin: s.origin, 'Content-Type': 'application/json' }, body: '{}' });

  it('signed out, then the server restarted on the same database with the same fixed token: the old cookie is refused', async () => {
    const path = database();
    const a = await serve(path);
    const cookie = await login(a);
    const kept = await login(a);
    expect((await signOut(a, cookie)).status).toBe(204);
    await a.stop();
    const b = await serve(path, { port: a.port });
    expect(await statusAfterRestart(b, cookie)).toBe(401);
    // A session not signed out lives on across the restart (the fixed token's promise).
    expect(await statusAfterRestart(b, kept)).toBe(200);
  });

  it('a session idle past a working day while the server was down is refused by the restarted one (the clock injected)', async () => {
    const path = database();
    const clock = testClock();
    const a = await serve(path, { clock });
    const cookie = await login(a);
    const used = await login(a);
    clock.advance(SESSION_IDLE_MS - 60_000);
    expect(await status(a, used)).toBe(200);
    await a.stop();
    clock.advance(120_000);
    const b = await serve(path, { clock, port: a.port });
    expect(await statusAfterRestart(b, cookie)).toBe(401);
    expect(await statusAfterRestart(b, used)).toBe(200);
    // Ended for good: a clock set back does not bring it back.
    clock.advance(-SESSION_IDLE_MS);
    expect(await statusAfterRestart(b, cookie)).toBe(401);
  });

  it('two servers on one database (one port, two addresses, as behind a balancer) share sign-out and sessions', async () => {
    const path = database();
    const a = await serve(path, { host: '127.0.0.1' });
    const b = await serve(path, { host: '127.0.0.2', port: a.port });
    const cookie = await login(a);
    expect(await status(b, cookie)).toBe(200);
    const other = await login(b);
    expect(await status(a, other)).toBe(200);
    expect((await signOut(b, cookie)).status).toBe(204);
    expect(await status(a, cookie)).toBe(401);
    expect(await status(b, cookie)).toBe(401);
    expect(await status(a, other)).toBe(200);
  });

  it('a login with a cookie the browser brought issues a new session id and ends the old one (no fixation): by code, invitation or token', async () => {
    const s = await serve(database());
    for (const linkOf of [() => s.loginUrl(), async () => (await s.invite()).link, () => `${s.origin}/?token=${TOKEN}`]) {
      const link = await linkOf();
      // The session a browser brings: its own from before, or one an attacker planted in it.
      const brought = await login(s);
      const r = await fetch(link, { redirect: 'manual', headers: { Cookie: brought } });
      expect(r.status, link).toBe(303);
      const fresh = cookiePair(r.headers.get('set-cookie'));
      expect(fresh.split('=')[0]).toBe(brought.split('=')[0]);
      expect(fresh).not.toBe(brought);
      expect(await status(s, brought), link).toBe(401);
      expect(await status(s, fresh), link).toBe(200);
    }
  });

  it('an invitation lets one browser in, once, and not after its time; the API makes one for a script or a page', async () => {
    const clock = testClock();
    const s = await serve(database(), { clock });
    const { link, expiresAt } = await s.invite(3_600_000);
    expect(expiresAt.getTime()).toBe(clock.now() + 3_600_000);
    expect(link).not.toContain(TOKEN);
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(303);
    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(401);
    expect(await again.text()).toMatch(/used already or has expired/);
    const late = await s.invite(3_600_000);
    clock.advance(3_600_001);
    expect((await fetch(late.link, { redirect: 'manual' })).status).toBe(401);

    const made = await fetch(`${s.origin}/api/invites`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: '{"hours": 2}' });
    expect(made.status).toBe(201);
    const body = (await made.json()) as { link: string; expiresAt: string };
    expect(body.link).toMatch(new RegExp(`^${s.origin}/\\?code=[A-Za-z0-9_-]{22}$`));
    expect(Date.parse(body.expiresAt)).toBe(clock.now() + 2 * 3_600_000);
    expect((await fetch(body.link, { redirect: 'manual' })).status).toBe(303);
    const tooLong = await fetch(`${s.origin}/api/invites`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: '{"hours": 10000}' });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { error: string }).error).toMatch(/^body: hours: /);
    // A page's invitation is a write: it carries the page's Origin.
    const c = await login(s);
    const foreign = await fetch(`${s.origin}/api/invites`, { method: 'POST', headers: { Cookie: c, Origin: 'http://evil.example', 'Content-Type': 'application/json' }, body: '{}' });
    expect(foreign.status).toBe(403);
  });

  it("a throttled client's correct login code is refused without being checked: it still works once the minute is up", async () => {
    const clock = testClock();
    const s = await serve(database(), { clock });
    const link = s.loginUrl();
    for (let i = 0; i < FAILURES_PER_MINUTE; i++) expect((await fetch(`${s.origin}/?code=wrong-${i}`, { redirect: 'manual' })).status).toBe(401);
    const throttled = await fetch(link, { redirect: 'manual' });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('set-cookie')).toBeNull();
    clock.advance(60_001);
    const later = await fetch(link, { redirect: 'manual' });
    expect(later.status).toBe(303);
    expect(await status(s, cookiePair(later.headers.get('set-cookie')))).toBe(200);
  });

  it('the login code printed at start is in the database before the address is handed out', async () => {
    const s = await serve(database());
    const code = new URL(s.url).searchParams.get('code')!;
    const other = SqliteStore.open(s.store.location);
    open.push(other);
    expect(await other.spendLoginCode(secretDigest(sessionKey(TOKEN), code), Date.now())).toBe(true);
    expect((await rawRequest(s.url)).status).toBe(401);
  });
});
