import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, sharedBrowser, type SharedBrowser, until, watchedPage } from './support/browser.js';
import { serveChild, type ServeChild } from './support/serve-child.js';
import { webFixture, type WebFixture } from './support/web-fixture.js';

/** The service's API key: the batch ran with it and `resq serve` holds it (to cancel runs); no byte of it may reach the page. */
const KEY = `resq-secret-key-${randomUUID()}`;

/** Records the data of every event the page's event streams deliver (the page's own EventSource, wrapped before its script runs). */
const RECORD_EVENTS = `
  window.__events = [];
  const Original = window.EventSource;
  window.EventSource = class extends Original {
    constructor(url, init) {
      super(url, init);
      this.addEventListener('overview', (ev) => window.__events.push(ev.data));
    }
  };
`;

describe('the API key never reaches the browser', () => {
  let f: WebFixture;
  let serve: ServeChild;
  let browser: SharedBrowser;
  beforeAll(async () => {
    [f, browser] = await Promise.all([webFixture({ name: 'keyed', keys: { [KEY]: 'carol' } }), sharedBrowser()]);
    serve = await serveChild(['--db', join(f.dir, 'resq.db'), '--port', '0'], { RESQ_API_KEY: KEY });
  }, 60_000);
  afterAll(async () => {
    await browser?.release();
    await serve?.stop();
    await f?.close();
  });

  it('no response, event or request of the batches, batch, item and compare pages holds the key; nothing goes to the service', async () => {
    const ctx = await browser.newContext();
    await ctx.addInitScript(RECORD_EVENTS);
    const { page, errors } = await watchedPage(ctx);
    const requests: string[] = [];
    const leaks: string[] = [];
    const reads: Promise<void>[] = [];
    const bodies: string[] = [];
    page.on('request', (r) => {
      requests.push(r.url());
      if (`${r.url()} ${JSON.stringify(r.headers())} ${r.postData() ?? ''}`.includes(KEY)) leaks.push(`request ${r.url()}`);
    });
    page.on('response', (r) => {
      if (JSON.stringify(r.headers()).includes(KEY)) leaks.push(`headers of ${r.url()}`);
      // An event stream stays open (its body never ends): its events are recorded in the page instead.
      if ((r.headers()['content-type'] ?? '').startsWith('text/event-stream')) return;
      reads.push(
        r.body().then(
          (b) => {
            bodies.push(r.url());
            if (b.includes(KEY)) leaks.push(`body of ${r.url()}`);
          },
          () => undefined, // a redirect or an aborted image has no body
        ),
      );
    });

    await page.goto(serve.url);
    await page.waitForSelector('#batches');
    await page.goto(`${serve.origin}/b/keyed`);
    await page.waitForSelector('#counts');
    await until(async () => (await page.locator('#items-table tbody tr').count()) > 0, 10_000, 'the items table');
    // The chart is an image the page loads on its own: read whole before the page is left (on a busy machine it comes last).
    await until(async () => bodies.some((u) => new URL(u).pathname === '/api/batches/keyed/charts/states.svg') || null, 10_000, 'the states chart');
    const events = await until(async () => {
      const e = await page.evaluate('window.__events');
      return Array.isArray(e) && e.length > 0 ? (e as string[]) : null;
    }, 10_000, 'an overview event');
    for (const path of ['/b/keyed/i/plain', '/b/keyed/i/plan', '/compare?a=keyed&b=keyed']) {
      await page.goto(`${serve.origin}${path}`);
      await page.waitForLoadState('networkidle');
    }
    await screenshot(page, 'compare-keyed');
    await Promise.all(reads);

    expect(JSON.parse(events[0]!)).toMatchObject({ name: 'keyed' });
    for (const e of events) expect(e).not.toContain(KEY);
    // The page (its items in it), its scripts and styles, the JSON of every view, the charts, the item's files and previews were all read.
    for (const part of ['/b/keyed', '/static/app.js', '/static/style.css', '/static/js/confirm.js', '/api/batches', '/api/batches/keyed/held', '/api/batches/keyed/charts/states.svg', '/api/batches/keyed/items/plain', '/api/batches/keyed/items/plan', '/api/compare'])
      expect(bodies.some((u) => new URL(u).pathname === part), part).toBe(true);
    expect(bodies.some((u) => new URL(u).pathname.startsWith('/api/batches/keyed/items/plain/files/'))).toBe(true);
    expect(leaks).toEqual([]);
    // Everything the page asked for came from resq serve: never from the service.
    const service = new URL(f.sim.url).origin;
    expect(requests.filter((u) => u.startsWith(service))).toEqual([]);
    expect(requests.filter((u) => /^https?:/.test(u) && new URL(u).origin !== serve.origin)).toEqual([]);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
