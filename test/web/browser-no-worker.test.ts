import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, sharedBrowser, type SharedBrowser, watchedPage } from './support/browser.js';
import { webFixture, type WebFixture } from './support/web-fixture.js';

// The page says what happens next: a finished batch with pauses held and no worker running it.
describe('the page with no worker running the batch, in a real browser', () => {
  let f: WebFixture;
  let browser: SharedBrowser;
  beforeAll(async () => {
    [f, browser] = await Promise.all([webFixture({ name: 'idle' }), sharedBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
    await f?.close();
  });

  it('the batches page shows how many items wait for a person as a number', async () => {
    const { page, errors } = await watchedPage(await browser.newContext());
    await page.goto(f.server.loginUrl());
    await page.waitForSelector('#batches');
    expect(await page.textContent('#batches thead')).toContain('Held for a person');
    expect((await page.textContent('#batches td.held'))?.trim()).toBe('3');
    expect(errors).toEqual([]);
  });

  it('an answer recorded with no worker says it is not sent and names the command; the decision shows who, in words, with the note; the batch page gives no ETA but the command', async () => {
    const { page, errors } = await watchedPage(await browser.newContext());
    await page.goto(f.server.loginUrl());
    await page.fill('#person', 'Ana');
    await page.locator('#person').dispatchEvent('change');
    await page.goto(`${f.server.origin}/b/idle/i/plan`);
    await page.fill('form.answer input.note', 'within the grant');
    await page.click('form.answer button.approve');
    await page.waitForSelector('.decision');
    expect(await page.textContent('.decision')).toContain('Answered by a person: Ana');
    expect(await page.textContent('.decision .words')).toBe('approved');
    expect(await page.textContent('.decision .note')).toBe('within the grant');
    expect(await page.textContent('.next-step')).toBe('Answer recorded, not sent: resq resume idle — no worker is running this batch; run that command to send it.');
    await screenshot(page, 'item-answered-no-worker');

    await page.goto(`${f.server.origin}/b/idle`);
    await page.waitForSelector('#eta');
    expect(await page.textContent('#eta')).toBe('no ETA: no worker running: resq resume idle');
    expect(await page.textContent('#in-flight')).toMatch(/^0 in flight of \d+/);
    expect(errors).toEqual([]);
  });
});
