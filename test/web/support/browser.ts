import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from '../../support/cli.js';

/** Debian's Chromium: the browser tests drive the system browser; nothing downloads one. */
export const CHROMIUM = process.env.RESQ_CHROMIUM ?? '/usr/bin/chromium';

/** Where page screenshots are kept (gitignored test artifacts). */
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'web');

/** Launches headless Chromium (no sandbox: CI runs as root). */
export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** A page that records every dialog (and dismisses it) and every uncaught page error. */
export async function watchedPage(ctx: BrowserContext): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
  const page = await ctx.newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, dialogs, errors };
}

/** A {@link watchedPage} in a new context, signed in through the server's login link, with the person's name typed in the header. */
export async function signedInPage(browser: Browser, server: { loginUrl(): string }, person: string): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
  const w = await watchedPage(await browser.newContext());
  await w.page.goto(server.loginUrl());
  await w.page.fill('#person', person);
  await w.page.locator('#person').dispatchEvent('change');
  return w;
}

/** Keeps a screenshot of the page as a test artifact. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Waits until `check` holds (a condition, not a timing): polls every 50 ms up to `ms`. */
export async function until<T>(check: () => Promise<T | null | undefined | false>, ms = 30_000, what = 'condition'): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
