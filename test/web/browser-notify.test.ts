import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { runCliChild, tempDir } from '../support/cli.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { screenshot, sharedBrowser, type SharedBrowser, until, watchedPage } from './support/browser.js';
import { serveChild, type ServeChild } from './support/serve-child.js';

// The batch page says who the batch tells, what is not delivered yet and the last error; once
// the receiver takes the event (sent by resq serve itself), it says all is delivered.
describe('the page shows the batch\'s notifications, in a real browser', () => {
  let sim: Sim;
  let browser: SharedBrowser;
  let receiver: Receiver;
  let serve: ServeChild;
  let up = false;
  beforeAll(async () => {
    [sim, browser, receiver] = await Promise.all([startSim({ defaultDurationMs: 50 }), sharedBrowser(), startReceiver(() => (up ? 200 : 500))]);
    const dir = tempDir();
    writeFileSync(join(dir, 'q.csv'), 'id,question\nplan,Costly plan @confirm=50\nplain,Plain question\n');
    const db = join(dir, 'x.db');
    const run = await runCliChild(['run', join(dir, 'q.csv'), '--db', db, '--batch', 'told', '--base-url', sim.url, '--no-download', '--notify', receiver.url], { RESQ_API_KEY: 'sim-key-bob' });
    expect(run.code, run.stderr).toBe(3);
    serve = await serveChild(['--db', db, '--port', '0'], { RESQ_LEASE_MS: '1000' });
  }, 90_000);
  afterAll(async () => {
    await serve?.stop();
    await browser?.release();
    await receiver?.close();
    await sim?.close();
  });

  it('undelivered with the last error (the receiver by host, never its path), then all delivered', async () => {
    const { page, errors } = await watchedPage(await browser.newContext());
    await page.goto(serve.url);
    await page.goto(`${serve.origin}/b/told`);
    await page.waitForSelector('#notify');
    const host = new URL(receiver.url).host;
    const text = (await page.textContent('#notify'))!;
    expect(text).toMatch(new RegExp(`^notifications to 1 URL \\(${host.replace(/\./g, '\\.')}\\), json: 1 undelivered \\(last error: items\\.held \\S+: ${host.replace(/\./g, '\\.')}: HTTP 500\\)$`));
    expect(await page.getAttribute('#notify', 'class')).toBe('warn');
    expect(await page.content()).not.toContain('secret-path-token');
    await screenshot(page, 'batch-notify-undelivered');
    up = true;
    await until(async () => (await page.textContent('#notify'))?.endsWith(': all delivered'), 60_000, 'the page to say all delivered');
    expect(receiver.requests.at(-1)!.status).toBe(200);
    expect(errors).toEqual([]);
  }, 90_000);
});
