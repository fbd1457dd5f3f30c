import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';
import { DESKTOP_CHROMIUM, screenshot, sharedBrowser, type SharedBrowser, until, watchedPage } from './support/browser.js';
import { webFixture, type WebFixture } from './support/web-fixture.js';

/** A plain web server on another port of the same host (a dev server, a notebook): records the Cookie header of every request. */
async function otherApp(): Promise<{ server: Server; origin: string; cookies: string[] }> {
  const cookies: string[] = [];
  const server = createServer((req, res) => {
    cookies.push(req.headers.cookie ?? '');
    res.setHeader('Content-Type', 'text/html');
    res.end('<p>another app</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, cookies };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
}

describe('the browser holds a session, never the token (Chromium)', () => {
  let f: WebFixture;
  let browser: SharedBrowser;
  let other: Awaited<ReturnType<typeof otherApp>>;
  beforeAll(async () => {
    [f, browser, other] = await Promise.all([webFixture(), sharedBrowser(), otherApp()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
    other?.server.close();
    await f?.close();
  });

  it('another server on another port of 127.0.0.1 receives no token, at most the session, and signing out in the page ends it', async () => {
    const ctx = await browser.newContext();
    const { page, errors } = await watchedPage(ctx);
    const addresses: string[] = [];
    page.on('framenavigated', (fr) => addresses.push(fr.url()));
    await page.goto(f.server.loginUrl());
    await page.waitForSelector('#batches');
    expect(new URL(page.url()).search).toBe('');
    const cookies = await ctx.cookies();
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([[`resq-session-${f.server.port}`, true, 'Strict']]);

    await page.goto(other.origin);
    const sent = other.cookies.join('\n');
    expect(sent).not.toContain(f.server.token);
    expect(decodeURIComponent(sent)).not.toContain(f.server.token);
    // What leaked is a session: it works until signed out.
    const leaked = other.cookies.find((c) => c.includes('resq-session-'))!;
    expect(leaked).toBeDefined();
    expect((await fetch(`${f.server.origin}/api/batches`, { headers: { Cookie: leaked } })).status).toBe(200);

    await page.goto(`${f.server.origin}/`);
    await page.waitForSelector('#batches');
    await page.click('#sign-out');
    await page.waitForSelector('#signed-out');
    await screenshot(page, 'signed-out');
    expect(await ctx.cookies()).toEqual([]);
    expect((await fetch(`${f.server.origin}/api/batches`, { headers: { Cookie: leaked } })).status).toBe(401);
    await page.goto(`${f.server.origin}/`);
    expect(await page.textContent('body')).toContain('token required');
    // The only secret ever in the address bar was the login code.
    for (const a of addresses) expect(a).not.toContain(f.server.token);
    expect(addresses.filter((a) => /[?&](code|token)=/.test(a))).toEqual([]);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('a cookie named resq_token set by another app on the host neither logs the page out nor gets in', async () => {
    const planted = [
      { name: 'resq_token', value: 'planted', domain: '127.0.0.1', path: '/' },
      { name: `resq-session-${f.server.port + 1}`, value: 'planted', domain: '127.0.0.1', path: '/' },
    ];
    const sentCookies = async (page: Page, path: string): Promise<string> => {
      const req = page.waitForRequest((r) => r.url() === `${f.server.origin}${path}`);
      const res = await page.goto(`${f.server.origin}${path}`);
      expect(res!.status(), path).toBe(200);
      return (await (await req).headerValue('cookie')) ?? '';
    };
    // Signed in, then the other app's cookies planted: the browser sends them beside the session, and the page still opens.
    const ctx = await browser.newContext();
    const { page, errors } = await watchedPage(ctx);
    await page.goto(f.server.loginUrl());
    await page.waitForSelector('#batches');
    await ctx.addCookies(planted);
    const sent = await sentCookies(page, '/b/web');
    expect(sent).toContain('resq_token=planted');
    expect(sent).toContain(`resq-session-${f.server.port + 1}=planted`);
    expect(sent).toMatch(new RegExp(`resq-session-${f.server.port}=(?!planted)`));
    await page.waitForSelector('#counts');
    expect(await page.textContent('body')).not.toContain('token required');
    expect(errors).toEqual([]);
    await ctx.close();
    // Only the planted cookies, no session: the page, the API and /metrics refuse.
    const bare = await browser.newContext();
    await bare.addCookies(planted);
    const stranger = await bare.newPage();
    const res = await stranger.goto(`${f.server.origin}/b/web`);
    expect(res!.status()).toBe(401);
    expect(await stranger.textContent('body')).toContain('token required');
    const cookie = (await bare.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    for (const path of ['/api/batches', '/metrics']) expect((await fetch(`${f.server.origin}${path}`, { headers: { Cookie: cookie } })).status, path).toBe(401);
    await bare.close();
  });

  it("after the visit the profile's history, top sites and sessions hold no live secret", async () => {
    const profile = tempDir('resq-chromium-profile-');
    const ctx = await chromium.launchPersistentContext(profile, { executablePath: DESKTOP_CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    const link = f.server.loginUrl();
    try {
      const page = ctx.pages()[0] ?? (await ctx.newPage());
      await page.goto(link);
      await page.waitForSelector('#batches');
      await page.goto(`${f.server.origin}/b/web`);
      await page.waitForSelector('#counts');
    } finally {
      await ctx.close();
    }
    const history = join(profile, 'Default', 'History');
    await until(async () => existsSync(history) && statSync(history).size > 0, 10_000, "Chromium's History file");
    const db = new Database(history, { readonly: true, fileMustExist: true });
    const urls = (db.prepare('SELECT url FROM urls').all() as { url: string }[]).map((r) => r.url);
    db.close();
    expect(urls.some((u) => u.startsWith(f.server.origin))).toBe(true);
    // The token is nowhere in the profile: not in history, top sites, sessions, caches or cookies.
    const token = Buffer.from(f.server.token);
    const holding = filesUnder(profile).filter((p) => readFileSync(p).includes(token));
    expect(holding).toEqual([]);
    // Every login link the history kept is spent.
    const links = urls.filter((u) => /[?&]code=/.test(u));
    expect(links).toContain(link);
    for (const u of links) expect((await fetch(u, { redirect: 'manual' })).status, u).toBe(401);
  });
});
