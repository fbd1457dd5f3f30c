import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, sharedBrowser, type SharedBrowser, until, watchedPage } from './support/browser.js';
import { runningBatch, type RunningBatch } from './support/running-batch.js';
import { loadBatch } from '../../src/runner/index.js';
import { processStart } from '../../src/local-process.js';
import { openStore } from '../../src/store/index.js';
import { BatchListSchema, OverviewSchema } from '../../src/web/api-schemas.js';
import { startWebServer } from '../../src/web/server.js';
import { tempDir } from '../support/cli.js';
import { testSettings } from '../support/in-process.js';

// Twelve questions of 3 s each, two at a time (about 18 s), and plans held for a person on the way.
const CSV = ['id,question,lab', ...Array.from({ length: 12 }, (_, i) => `q${i},"Question ${i} @duration=3s${i % 4 === 1 ? ' @confirm=50' : ''}",lab${i % 2}`)].join('\n');

describe('the batch page in a real browser (live)', () => {
  let b: RunningBatch;
  let browser: SharedBrowser;
  beforeAll(async () => {
    [b, browser] = await Promise.all([runningBatch(CSV, { name: 'live' }), sharedBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
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
    const heldRows = page.locator('#bulk-table tbody tr');
    const heldBefore = await heldRows.count();
    const completedOf = (t: string | null) => Number(/completed (\d+)/.exec(t ?? '')?.[1] ?? 0);
    await until(async () => completedOf(await page.textContent('#counts')) > completedOf(first), 30_000, 'more completed items on the page');
    await until(async () => (await heldRows.count()) > heldBefore, 30_000, 'a held item in the queue');
    expect(await page.locator('#bulk-table').textContent()).toContain('confirm_scope');
    // A box checked stays checked when the one held table lists a newly held item; the new one is not checked.
    const firstHeld = (await heldRows.first().getAttribute('data-id'))!;
    await heldRows.first().locator('input[name=pick]').check();
    const heldNow = await heldRows.count();
    await until(async () => (await heldRows.count()) > heldNow, 30_000, 'another held item in the queue');
    const picks = await heldRows.evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-id'), (r.querySelector('input[name=pick]') as unknown as { checked: boolean }).checked]));
    expect(picks).toEqual(picks.map(([id]) => [id, id === firstHeld]));
    expect(await page.textContent('#bulk-total')).toBe(`1 selected of ${picks.length} listed · total cost 50`);
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
    expect(cells[3]).toMatch(/^\d+$/);
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

describe('the batch page in a real browser: a worker of this host killed with SIGKILL', () => {
  it('its row turns from a heartbeat age to gone with no reload, and it leaves the live count, although its heartbeat is fresh', async () => {
    const dir = tempDir('resq-web-gone-');
    const questions = join(dir, 'gone.csv');
    writeFileSync(questions, 'id,question\na,First\nb,Second\n');
    const store = await openStore(join(dir, 'resq.db'));
    const { batch } = await loadBatch({ store, questions, name: 'gone', settings: testSettings(2), policy: null, baseUrl: 'http://127.0.0.1:9' });
    // The worker: a real process of this host (a `sleep`) registered with its start identity, two items held for ten minutes.
    const victim = spawn('sleep', ['60'], { stdio: 'ignore' });
    await new Promise((r) => victim.once('spawn', r));
    const server = await startWebServer({ store, port: 0, tickMs: 250 });
    const browser = await sharedBrowser();
    try {
      const w = await store.registerWorker(batch.id, { host: hostname(), pid: victim.pid!, pidStart: processStart(victim.pid!) });
      await store.claimItems(batch.id, { workerId: w.id, leaseMs: 600_000, max: 2, cap: 2, afterSeq: -1 });
      const ctx = await browser.newContext();
      const { page, errors } = await watchedPage(ctx);
      await page.goto(server.url);
      await page.goto(`${server.origin}/b/gone`);
      const row = page.locator('#workers tbody tr');
      await until(async () => (await row.count()) === 1, 10_000, 'the worker row');
      expect((await row.locator('td').allTextContents()).slice(0, 4)).toEqual([hostname(), String(victim.pid), expect.stringMatching(/ ago$/), '2']);
      const exited = new Promise((r) => victim.once('exit', r));
      victim.kill('SIGKILL');
      await exited;
      await until(async () => (await row.locator('td').nth(2).textContent()) === 'gone', 10_000, 'the worker shown gone');
      expect(await row.locator('.tag.gone').count()).toBe(1);
      await screenshot(page, 'batch-worker-gone');
      expect(errors).toEqual([]);
      await ctx.close();
      // The API says the same: listed, gone, not a live worker.
      const headers = { authorization: `Bearer ${server.token}` };
      const o = OverviewSchema.parse(await (await fetch(`${server.origin}/api/batches/gone`, { headers })).json());
      expect(o.workers).toEqual([expect.objectContaining({ pid: victim.pid, gone: true, items: 2 })]);
      expect(o.liveWorkers).toBe(0);
      const list = BatchListSchema.parse(await (await fetch(`${server.origin}/api/batches`, { headers })).json());
      expect(list.batches[0]!.liveWorkers).toBe(0);
    } finally {
      victim.kill('SIGKILL');
      await browser.release();
      await server.close();
      await store.close();
    }
  }, 60_000);
});
