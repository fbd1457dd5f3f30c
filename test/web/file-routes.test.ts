import { appendFileSync, copyFileSync, linkSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileRecord } from '../../src/store/index.js';
import { FILE_CSP } from '../../src/web/security.js';
import { ItemViewSchema } from '../../src/web/api-schemas.js';
import { startWebServer, type WebServer } from '../../src/web/server.js';
import { fileView } from '../../src/web/views.js';
import { tempDir } from '../support/cli.js';
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

/**
 * A web batch with its files downloaded, served with a log the test reads (hooks registered
 * in the calling describe): the item `plain`'s files on disk, and how a refusal looks.
 */
function servedPlainFiles() {
  let f: WebFixture;
  let server: WebServer;
  const lines: string[] = [];
  let files: FileRecord[];
  beforeAll(async () => {
    f = await webFixture();
    server = await startWebServer({ store: f.store, port: 0, log: (l) => lines.push(l) });
    files = (await f.store.filesForItem(f.batch.id, 'plain')).filter((x) => x.status === 'downloaded');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await f?.close();
  });
  const get = (file: FileRecord, suffix = '') => fetch(`${server.origin}/api/batches/web/items/${file.itemId}/files/${encodeURIComponent(file.id)}${suffix}`, { headers: bearer(server) });
  return {
    fixture: () => f,
    files: () => files,
    get,
    byType: (t: string) => files.find((x) => fileView(x) === t)!,
    /** Both routes answer 404 without the file's bytes, and the server logs one line each naming the file and why. */
    refused: async (file: FileRecord, why: RegExp) => {
      lines.length = 0;
      for (const suffix of ['', '/preview']) {
        const r = await get(file, suffix);
        expect(r.status, suffix).toBe(404);
        const body = await r.text();
        expect(body).toContain('not where resq put it');
        expect(body).not.toMatch(/root:|RESQ_API_KEY|PATH=/);
      }
      expect(lines).toHaveLength(2);
      for (const l of lines) expect(l).toMatch(new RegExp(`^file "${file.id}" of item "plain" \\(batch "web"\\) not served: ${why.source}`));
    },
  };
}

describe('files only from where resq put them', () => {
  const { fixture, get, byType, refused } = servedPlainFiles();
  /** Points the file's row at `path` with `bytes` (as a worker writing the database could). */
  const repoint = (file: FileRecord, path: string, bytes: number) =>
    fixture().store.markFileDownloaded(fixture().batch.id, file.id, { path, bytes, sha256: file.sha256 ?? '', mediaType: file.mediaType, host: hostname() });

  it('serves a file in the out folder with its recorded size, bytes and preview alike, never kept in a cache', async () => {
    const csv = byType('csv');
    const r = await get(csv);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await r.arrayBuffer())).toEqual(readFileSync(csv.path!));
    const p = await get(csv, '/preview');
    expect(p.status).toBe(200);
    expect(p.headers.get('cache-control')).toBe('no-store');
  });

  it('a symlink in the out folder to /etc/passwd is refused, page and preview, with one log line naming the item and why', async () => {
    const md = byType('markdown');
    rmSync(md.path!);
    symlinkSync('/etc/passwd', md.path!);
    await repoint(md, md.path!, statSync('/etc/passwd').size);
    await refused(md, /a part of its path is a symlink/);
  });

  it('a file whose size on disk is not the size resq recorded is refused', async () => {
    const png = byType('image');
    appendFileSync(png.path!, 'more');
    await refused(png, /its size on disk \(\d+ bytes\) is not the size resq recorded \(\d+\)/);
  });

  it('a row whose path is outside the out folder is refused: /proc/self/environ, a file elsewhere of the recorded size, ../ in the path', async () => {
    const txt = byType('text');
    await repoint(txt, '/proc/self/environ', 0);
    await refused(txt, /its recorded path is outside the batch's out folder/);
    const elsewhere = join(tempDir('resq-web-elsewhere-'), 'secret.txt');
    writeFileSync(elsewhere, 'RESQ_API_KEY=stolen\n');
    await repoint(txt, elsewhere, statSync(elsewhere).size);
    await refused(txt, /its recorded path is outside the batch's out folder/);
    await repoint(txt, join(fixture().dir, 'out', '..', 'elsewhere', '..', '..', basename(elsewhere)), statSync(elsewhere).size);
    await refused(txt, /its recorded path is outside the batch's out folder/);
  });

  // Last: it moves the item's folder.
  it('a symlinked folder on the way is refused, even when the file behind it is the right size', async () => {
    const csv = byType('csv');
    const outside = tempDir('resq-web-outside-');
    const itemDir = dirname(csv.path!);
    renameSync(itemDir, join(outside, 'moved'));
    symlinkSync(join(outside, 'moved'), itemDir);
    await refused(csv, /a part of its path is a symlink/);
  });
});

describe('files only as resq wrote them (device and inode recorded at download, one link)', () => {
  const { files, get, byType, refused } = servedPlainFiles();

  it('the download recorded each file\'s device and inode, and the genuine file is served', async () => {
    for (const x of files()) {
      const st = statSync(x.path!, { bigint: true });
      expect([x.id, x.dev, x.ino]).toEqual([x.id, st.dev.toString(), st.ino.toString()]);
    }
    const csv = byType('csv');
    const r = await get(csv);
    expect(r.status).toBe(200);
    expect(Buffer.from(await r.arrayBuffer())).toEqual(readFileSync(csv.path!));
  });

  it('a hard link in the out folder to a file outside it, of the recorded size, is refused with one log line', async () => {
    const md = byType('markdown');
    const secret = join(tempDir('resq-web-secret-'), 'secret.txt');
    writeFileSync(secret, 'RESQ_API_KEY=stolen'.padEnd(md.bytes!, '!'));
    rmSync(md.path!);
    linkSync(secret, md.path!);
    await refused(md, /it has 2 links/);
  });

  it('a file replaced under its name (the same bytes, a new inode) is refused', async () => {
    const png = byType('image');
    const copy = `${png.path!}.copy`;
    copyFileSync(png.path!, copy);
    renameSync(copy, png.path!);
    await refused(png, /it is not the file resq wrote \(its device and inode differ: replaced since\)/);
  });

  it('a file changed in size since it was written is refused', async () => {
    const text = byType('text');
    appendFileSync(text.path!, 'more');
    await refused(text, /its size on disk \(\d+ bytes\) is not the size resq recorded \(\d+\)/);
  });
});
