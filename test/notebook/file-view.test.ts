import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileKind, renderFile, whyNotOnDisk, type FileView } from '../../src/notebook/file-view.js';
import { tempDir } from '../support/cli.js';
import { findAll, parseXml, textOf } from './support/xml.js';

let dir: string;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), deflateSync(Buffer.from('not really pixels'))]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);

function file(name: string, over: Partial<FileView> = {}): FileView {
  return {
    id: `file_${name}`,
    name,
    role: 'report',
    mediaType: null,
    status: 'downloaded',
    path: join(dir, name),
    bytes: null,
    error: null,
    expiresAt: '2030-01-01T00:00:00.000Z',
    ...over,
  };
}

beforeAll(() => {
  dir = tempDir('resq-file-view-');
  writeFileSync(join(dir, 'figure.png'), PNG);
  writeFileSync(join(dir, 'photo.jpg'), JPEG);
  writeFileSync(join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><circle r="4"/></svg>');
  writeFileSync(join(dir, 'report.md'), '# Report\n\nSome *text*.\n');
  writeFileSync(join(dir, 'table.csv'), 'name,value,name\n"a, quoted",1,x\nb<>,2,y\n');
  writeFileSync(join(dir, 'structure.pdb'), 'ATOM      1  N   MET A   1\n');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'big.md'), `${'line of text\n'.repeat(200)}`);
});

describe('file rendering', () => {
  it('knows a file kind by media type (parameters ignored), else by extension', () => {
    expect(fileKind('text/markdown; charset=utf-8', null)).toBe('markdown');
    expect(fileKind('IMAGE/JPEG', 'x.bin')).toBe('jpeg');
    expect(fileKind(null, 'plot.SVG')).toBe('svg');
    expect(fileKind('application/octet-stream', 'data.csv')).toBe('csv');
    expect(fileKind('chemical/x-pdb', 'structure.pdb')).toBe('other');
  });

  it('PNG and JPEG become base64 images of the exact bytes', () => {
    const png = renderFile(file('figure.png', { mediaType: 'image/png', role: 'figure' }));
    expect(Buffer.from(png['image/png'] ?? '', 'base64').equals(PNG)).toBe(true);
    expect(png['text/plain']).toContain('figure.png (figure)');
    const jpg = renderFile(file('photo.jpg'));
    expect(Object.keys(jpg).sort()).toEqual(['image/jpeg', 'text/plain']);
    expect(Buffer.from(jpg['image/jpeg'] ?? '', 'base64').equals(JPEG)).toBe(true);
  });

  it('SVG files show through <img> (their scripts never run) and keep the SVG itself', () => {
    const b = renderFile(file('logo.svg', { mediaType: 'image/svg+xml' }));
    const img = parseXml(b['text/html'] ?? '');
    expect(img.name).toBe('img');
    expect(img.attrs.src).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from((img.attrs.src ?? '').split(',')[1] ?? '', 'base64').toString()).toContain('<circle');
    expect(b['image/svg+xml']).toContain('<circle r="4"/>');
  });

  it('Markdown renders as Markdown; a long file is cut at a line end with a note', () => {
    expect(renderFile(file('report.md', { mediaType: 'text/markdown; charset=utf-8' }))['text/markdown']).toBe('# Report\n\nSome *text*.\n');
    const big = renderFile(file('big.md', { path: join(dir, 'sub', 'big.md') }), { maxTextBytes: 100 })['text/markdown'] ?? '';
    expect(big.startsWith('line of text\n'.repeat(7))).toBe(true);
    expect(big).toContain('cut here: the whole file is');
  });

  it('CSV becomes an HTML table with its header, quoted fields and duplicate names kept apart', () => {
    const b = renderFile(file('table.csv', { mediaType: 'text/csv' }));
    const root = parseXml(`<div>${b['text/html']}</div>`);
    expect(findAll(root, 'th').map(textOf)).toEqual(['name', 'value', 'name 3']);
    expect(findAll(root, 'td').map(textOf)).toEqual(['a, quoted', '1', 'x', 'b<>', '2', 'y']);
    expect(textOf(findAll(root, 'caption')[0]!)).toBe('table.csv (report) — 2 rows');
    const few = renderFile(file('table.csv'), { maxCsvRows: 1 });
    expect(few['text/html']).toContain('showing 1 of 2 rows');
  });

  it('any other file is its path and size', () => {
    const b = renderFile(file('structure.pdb', { mediaType: 'chemical/x-pdb', role: 'structureId' }));
    expect(b['text/plain']).toBe(`structure.pdb (structureId): ${join(dir, 'structure.pdb')} (27 B, chemical/x-pdb)`);
    expect(b['text/html']).toContain('<code>');
  });

  it('relative recorded paths resolve against baseDir', () => {
    expect(renderFile(file('report.md', { path: 'report.md' }), { baseDir: dir })['text/markdown']).toContain('# Report');
  });

  it('a file not downloaded says its status and how to fetch it', () => {
    const pending = file('late.csv', { status: 'pending', path: null });
    expect(whyNotOnDisk(pending, null)).toBe('late.csv (report) is not on disk (status pending); `resq files pull` fetches it while the service keeps it (until 2030-01-01T00:00:00.000Z)');
    expect(renderFile(pending)['text/plain']).toContain('not on disk (status pending)');
    const expired = renderFile(file('old.png', { status: 'expired', path: null, error: 'HTTP 404' }));
    expect(expired['text/plain']).toBe('old.png (report) is not on disk (status expired: HTTP 404); the service has deleted it');
  });

  it('a downloaded file gone from disk says where it was', () => {
    const gone = renderFile(file('gone.png', { mediaType: 'image/png' }));
    expect(gone['image/png']).toBeUndefined();
    expect(gone['text/plain']).toBe(`gone.png (report) was downloaded to ${join(dir, 'gone.png')} but is not there any more; \`resq files pull\` fetches it again`);
  });

  it('an image over the inline limit is listed, not embedded', () => {
    const b = renderFile(file('figure.png', { mediaType: 'image/png' }), { maxImageBytes: 10 });
    expect(b['image/png']).toBeUndefined();
    expect(b['text/plain']).toContain('too large to show inline');
  });
});
