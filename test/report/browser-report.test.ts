// The report file opened in a real Chromium from disk (file://), with JavaScript off and on,
// over hostile content: answers, pauses and file names from the simulator (@hostile), and ids,
// questions, scorer names and reasons from the question file and the verdicts. Nothing runs,
// nothing is fetched, and the page still reads.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../src/report/index.js';
import { screenshot, sharedBrowser, type SharedBrowser, watchedPage } from '../web/support/browser.js';
import { webFixture, type WebFixture } from '../web/support/web-fixture.js';

const ID = `x<script>window.__resqPwned='id'</script>\x1b[31m`;

describe('the report in Chromium, from disk, over hostile content', () => {
  let f: WebFixture;
  let browser: SharedBrowser;
  let spy: Server;
  let hits: string[];
  let file: string;
  beforeAll(async () => {
    hits = [];
    spy = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('x');
    });
    await new Promise<void>((r) => spy.listen(0, '127.0.0.1', () => r()));
    const bait = `http://127.0.0.1:${(spy.address() as AddressInfo).port}`;
    const csv = [
      'id,question',
      `"${ID.replace(/"/g, '""')}","<img src=${bait}/question onerror=""window.__resqPwned='question';alert(1)""> @hostile @files=png,csv"`,
      `link,"[click](javascript:window.__resqPwned='qlink') ![p](${bait}/pic.png) <link rel=stylesheet href=${bait}/css> \x07bell\u202eevil"`,
      'plain,Plain @files=md',
    ].join('\n');
    [f, browser] = await Promise.all([webFixture({ csv, name: 'hostile' }), sharedBrowser()]);
    const v = (scorer: string, pass: boolean, reason: string) => ({ scorer, version: 'v1', pass, score: null, reason, scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes' });
    await f.store.recordVerdicts(f.batch.id, ID, [v(`<img src=${bait}/scorer onerror=alert(1)>`, false, `<script>window.__resqPwned='reason'</script><iframe src="${bait}/frame"></iframe>`)]);
    await f.store.recordVerdicts(f.batch.id, 'plain', [v('mentions', true, 'fine')]);
    file = join(f.dir, 'report.html');
    await writeReport(f.store, f.batch, { output: file, serveUrl: bait });
  }, 90_000);
  afterAll(async () => {
    await browser?.release();
    await f?.close();
    await new Promise((r) => spy?.close(r));
  });

  for (const javaScriptEnabled of [false, true]) {
    it(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}: nothing runs, nothing is fetched, every item reads as text`, async () => {
      const ctx = await browser.newContext({ javaScriptEnabled, viewport: { width: 1366, height: 900 } });
      const { page, dialogs, errors } = await watchedPage(ctx);
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      const url = pathToFileURL(file).href;
      await page.goto(url, { waitUntil: 'load' });
      await screenshot(page, `report-hostile-js-${javaScriptEnabled ? 'on' : 'off'}`);
      // Only the file itself was asked for: no picture, style sheet, frame or script from anywhere.
      expect(requests).toEqual([url]);
      expect(hits).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
      // No element that could run or load anything made it into the page.
      expect(await page.locator('script, img, iframe, object, embed, link, svg, form, [onerror], [onload]').count()).toBe(0);
      // Every link is a file beside the report, a place in it, or http(s)/mailto: none runs script.
      const hrefs = await page.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
      expect(hrefs.length).toBeGreaterThan(0);
      for (const h of hrefs) expect(h).toMatch(/^(#|https?:|mailto:|out\/)/);
      // The hostile id reads as text, its terminal escape made visible.
      const first = page.locator('#items tbody tr').first();
      expect(await first.locator('td').first().textContent()).toBe(`x<script>window.__resqPwned='id'</script>\\x1b[31m`);
      expect(await page.locator('#items').textContent()).toContain(`<script>window.__resqPwned='reason'</script>`);
      expect(await page.locator('#items').textContent()).toContain('\\x07bell\\u202eevil');
      expect(await page.locator('#items tbody tr').count()).toBe(3);
      // No raw control or direction override anywhere (answers included): each shown as its escape.
      expect(await page.locator('body').textContent()).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      expect(await page.locator('#items tbody tr').nth(1).locator('td').nth(3).textContent()).toContain('\\x07bell\\u202eevil');
      // A file link opens the file downloaded beside the report.
      expect(hrefs.some((h) => h.startsWith('out/'))).toBe(true);
      if (javaScriptEnabled) expect(await page.evaluate(() => (globalThis as unknown as { __resqPwned?: string }).__resqPwned ?? null)).toBeNull();
      await ctx.close();
    });
  }
});
