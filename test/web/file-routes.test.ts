import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_CSP } from '../../src/web/security.js';
import { ItemViewSchema } from '../../src/web/api-schemas.js';
import { bearer, webFixture, type WebFixture } from './support/web-fixture.js';

describe('files in the web view', () => {
  let f: WebFixture;
  let files: { id: string; name: string | null; view: string }[];
  beforeAll(async () => {
    f = await webFixture();
    const r = await fetch(`${f.server.origin}/api/batches/web/items/bad`, { headers: bearer(f.server) });
    files = ItemViewSchema.parse(await r.json()).files;
  }, 60_000);
  afterAll(async () => f?.close());

  const raw = (id: string, suffix = '') => fetch(`${f.server.origin}/api/batches/web/items/bad/files/${encodeURIComponent(id)}${suffix}`, { headers: bearer(f.server) });
  const byView = (v: string) => files.find((x) => x.view === v)!;

  it('a PNG is shown inline as itself, under the sandbox CSP', async () => {
    const r = await raw(byView('image').id);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('content-disposition')).toMatch(/^inline; /);
    expect(r.headers.get('content-security-policy')).toBe(FILE_CSP);
    expect(Buffer.from(await r.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
  });

  it('an SVG is served as an image under a sandbox CSP (the page shows it only as <img>)', async () => {
    const r = await raw(byView('svg').id);
    expect(r.headers.get('content-type')).toBe('image/svg+xml');
    expect(r.headers.get('content-security-policy')).toContain('sandbox');
    expect(r.headers.get('content-security-policy')).not.toContain('script-src');
  });

  it('an HTML page is a download (octet-stream, attachment), never a document of this site', async () => {
    const r = await raw(byView('download').id);
    expect(r.headers.get('content-type')).toBe('application/octet-stream');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="page.html"; filename*=UTF-8''page.html`);
    expect(r.headers.get('content-security-policy')).toBe(FILE_CSP);
  });

  it('a markup file name is percent-encoded in the header; its Markdown preview is rendered without raw HTML', async () => {
    const md = byView('markdown');
    expect(md.name).toContain('<img');
    const r = await raw(md.id);
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="_img_src_x_onerror_[^"]*"; filename\*=UTF-8''%3Cimg/);
    const p = (await (await raw(md.id, '/preview')).json()) as { kind: string; html: string };
    expect(p.kind).toBe('markdown');
    expect(p.html).toContain('&lt;script&gt;');
    expect(p.html).not.toMatch(/<script|<img|href="javascript/);
  });

  it('CSV previews as rows; a file of another item or an unknown one is 404', async () => {
    const v = ItemViewSchema.parse(await (await fetch(`${f.server.origin}/api/batches/web/items/plain`, { headers: bearer(f.server) })).json());
    const csv = v.files.find((x) => x.view === 'csv')!;
    const p = (await (await fetch(`${f.server.origin}/api/batches/web/items/plain/files/${csv.id}/preview`, { headers: bearer(f.server) })).json()) as { kind: string; rows: string[][] };
    expect(p.kind).toBe('csv');
    expect(p.rows[0]).toEqual(['index', 'residue', 'plddt']);
    expect((await raw(csv.id)).status).toBe(404);
    expect((await raw('nope')).status).toBe(404);
  });
});
