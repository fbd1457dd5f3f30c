import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../support/cli.js';
import { alive, browserPid, processGroup, sharedBrowser, until } from './browser.js';

/** A process that takes the shared browser, prints Chromium's pid, and waits (as a vitest worker does between files). */
const HOLDER = `
import { browserPid, sharedBrowser } from './test/web/support/browser.ts';
const ctx = await (await sharedBrowser()).newContext();
console.log(await browserPid(ctx.browser()));
`;

/** One Chromium per vitest worker process, each file's contexts its own. */
describe('sharedBrowser', () => {
  it('hands consecutive files the same browser process, each its own contexts', async () => {
    const first = await sharedBrowser();
    const a = await first.newContext();
    await first.release();
    const second = await sharedBrowser();
    const b = await second.newContext();
    expect(b.browser()).toBe(a.browser());
    expect(await browserPid(b.browser()!)).toBe(await browserPid(a.browser()!));
    expect(b).not.toBe(a);
    await second.release();
  });

  it("closes a file's contexts and their pages on release, and nobody else's; the browser stays", async () => {
    const [mine, theirs] = await Promise.all([sharedBrowser(), sharedBrowser()]);
    const [one, two, other] = await Promise.all([mine.newContext(), mine.newContext({ javaScriptEnabled: false }), theirs.newContext()]);
    const page = await two.newPage();
    const browser = one.browser()!;
    await mine.release();
    expect(page.isClosed()).toBe(true);
    expect(browser.contexts()).not.toContain(one);
    expect(browser.contexts()).not.toContain(two);
    expect(browser.contexts()).toContain(other);
    expect(browser.isConnected()).toBe(true);
    await expect(mine.newContext()).rejects.toThrow('newContext after release()');
    await theirs.release();
    expect(browser.contexts()).not.toContain(other);
  });

  it('replaces a browser that has gone (killed) on the next acquire, and releases what was opened in it', async () => {
    const before = await sharedBrowser();
    const gone = (await before.newContext()).browser()!;
    const pid = await browserPid(gone);
    const disconnected = new Promise((r) => gone.once('disconnected', r));
    process.kill(-processGroup(pid), 'SIGKILL'); // a crash: Chromium and its helpers
    await disconnected;
    await before.release();
    const after = await sharedBrowser();
    const fresh = (await after.newContext()).browser()!;
    expect(fresh).not.toBe(gone);
    expect(fresh.isConnected()).toBe(true);
    expect(await browserPid(fresh)).not.toBe(pid);
    await after.release();
  });

  it('ends with its process: SIGTERM (how vitest stops a worker) leaves no Chromium running and no profile in /tmp', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HOLDER], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    const pid = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      void exited.then((code) => reject(new Error(`the holder exited ${code} before printing Chromium's pid`)));
    });
    expect(alive(pid)).toBe(true);
    const profile = /--user-data-dir=(\S+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '))![1]!;
    expect(existsSync(profile)).toBe(true);
    child.kill('SIGTERM');
    expect(await exited, 'exits at once (143), not after a graceful close that vitest\'s SIGKILL 500 ms later may cut short').toBe(143);
    await until(async () => !alive(pid), 5_000, 'Chromium killed');
    expect(existsSync(profile)).toBe(false);
  });
});
