import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, sharedBrowser, type SharedBrowser, until, watchedPage } from './support/browser.js';
import { runningBatch, type RunningBatch } from './support/running-batch.js';

// Two questions that fail at once, and three long ones that keep every slot of the cap (3) busy
// while the test acts: retried items stay queued (nothing can take them) until the batch is cancelled.
const FAILING = ['Doomed one @fail', 'Doomed two @fail'];
const CSV = ['id,question', `f1,${FAILING[0]}`, `f2,${FAILING[1]}`, 'l1,Long one @duration=60s', 'l2,Long two @duration=60s', 'l3,Long three @duration=60s'].join('\n');

describe('retry and cancel from the batch page, with confirmation (real browser)', () => {
  let b: RunningBatch;
  let browser: SharedBrowser;
  beforeAll(async () => {
    [b, browser] = await Promise.all([runningBatch(CSV, { name: 'acts', concurrency: 3 }), sharedBrowser()]);
    await until(async () => {
      const c = await b.store.itemCounts(b.batch.id);
      return c.failed === 2 && c.running === 3;
    }, 30_000, 'two failed items and three running');
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
    await b?.close();
  });

  /** The batch page, recording every write (POST) it sends. */
  async function batchPage(): Promise<{ page: Page; posts: string[]; errors: string[]; dialogs: string[] }> {
    const w = await watchedPage(await browser.newContext());
    const posts: string[] = [];
    w.page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(new URL(r.url()).pathname);
    });
    await w.page.goto(b.server.loginUrl());
    await w.page.goto(`${b.server.origin}/b/acts`);
    await w.page.waitForSelector('#counts');
    return { ...w, posts };
  }

  const states = async () => Object.fromEntries((await b.store.listItems(b.batch.id)).map((i) => [i.id, i.state]));

  it('retry asks first: No changes nothing; Yes queues the failed items again (page and store)', async () => {
    const { page, posts, errors, dialogs } = await batchPage();
    const before = await states();
    expect(before).toMatchObject({ f1: 'failed', f2: 'failed' });

    await page.click('#retry');
    const box = page.locator('.action-box .confirm');
    await box.waitFor();
    expect(await box.textContent()).toContain('Retry every failed and errored item as a new run?');
    await screenshot(page, 'retry-confirm');
    await box.locator('button', { hasText: 'No' }).click();
    await box.waitFor({ state: 'detached' });
    expect(posts).toEqual([]);
    expect(await page.textContent('.message')).toBe('');
    expect(await states()).toEqual(before);

    await page.click('#retry');
    await box.locator('button', { hasText: 'Yes' }).click();
    await page.locator('.message', { hasText: 'queued again' }).waitFor();
    expect(await page.textContent('.message')).toContain('2 item(s) queued again');
    expect(posts).toEqual(['/api/batches/acts/retry']);
    expect(await states()).toEqual({ ...before, f1: 'queued', f2: 'queued' });
    // The live counts show them queued, with no reload.
    await until(async () => /queued\s*2/.test((await page.textContent('#counts')) ?? ''), 10_000, 'queued 2 on the page');
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('cancel asks first: No leaves the batch running; Yes cancels it (nothing queued is sent)', async () => {
    const { page, posts, errors, dialogs } = await batchPage();
    const admitted = () => FAILING.map((q) => b.sim.counters().admissionsByInput[q] ?? 0);
    const admittedBefore = admitted();
    const before = await states();
    expect(before).toMatchObject({ f1: 'queued', f2: 'queued', l1: 'running' });

    await page.click('#cancel');
    const box = page.locator('.action-box .confirm');
    await box.waitFor();
    expect(await box.textContent()).toContain('Cancel the batch? Nothing queued will be sent.');
    await box.locator('button', { hasText: 'No' }).click();
    await box.waitFor({ state: 'detached' });
    expect(posts).toEqual([]);
    expect((await b.store.findBatch('acts'))!.cancelledAt).toBeNull();
    expect(await states()).toEqual(before);

    await page.click('#cancel');
    await box.locator('button', { hasText: 'Yes' }).click();
    await page.locator('.message', { hasText: 'Cancelled' }).waitFor();
    expect(await page.textContent('.message')).toContain('Cancelled: 2 queued item(s) will not be sent');
    expect(posts).toEqual(['/api/batches/acts/cancel']);
    expect((await b.store.findBatch('acts'))!.cancelledAt).not.toBeNull();
    expect(await states()).toMatchObject({ f1: 'cancelled', f2: 'cancelled' });
    await until(async () => /cancelled/.test((await page.textContent('#stats')) ?? ''), 10_000, 'the page showing the batch cancelled');
    await screenshot(page, 'batch-cancelled');
    expect(admitted()).toEqual(admittedBefore); // the retried items were never sent again
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
