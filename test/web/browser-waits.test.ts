import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, sharedBrowser, type SharedBrowser, until, watchedPage } from './support/browser.js';
import { webFixture, type WebFixture } from './support/web-fixture.js';

// Why queued items wait, on the page (issue 38): q302 and q303 wait behind q301, held, in
// thread `T-ünï`; an item named with markup waits behind another of a thread named with markup.
const HOSTILE = '<img src=x onerror=alert(1)>';
const CSV = [
  'id,question,thread',
  'a1,quick,',
  'a2,quick too,',
  'q301,Plan it @confirm=5,T-ünï',
  'q302,Then this,T-ünï',
  'q303,And this,T-ünï',
  `"h${HOSTILE}",Plan @confirm=7,"t${HOSTILE}"`,
  `"g${HOSTILE}",after,"t${HOSTILE}"`,
].join('\n');

describe('the page says why queued items wait, in a real browser', () => {
  let f: WebFixture;
  let browser: SharedBrowser;
  beforeAll(async () => {
    [f, browser] = await Promise.all([webFixture({ name: 'myset', csv: CSV }), sharedBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
    await f?.close();
  });

  it('the batch page counts the queued items behind held items of their thread, names each with the item it waits for, as text, and links them', async () => {
    const { page, errors, dialogs } = await watchedPage(await browser.newContext());
    await page.goto(f.server.loginUrl());
    await page.goto(`${f.server.origin}/b/myset`);
    await page.waitForSelector('#waiting li');
    const line = await page.textContent('#waiting li[data-reason="thread-held"]');
    expect(line).toContain(`3 queued behind held items of their thread: q302, q303 wait for q301 (held) in thread T-ünï; g${HOSTILE} waits for h${HOSTILE} (held) in thread t${HOSTILE}`);
    expect(await page.locator('#waiting img').count()).toBe(0);
    expect(await page.locator('#waiting li a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(['/b/myset/i/q302', '/b/myset/i/q303', `/b/myset/i/${encodeURIComponent(`g${HOSTILE}`)}`]);
    await screenshot(page, 'batch-waiting');
    await page.click('#waiting li a >> text=q302');
    await page.waitForSelector('#wait');
    expect(await page.textContent('#wait')).toBe('Why queued: waits behind q301 (held) in its thread T-ünï: it starts once a person answers q301 and it ends (see resq show myset q301) see q301');
    await page.click('#wait a');
    await page.waitForSelector('form.answer');
    expect(page.url()).toBe(`${f.server.origin}/b/myset/i/q301`);
    expect(errors).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it("with a live worker registered on the batch (another host's row, no process), the ETA says it leaves out the items waiting for a person", async () => {
    // A worker of another machine attached to the batch, as its registration stores it.
    await f.store.registerWorker(f.batch.id, { host: 'elsewhere', pid: 4242 }, Date.now());
    const { page, errors } = await watchedPage(await browser.newContext());
    await page.goto(f.server.loginUrl());
    await page.goto(`${f.server.origin}/b/myset`);
    const eta = await until(async () => {
      const t = await page.textContent('#eta').catch(() => null);
      return t?.startsWith('ETA') ? t : null;
    }, 30_000, 'the ETA with a live worker');
    expect(eta).toMatch(/^ETA .+; leaves out 3 items waiting for a person$/);
    expect(errors).toEqual([]);
  });
});
