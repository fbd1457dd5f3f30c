// The batch page of a 360-question batch in Chromium at a laptop's 1,366×768: the live overview,
// the held queue (listed once, one table with its bulk answer) and the first page of items fit
// two screens; the items page by Next / Previous links that work with JavaScript off too.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, sharedBrowser, type SharedBrowser, until, watchedPage } from './support/browser.js';
import { webFixture, type WebFixture } from './support/web-fixture.js';

const N = 360;
const PLANS = ['h-ünï-1', 'h-ünï-2', 'h-ünï-3', 'h-ünï-4'];
// Held at its choice after the policy approved its plan: its earlier decision is said in the held table.
const HELD = [...PLANS, 'h-chain'];
const id = (i: number) => `q${String(i).padStart(3, '0')}`;
// 355 plain questions of a few lines' length (one with markup in it), then five items held for a
// person: four plans over the policy's limit, and a choice after a plan the policy approved.
const WORDS = 'about the boiling point of water at altitude, with sources and a short table of values'.repeat(2);
const CSV = [
  'id,question,lab',
  ...Array.from({ length: N - HELD.length }, (_, i) => `${id(i)},"Question ${i}${i === 3 ? ' <img src=x onerror=alert(1)>' : ''} ${WORDS}",lab${i % 3}`),
  ...PLANS.map((h, k) => `${h},Plan ${k} @confirm=${20 + k},lab0`),
  'h-chain,A cheap plan then a choice @confirm=3 @choice,lab1',
].join('\n');
const VIEW = { width: 1366, height: 768 };

