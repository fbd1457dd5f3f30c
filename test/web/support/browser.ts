import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { ROOT } from '../../support/cli.js';

/**
 * Debian's headless Chromium: the browser tests drive the system's; nothing downloads one. The
 * headless build (Blink and V8 as in `chromium`, none of the desktop browser around them) is what
 * Playwright itself runs headless; a page load costs ~45% less CPU than in the full `chromium`
 * (0.11 against 0.2 CPU-s). `RESQ_CHROMIUM` names another.
 */
export const CHROMIUM = process.env.RESQ_CHROMIUM ?? '/usr/bin/chromium-headless-shell';

/**
 * Debian's full `chromium`, the browser people use: for the case that looks at what a browser
 * keeps in its profile on disk (history, top sites, sessions), which the headless build never writes.
 */
export const DESKTOP_CHROMIUM = process.env.RESQ_DESKTOP_CHROMIUM ?? '/usr/bin/chromium';

/**
 * The process group Chromium runs in: playwright starts the executable detached, as a group of
 * its own, and Debian's commands are shell scripts that start the browser as their child, so the
 * browser's pid is not the group's.
 */
export function processGroup(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[2]);
}

/** Where page screenshots are kept (gitignored test artifacts). */
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'web');

/** The pid of Chromium's browser process, as Chromium reports it (it leads its own process group: playwright spawns it detached). */
export async function browserPid(browser: Browser): Promise<number> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
    return processInfo.find((p) => p.type === 'browser')!.id;
  } finally {
    await cdp.detach();
  }
}

/**
 * This process's one Chromium, launched on first use and again once it has gone (closed,
 * crashed, killed). No file closes it: it stays for the next files of this vitest worker and
 * ends with the process (below; playwright's 'exit' handler SIGKILLs what it launched, and
 * Chromium quits when its pipe closes, so not even a SIGKILLed worker leaves one running).
 */
let current: Promise<Browser> | undefined;
/** Its pid and process group once launched, for {@link endOnSigterm}. */
let launchedProcess: { pid: number; group: number } | undefined;

/** Whether `pid` is a process that has not ended (a zombie waiting to be reaped has). */
export function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * vitest stops a worker with SIGTERM and SIGKILLs it 500 ms later. A graceful close of Chromium
 * was seen taking 0.5 s with three workers ending at once, and a worker killed before playwright
 * has removed the browser's profile leaves it in /tmp. So, without yielding: SIGKILL Chromium's
 * process group, wait for its browser process to end (ms), and exit: playwright's 'exit' handler
 * then removes the profile, which nothing writes to any more.
 */
function endOnSigterm(): void {
  const launched = launchedProcess;
  if (launched !== undefined) {
    const { pid, group } = launched;
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Already gone.
    }
    const tick = new Int32Array(new SharedArrayBuffer(4));
    for (const end = Date.now() + 300; alive(pid) && Date.now() < end; ) Atomics.wait(tick, 0, 0, 2);
  }
  try {
    process.exit(143);
  } catch {
    // process.exit is vitest's guard while a file runs: that file fails, the browser is gone.
  }
}

async function launchShared(): Promise<Browser> {
  // SIGTERM is endOnSigterm's, not playwright's graceful close.
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'], handleSIGTERM: false });
  const pid = await browserPid(browser);
  launchedProcess = { pid, group: processGroup(pid) };
  return browser;
}

function processBrowser(): Promise<Browser> {
  if (current) return current;
  if (!process.listeners('SIGTERM').includes(endOnSigterm)) process.on('SIGTERM', endOnSigterm);
  const launched = launchShared();
  current = launched;
  const forget = () => {
    if (current !== launched) return;
    current = undefined;
    launchedProcess = undefined;
  };
  launched.then((browser) => (browser.isConnected() ? browser.once('disconnected', forget) : forget()), forget);
  return launched;
}

/**
 * A test file's share of its process's Chromium: its contexts (cookies, storage) are its own,
 * and `release()` closes them all, with their pages; the browser stays for the next file.
 */
export interface SharedBrowser {
  /** A new context, in this process's browser (a fresh one if the last has gone). */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** Closes every context opened through `newContext` and not closed yet; no more can be opened. */
  release(): Promise<void>;
}

/** A file's {@link SharedBrowser} (in beforeAll; `release()` in afterAll), the browser launched by now. */
export async function sharedBrowser(): Promise<SharedBrowser> {
  await processBrowser();
  const open = new Set<BrowserContext>();
  let released = false;
  return {
    async newContext(options) {
      if (released) throw new Error('newContext after release()');
      const ctx = await (await processBrowser()).newContext(options);
      open.add(ctx);
      ctx.once('close', () => open.delete(ctx));
      return ctx;
    },
    async release() {
      released = true;
      await Promise.all([...open].map((ctx) => ctx.close()));
    },
  };
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
export async function signedInPage(browser: Pick<SharedBrowser, 'newContext'>, server: { loginUrl(): string }, person: string): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
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
