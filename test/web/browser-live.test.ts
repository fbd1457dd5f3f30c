import { hostname } from 'node:os';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, screenshot, until, watchedPage } from './support/browser.js';
import { runningBatch, type RunningBatch } from './support/running-batch.js';

// Twelve questions of 3 s each, two at a time (about 18 s), and plans held for a person on the way.
const CSV = ['id,question,lab', ...Array.from({ length: 12 }, (_, i) => `q${i},"Question ${i} @duration=3s${i % 4 === 1 ? ' @confirm=50' : ''}",lab${i % 2}`)].join('\n');

describe('the batch page in a real browser (live)', () => {
  let b: RunningBatch;
  let browser: Browser;
  beforeAll(async () => {
    [b, browser] = await Promise.all([runningBatch(CSV, { name: 'live' }), launch()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await b?.close();
  });

  it('counts and the held queue change while the batch runs, with no reload', async () => {
    const ctx = await browser.newContext();
    const { page, dialogs, errors } = await watchedPage(ctx);
    await page.goto(b.server.loginUrl());
    await page.goto(`${b.server.origin}/b/live`);
    await page.waitForSelector('#counts');
    // A mark on this document: a reload would lose it.
    await page.evaluate(() => ((globalThis as unknown as { __mark: number }).__mark = 42));
    const first = await page.textContent('#counts');
    const heldBefore = await page.locator('#held-list li').count();
    const completedOf = (t: string | null) => Number(/completed (\d+)/.exec(t ?? '')?.[1] ?? 0);
    await until(async () => completedOf(await page.textContent('#counts')) > completedOf(first), 30_000, 'more completed items on the page');
    await until(async () => (await page.locator('#held-list li').count()) > heldBefore, 30_000, 'a held item in the queue');
    expect(await page.locator('#held-list').textContent()).toContain('confirm_scope');
    expect(await page.evaluate(() => (globalThis as unknown as { __mark: number }).__mark)).toBe(42);
    expect(await page.textContent('#in-flight')).toMatch(/in flight of 2/);
    // Rate and ETA beside it, and the worker carrying the batch (this test process) with its heartbeat and items.
    const stats = page.locator('#in-flight').locator('xpath=..');
    await until(async () => /rate \d+\.\d\d items\/s · ETA \d+ (s|min|h)/.test((await stats.textContent()) ?? ''), 30_000, 'a rate and an ETA');
    const worker = page.locator('#workers tbody tr');
    expect(await worker.count()).toBe(1);
    const cells = await worker.locator('td').allTextContents();
    expect(cells.slice(0, 2)).toEqual([hostname(), String(process.pid)]);
    expect(cells[2]).toMatch(/ ago$/);
    expect(Number(cells[3])).toBeGreaterThanOrEqual(0);
    await until(async () => (await page.locator('#items-table tbody tr').count()) === 12, 10_000, 'the items table');
    await screenshot(page, 'batch-live');
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('the batches page lists the batch with its bar of states', async () => {
    const ctx = await browser.newContext();
    const { page, errors } = await watchedPage(ctx);
    await page.goto(b.server.loginUrl());
    await page.waitForSelector('#batches');
    expect(await page.textContent('#batches')).toContain('live');
    expect(await page.locator('#batches .statebar .seg').count()).toBeGreaterThan(0);
    await screenshot(page, 'batches');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
