import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ItemViewSchema } from '../../src/web/api-schemas.js';
import { screenshot, sharedBrowser, type SharedBrowser, until, watchedPage } from './support/browser.js';
import { bearer, webFixture, type WebFixture } from './support/web-fixture.js';

// Hostile answers, pauses, file names and files from the simulator (@hostile); hostile ids, meta
// and questions from the question file itself.
const CSV = [
  'id,question,note,expected',
  `"x<script>window.__resqPwned='id'</script>","<img src=x onerror=""window.__resqPwned='question';alert(1)""> @hostile @files=png,csv","<svg onload=""window.__resqPwned='meta'"">","<img src=y onerror=""window.__resqPwned='expected'"">"`,
  `pick,"Pick one @hostile @choice=multi","<a href=""javascript:window.__resqPwned='meta-link'"">x</a>",`,
  'plain,Plain @files=md,ok,',
].join('\n');

const pwned = () => (globalThis as unknown as { __resqPwned?: string }).__resqPwned ?? null;

describe('hostile content in a real browser', () => {
  let f: WebFixture;
  let browser: SharedBrowser;
  let evil: Server;
  let evilUrl: string;
  beforeAll(async () => {
    [f, browser] = await Promise.all([webFixture({ csv: CSV, name: 'hostile' }), sharedBrowser()]);
    // A page on another origin (another loopback port) that tries to write with the person's cookie.
    evil = createServer((req, res) => {
      const target = `${f.server.origin}/api/batches/hostile/items/pick/answer`;
      res.setHeader('Content-Type', 'text/html');
      res.end(`<!doctype html><form id="f" method="post" action="${target}" enctype="text/plain"><input name='{"person":"Mallory","reply":{"kind":"decline"},"x":"' value='"}'></form>
        <script>fetch(${JSON.stringify(target)}, { method: 'POST', credentials: 'include', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ person: 'Mallory', reply: { kind: 'decline' } }) }).finally(() => document.getElementById('f').submit());</script>`);
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()));
    evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}/`;
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
    await new Promise((r) => evil?.close(r));
    await f?.close();
  });

  it('no payload runs anywhere: batches, batch, item (answer, pause, files), compare — no flag set, no dialog', async () => {
    const ctx = await browser.newContext();
    const { page, dialogs, errors } = await watchedPage(ctx);
    await page.goto(f.server.loginUrl());
    const hostileId = `x<script>window.__resqPwned='id'</script>`;
    const pages = [
      '/',
      '/b/hostile',
      `/b/hostile/i/${encodeURIComponent(hostileId)}`,
      '/b/hostile/i/pick',
      '/b/hostile?meta=note&value=ok',
      '/compare?a=hostile&b=hostile',
    ];
    for (const p of pages) {
      await page.goto(`${f.server.origin}${p}`);
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(pwned), p).toBeNull();
      if (p.startsWith('/compare')) await screenshot(page, 'compare');
    }
    // The hostile item's page: the payloads are shown as text, the SVG only as an image.
    await page.goto(`${f.server.origin}/b/hostile/i/${encodeURIComponent(hostileId)}`);
    await page.waitForSelector('.preview .markdown');
    await page.waitForLoadState('networkidle');
    expect(await page.textContent('h1')).toContain(hostileId);
    expect(await page.textContent('.question')).toContain('<img src=x onerror=');
    // The expected answer under the question, as text.
    expect(await page.textContent('.expected')).toBe(`Expected: <img src=y onerror="window.__resqPwned='expected'">`);
    expect(await page.textContent('#answer')).toContain("<script>window.__resqPwned='script'");
    expect(await page.locator('#answer script, #answer img, #answer iframe, #answer svg, #answer a[href^="javascript"]').count()).toBe(0);
    expect(await page.locator('#answer a[href="https://example.org/paper"]').count()).toBe(1);
    expect(await page.locator('img.file-img[alt="figure.svg"]').count()).toBe(1);
    expect(await page.locator('.files h3').allTextContents()).toContain(`<img src=x onerror="window.__resqPwned='name';alert('name')">.md`);
    await until(async () => (await page.locator('img.file-img[alt="figure.svg"]').evaluate((i) => (i as unknown as { complete: boolean; naturalWidth: number }).complete && (i as unknown as { naturalWidth: number }).naturalWidth > 0)) || null, 10_000, 'the SVG drawn as an image');
    await screenshot(page, 'item-hostile');
    expect(await page.evaluate(pwned)).toBeNull();
    // The pause's hostile labels are text in the form.
    await page.goto(`${f.server.origin}/b/hostile/i/pick`);
    await page.waitForSelector('form.answer');
    expect(await page.textContent('form.answer')).toContain('onerror=');
    expect(await page.locator('.pause img').count()).toBe(0);
    // The SVG opened on its own: the sandbox CSP keeps its script from running.
    const v = ItemViewSchema.parse(await (await fetch(`${f.server.origin}/api/batches/hostile/items/${encodeURIComponent(hostileId)}`, { headers: bearer(f.server) })).json());
    const svg = v.files.find((x) => x.view === 'svg')!;
    await page.goto(`${f.server.origin}/api/batches/hostile/items/${encodeURIComponent(hostileId)}/files/${svg.id}`);
    await page.waitForLoadState('load');
    expect(await page.evaluate(pwned)).toBeNull();
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('a write from a page of another origin is refused (403): nothing recorded', async () => {
    const ctx = await browser.newContext();
    const { page, dialogs } = await watchedPage(ctx);
    await page.goto(f.server.loginUrl()); // the person's cookie is set
    const refused = page.waitForResponse((r) => r.url().endsWith('/items/pick/answer') && r.request().method() === 'POST' && r.status() === 403);
    await page.goto(evilUrl);
    await refused;
    expect(await f.store.decisionsForItem(f.batch.id, 'pick')).toEqual([]);
    expect((await f.store.getItem(f.batch.id, 'pick'))!.state).toBe('held');
    expect(dialogs).toEqual([]);
    await ctx.close();
  });

  it('without the token the page is refused (401) and shows nothing of the batch', async () => {
    const ctx = await browser.newContext();
    const { page } = await watchedPage(ctx);
    const r = await page.goto(`${f.server.origin}/b/hostile`);
    expect(r!.status()).toBe(401);
    expect(await page.textContent('body')).toContain('token required');
    await ctx.close();
  });
});