/** The ids of the items table's rows, in order. */
const rowIds = (page: Page) => page.locator('#items-table tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
const range = (from: number, n: number) => Array.from({ length: n }, (_, k) => id(from + k));
/** Waits until the items table shows exactly `want` (a link followed loads a new document). */
const showsRows = (page: Page, want: string[], what: string) =>
  until(async () => JSON.stringify(await rowIds(page).catch(() => null)) === JSON.stringify(want), 10_000, what);

describe('the batch page of a 360-item batch in a real browser', () => {
  let f: WebFixture;
  let browser: SharedBrowser;
  beforeAll(async () => {
    [f, browser] = await Promise.all([webFixture({ csv: CSV, name: 'set360', policy: { confirm_scope: { approve_max_cost: 10 } } }), sharedBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.release();
    await f?.close();
  });

  it('fits two laptop screens (1366×768) with its overview, held queue and first page of items, and lists each held item once', async () => {
    const { page, errors, dialogs } = await watchedPage(await browser.newContext({ viewport: VIEW }));
    await page.goto(f.server.loginUrl());
    await page.goto(`${f.server.origin}/b/set360`);
    await until(async () => (await page.locator('#bulk-table tbody tr').count()) === HELD.length, 10_000, 'the held queue');
    await page.waitForSelector('#counts');
    await page.waitForSelector('#workers p, #workers table');
    expect(await rowIds(page)).toEqual(range(0, 20));
    // The charts are loaded before the page is measured (they take their own height).
    const charts = page.locator('.charts img');
    await until(async () => (await charts.evaluateAll((imgs) => imgs.every((i) => (i as unknown as { complete: boolean; naturalHeight: number }).complete && (i as unknown as { naturalHeight: number }).naturalHeight > 0))) && (await charts.count()) === 2, 10_000, 'the charts');
    const height = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document.documentElement.scrollHeight);
    await screenshot(page, 'batch-360');
    expect(height).toBeLessThanOrEqual(2 * VIEW.height);
    // Each held item is named once on the page: one table, its checkbox and link.
    for (const h of HELD) expect(await page.locator('main a', { hasText: h }).count(), h).toBe(1);
    expect(await page.locator('#held-list').count()).toBe(0);
    expect(await page.locator('#held table').count()).toBe(1);
    await until(async () => (await page.textContent('#bulk-table tr[data-id=h-chain]'))?.includes('earlier confirm_scope: approved by the policy'), 10_000, 'the earlier decision of h-chain');
    // A question's markup is text in the items table.
    expect(await page.textContent('#items-table tr[data-id=q003]')).toContain('<img src=x onerror=alert(1)>');
    expect(await page.locator('#items img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('the one held table still answers in bulk: two checked, approved after the confirmation, each recorded with the person', async () => {
    const { page, errors, dialogs } = await watchedPage(await browser.newContext({ viewport: VIEW }));
    await page.goto(f.server.loginUrl());
    await page.fill('#person', 'Noor');
    await page.locator('#person').dispatchEvent('change');
    await page.goto(`${f.server.origin}/b/set360`);
    await until(async () => (await page.locator('#bulk-table tbody tr').count()) === HELD.length, 10_000, 'the held queue');
    for (const h of PLANS.slice(0, 2)) await page.check(`#bulk-table tr[data-id="${h}"] input[name=pick]`);
    expect(await page.textContent('#bulk-total')).toBe('2 selected of 5 listed · total cost 41');
    await page.click('#bulk-approve');
    expect(await page.textContent('#bulk-confirm .confirm span')).toBe('Approve 2 held item(s), total cost 41? Each gets its own decision, recorded as Noor.');
    await page.click('#bulk-confirm .confirm button.danger');
    await page.waitForSelector('#bulk-answered');
    expect(await page.textContent('#bulk-answered')).toContain('Answered 2 item(s) as Noor, total cost 41.');
    for (const [k, h] of PLANS.slice(0, 2).entries()) expect(await f.store.decisionsForItem(f.batch.id, h), h).toEqual([expect.objectContaining({ by: 'person', person: 'Noor', answer: { approved: true }, cost: 20 + k })]);
    for (const h of PLANS.slice(2)) expect(await f.store.decisionsForItem(f.batch.id, h), h).toEqual([]);
    // The two answered leave the held table; the other three stay, listed once.
    await until(async () => (await page.locator('#bulk-table tbody tr').count()) === 3, 10_000, 'three still held');
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  for (const javaScriptEnabled of [false, true])
    it(`pages next and previous, and by a page size, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async () => {
      const ctx = await browser.newContext({ viewport: VIEW, javaScriptEnabled });
      const { page, errors } = await watchedPage(ctx);
      await page.goto(f.server.loginUrl());
      await page.goto(`${f.server.origin}/b/set360`);
      await page.waitForSelector('#items-table');
      expect(await rowIds(page)).toEqual(range(0, 20));
      expect(await page.locator('#prev-page').count()).toBe(0);
      // A state's chip in its colour (the library's, from the server's style sheet: no script needed).
      const chip = page.locator('#items-table tr[data-id=q000] .chip');
      await until(async () => (await chip.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { borderTopColor: string } }).getComputedStyle(el).borderTopColor)) === 'rgb(89, 161, 79)', 10_000, 'the completed chip in its colour');
      // With the script on, the items page in place: the live parts and a box checked in the held table stay.
      const mark = () => page.evaluate(() => (globalThis as unknown as { __mark?: number }).__mark ?? null);
      if (javaScriptEnabled) {
        await until(async () => (await page.locator('#bulk-table tbody tr').count()) > 0, 10_000, 'the held table');
        await page.check('#bulk-table tbody tr:last-child input[name=pick]');
        await page.evaluate(() => ((globalThis as unknown as { __mark: number }).__mark = 7));
      }
      await page.click('#next-page');
      await showsRows(page, range(20, 20), 'the second page');
      expect(page.url()).toMatch(/[?&]after=/);
      await page.click('#next-page');
      await showsRows(page, range(40, 20), 'the third page');
      await page.click('#prev-page');
      await showsRows(page, range(20, 20), 'the second page again');
      expect(page.url()).toMatch(/[?&]before=/);
      await page.click('#prev-page');
      await showsRows(page, range(0, 20), 'the first page again');
      expect(await page.locator('#prev-page').count()).toBe(0);
      if (javaScriptEnabled) {
        expect(await mark()).toBe(7);
        expect(await page.isChecked('#bulk-table tbody tr:last-child input[name=pick]')).toBe(true);
      }
      // A page size from the filter form (a GET: no script needed), kept by the links.
      await page.selectOption('#page-size', '50');
      await page.click('#filters button[type=submit]');
      await showsRows(page, range(0, 50), 'a page of 50');
      expect(page.url()).toMatch(/[?&]limit=50/);
      await page.click('#next-page');
      await showsRows(page, range(50, 50), 'the next page of 50');
      // Back in the browser's history: the page before.
      await page.goBack();
      await showsRows(page, range(0, 50), 'back to the first page of 50');
      if (javaScriptEnabled) expect(await mark()).toBe(7);
      // The last page: no Next.
      await page.goto(`${f.server.origin}/b/set360?limit=200`);
      await page.click('#next-page');
      await showsRows(page, [...range(200, N - HELD.length - 200), ...HELD], 'the last page');
      expect(await page.locator('#next-page').count()).toBe(0);
      // A state from the form's checkboxes: the held items only.
      await page.goto(`${f.server.origin}/b/set360`);
      await page.check('#filters input[name=state][value=held]');
      await page.click('#filters button[type=submit]');
      await until(async () => (await rowIds(page).catch(() => [])).length > 0 && /[?&]state=held/.test(page.url()), 10_000, 'the held rows');
      expect((await rowIds(page)).every((x) => x!.startsWith('h-'))).toBe(true);
      expect(errors).toEqual([]);
      await ctx.close();
    });
});

