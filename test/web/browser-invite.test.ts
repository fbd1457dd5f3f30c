import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import { tempDir } from '../support/cli.js';
import { screenshot, sharedBrowser, type SharedBrowser, watchedPage } from './support/browser.js';
import { onNewConnection } from './support/fresh-connection.js';

const TOKEN = 'c0ffee5e7a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d';


describe('the Invite button and sign-out for good (Chromium, a real SQLite file)', () => {
  let browser: SharedBrowser;
  let path: string;
  let store: SqliteStore;
  let server: WebServer;
  beforeAll(async () => {
    path = join(tempDir('resq-invite-'), 'resq.db');
    store = SqliteStore.open(path);
    [server, browser] = await Promise.all([startWebServer({ store, port: 0, token: TOKEN }), sharedBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
    await server?.close();
    await store?.close();
  });

  it('a teammate gets in by the link the Invite button makes, once; a signed-out session stays out after a restart, the teammate\'s lives on', async () => {
    const lead = await browser.newContext();
    const { page, errors } = await watchedPage(lead);
    await page.goto(server.loginUrl());
    await page.waitForSelector('main h1');
    await page.click('#invite');
    const link = await (await page.waitForSelector('#invite-link')).inputValue();
    expect(link).toMatch(new RegExp(`^${server.origin}/\\?code=[A-Za-z0-9_-]{22}$`));
    expect(link).not.toContain(TOKEN);
    expect(await page.textContent('#invitation')).toMatch(/once, until /);
    await screenshot(page, 'invitation');

    const mate = await browser.newContext();
    const matePage = await mate.newPage();
    await matePage.goto(link);
    await matePage.waitForSelector('main h1');
    expect(new URL(matePage.url()).search).toBe('');
    const stranger = await browser.newContext();
    const strangerPage = await stranger.newPage();
    await strangerPage.goto(link);
    expect(await strangerPage.textContent('body')).toMatch(/used already or has expired/);

    const leadCookie = (await lead.cookies()).map((c) => `${c.name}=${c.value}`)[0]!;
    await page.click('#sign-out');
    await page.waitForSelector('#signed-out');
    expect(await page.isHidden('#invite')).toBe(true);
    expect(await lead.cookies()).toEqual([]);

    // resq serve restarted on the same database, same fixed token, same port.
    const port = server.port;
    await server.close();
    await store.close();
    store = SqliteStore.open(path);
    server = await startWebServer({ store, port, token: TOKEN });
    expect((await onNewConnection(`${server.origin}/api/batches`, { headers: { Cookie: leadCookie } })).status).toBe(401);
    await matePage.reload();
    await matePage.waitForSelector('main h1');
    expect(await matePage.textContent('main h1')).toBe('Batches');
    expect(errors).toEqual([]);
    await Promise.all([lead.close(), mate.close(), stranger.close()]);
  });
});
