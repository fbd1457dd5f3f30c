import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import { tempDir } from '../support/cli.js';
import { testSettings } from '../support/in-process.js';
import { screenshot, sharedBrowser, type SharedBrowser, until, watchedPage } from './support/browser.js';

const N = 100_000;
const id = (i: number) => `item-${String(i).padStart(6, '0')}`;

/** Loads a 100,000-item batch straight through the store (column by column): no run needed to page it. */
async function loadBig(store: Store): Promise<void> {
  const loader = await store.beginBatchLoad(
    { id: 'big-batch', name: 'big', kind: 'runs', sourcePath: '/data/big.csv', sourceSha256: 'sha', baseUrl: null, settings: testSettings(8), policy: null },
    { bulk: true },
  );
  for (let start = 0; start < N; start += 10_000) {
    const idx = Array.from({ length: 10_000 }, (_, k) => start + k);
    await loader.addColumns(
      {
        ids: idx.map(id),
        lines: idx.map((i) => i + 2),
        questions: idx.map((i) => `Question ${i}${i % 10_007 === 0 ? ' with the needle' : ''}`),
        threads: idx.map(() => null),
        metas: idx.map((i) => JSON.stringify({ group: `g${i % 100}` })),
      },
      start,
    );
  }
  await loader.commit([]);
}

describe('a 100,000-item batch in a real browser', () => {
  let store: Store;
  let server: WebServer;
  let browser: SharedBrowser;
  beforeAll(async () => {
    store = await openStore(join(tempDir('resq-web-big-'), 'resq.db'));
    await loadBig(store);
    [server, browser] = await Promise.all([startWebServer({ store, port: 0 }), sharedBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.release();
    await server?.close();
    await store?.close();
  });

  it('pages by cursor (kept in the URL across a reload), and filters by a meta field and by text', async () => {
    const { page, errors } = await watchedPage(await browser.newContext());
    await page.goto(server.loginUrl());
    // 50 a page (the page size is in the URL; the page's own is smaller).
    await page.goto(`${server.origin}/b/big?limit=50`);
    const firstIds = async () => page.locator('#items-table tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    await page.waitForSelector('#items-table');
    expect((await firstIds()).slice(0, 2)).toEqual([id(0), id(1)]);
    expect(await firstIds()).toHaveLength(50);
    for (const want of [50, 100]) {
      await page.click('#next-page');
      await until(async () => (await firstIds())[0] === id(want), 20_000, `page starting at ${want}`);
    }
    expect(page.url()).toMatch(/[?&]after=/);
    await page.reload();
    await until(async () => (await firstIds())[0] === id(100), 20_000, 'the same page after a reload');

    await page.goto(`${server.origin}/b/big?limit=50`);
    await page.waitForSelector('#items-table');
    await page.fill('input[name=meta]', 'group');
    await page.fill('input[name=value]', 'g42');
    await page.click('#filters button[type=submit]');
    await until(async () => (await firstIds())[0] === id(42), 20_000, 'the meta filter');
    const ids = await firstIds();
    expect(ids).toHaveLength(50);
    expect(ids.every((x, k) => x === id(42 + 100 * k))).toBe(true);
    expect(page.url()).toContain('meta=group&value=g42');
    await page.click('#next-page');
    await until(async () => (await firstIds())[0] === id(5042), 20_000, 'the second filtered page');
    await screenshot(page, 'items-filtered');

    await page.goto(`${server.origin}/b/big?q=needle`);
    await until(async () => (await firstIds()).length === 10 || null, 20_000, 'the text filter');
    expect(await firstIds()).toEqual(Array.from({ length: 10 }, (_, k) => id(k * 10_007)));
    expect(await page.locator('#next-page').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
