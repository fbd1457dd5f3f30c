// The batch page's document (/b/NAME) as the server makes it: a page of the store's items with
// its filters and First / Previous / Next links in the HTML itself (no script needed), one URL
// per page, a bad query said in one line, and everything from the user's file escaped.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBatch } from '../../src/runner/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import { tempDir } from '../support/cli.js';
import { testSettings } from '../support/in-process.js';
import { bearer, rawRequest } from './support/web-fixture.js';

const N = 45;
/** A batch name with markup, quotes and replacement patterns in it. */
const ODD = `$' $& <i>x</i> ü/2`;
const id = (i: number) => `q${String(i).padStart(2, '0')}`;
const HOSTILE_ID = `x<b>"'&`;
const CSV = ['id,question,lab', ...Array.from({ length: N }, (_, i) => `${id(i)},Question ${i},lab${i % 2}`), `"${HOSTILE_ID.replace(/"/g, '""')}","<script>alert(1)</script> ünï",<img src=x onerror=alert(1)>`].join('\n');

describe('GET /b/NAME: the batch page with its items made on the server', () => {
  let store: Store;
  let server: WebServer;
  beforeAll(async () => {
    const dir = tempDir('resq-web-page-');
    const questions = join(dir, 'set.csv');
    writeFileSync(questions, CSV);
    store = await openStore(join(dir, 'resq.db'));
    await loadBatch({ store, questions, name: 'set', settings: testSettings(2), policy: null, baseUrl: 'http://127.0.0.1:9' });
    await loadBatch({ store, questions, name: ODD, settings: testSettings(2), policy: null, baseUrl: 'http://127.0.0.1:9' });
    server = await startWebServer({ store, port: 0 });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await store?.close();
  });

  const get = async (path: string) => rawRequest(`${server.origin}${path}`, { headers: { ...bearer(server), Host: new URL(server.origin).host } });
  const rows = (html: string) => [...html.matchAll(/<tr data-id="([^"]*)"/g)].map((m) => m[1]!.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&'));
  const link = (html: string, name: string) => {
    const m = new RegExp(`<a id="${name}"[^>]* href="([^"]*)"`).exec(html);
    return m ? m[1]!.replace(/&amp;/g, '&') : null;
  };
  const range = (from: number, n: number) => Array.from({ length: n }, (_, k) => id(from + k));

  it('the first page: 20 items in the document, Next and no Previous, the page size and filters a GET form', async () => {
    const r = await get('/b/set');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.body).toContain('<title>resq — set</title>');
    expect(r.body).toContain('<script type="module" src="/static/app.js"></script>');
    expect(r.body).toMatch(/<form id="filters" class="filters" method="get" action="\/b\/set">/);
    expect(r.body).toContain('<select name="limit" id="page-size">');
    expect(rows(r.body)).toEqual(range(0, 20));
    expect(link(r.body, 'prev-page')).toBeNull();
    expect(link(r.body, 'first-page')).toBeNull();
    expect(link(r.body, 'next-page')).toMatch(/^\/b\/set\?after=/);
  });

  it('pages by its links alone: Next, Next, Previous, Previous, First; a page size kept by the links; the last page has no Next', async () => {
    const p2 = await get(link((await get('/b/set')).body, 'next-page')!);
    expect(rows(p2.body)).toEqual(range(20, 20));
    const p3 = await get(link(p2.body, 'next-page')!);
    expect(rows(p3.body)).toEqual([...range(40, 5), HOSTILE_ID]);
    expect(link(p3.body, 'next-page')).toBeNull();
    expect(p3.body).toContain('Last page.');
    const back2 = await get(link(p3.body, 'prev-page')!);
    expect(link(p3.body, 'prev-page')).toMatch(/^\/b\/set\?before=/);
    expect(rows(back2.body)).toEqual(range(20, 20));
    const back1 = await get(link(back2.body, 'prev-page')!);
    expect(rows(back1.body)).toEqual(range(0, 20));
    expect(link(back1.body, 'prev-page')).toBeNull();
    expect(link(back1.body, 'first-page')).toBe('/b/set');
    const big = await get('/b/set?state=queued&meta=lab&value=lab1&limit=10');
    expect(rows(big.body)).toEqual(range(0, 20).filter((_, i) => i % 2 === 1));
    expect(link(big.body, 'next-page')).toMatch(/^\/b\/set\?state=queued&meta=lab&value=lab1&limit=10&after=/);
    expect(rows((await get(link(big.body, 'next-page')!)).body)).toEqual(range(20, 20).filter((_, i) => i % 2 === 1));
  });

  it('one URL per page: the form\'s empty fields and a state per checkbox go to the plain address (303)', async () => {
    const r = await get('/b/set?state=queued&state=held&meta=&value=&q=&sort=seq&limit=20');
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/b/set?state=queued%2Cheld');
    const plain = await get(r.headers.location as string);
    expect(plain.status).toBe(200);
    expect(rows(plain.body)).toEqual(range(0, 20));
  });

  it('a query it cannot read: 400, one line naming the field (escaped), the form to start again; a batch it does not know: 404', async () => {
    const bad = await get('/b/set?state=%3Cb%3Enope');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('<p class="error" id="items-error">query: state: &quot;&lt;b&gt;nope&quot; is not one of queued, ');
    expect(bad.body).not.toContain('<b>nope');
    expect((await get('/b/set?limit=0')).body).toMatch(/id="items-error">query: limit: /);
    expect((await get('/b/set?after=garbage')).body).toContain("query: after: not a cursor this server gave (a page&#39;s `next`)");
    const none = await get('/b/%3Cimg%20src%3Dx%3E');
    expect(none.status).toBe(404);
    expect(none.body).toContain('<p class="error" id="batch-missing">no batch named "&lt;img src=x&gt;"</p>');
    expect(none.body).not.toContain('<img src=x>');
  });

  it('escapes what the user\'s file holds: id, question and meta are text in the HTML', async () => {
    const r = await get('/b/set?q=%C3%BCn%C3%AF');
    expect(rows(r.body)).toEqual([HOSTILE_ID]);
    expect(r.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; ünï');
    expect(r.body).toContain('lab=&lt;img src=x onerror=alert(1)&gt;');
    expect(r.body).toContain(`href="/b/set/i/${encodeURIComponent(HOSTILE_ID).replace(/'/g, '&#39;')}"`);
    const section = r.body.slice(r.body.indexOf('<section id="items">'));
    expect(section).not.toMatch(/<script|<img|<b>/);
    expect(r.body.match(/<script/g)).toHaveLength(1);
  });

  it('a batch name with markup and $-patterns: escaped in the title, heading and links, the document whole', async () => {
    const r = await get(`/b/${encodeURIComponent(ODD)}`);
    expect(r.status).toBe(200);
    const esc = `$&#39; $&amp; &lt;i&gt;x&lt;/i&gt; ü/2`;
    expect(r.body).toContain(`<title>resq — ${esc}</title>`);
    expect(r.body).toContain(`<h1>${esc}</h1>`);
    expect(r.body).not.toContain('<i>x</i>');
    expect(r.body.match(/<\/html>/g)).toHaveLength(1);
    expect(rows(r.body)).toEqual(range(0, 20));
    const next = link(r.body, 'next-page')!;
    expect(next.startsWith(`/b/${encodeURIComponent(ODD)}?after=`.replace(/'/g, '&#39;'))).toBe(true);
    expect(rows((await get(next.replace(/&#39;/g, "'"))).body)).toEqual(range(20, 20));
  });

  it('without the token or a session the page is refused (401) and shows no item', async () => {
    const r = await rawRequest(`${server.origin}/b/set`);
    expect(r.status).toBe(401);
    expect(r.body).not.toContain('q00');
  });
});
