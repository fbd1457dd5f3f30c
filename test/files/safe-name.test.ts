import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  batchFolderName,
  cutToBytes,
  extensionFor,
  fileNameFor,
  isInside,
  resolveInside,
  safeFolderName,
  safeSegment,
  uniqueName,
  UnsafePathError,
  withCollisionSuffix,
} from '../../src/files/safe-name.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('safeSegment', () => {
  it.each([
    ['../../etc/passwd', '_.._etc_passwd'],
    ['/abs/path', '_abs_path'],
    ['a/b', 'a_b'],
    ['a\\b', 'a_b'],
    ['..', 'fb'],
    ['.', 'fb'],
    ['', 'fb'],
    ['   ', 'fb'],
    ['.hidden', 'hidden'],
    ['name. . ', 'name'],
    ['a\u0000b', 'a_b'],
    ['line\nbreak\r.txt', 'line_break_.txt'],
    ['x<>:"|?*y', 'x_______y'],
    ['tab\there', 'tab_here'],
    ['\u202Egnp.exe', '_gnp.exe'],
    ['résumé.md', 'résumé.md'],
    ['日本語のファイル.csv', '日本語のファイル.csv'],
  ])('makes %j safe as %j', (raw, safe) => {
    expect(safeSegment(raw, 'fb')).toBe(safe);
  });

  it.each([
    ['CON', 'CON_'],
    ['con.txt', 'con_.txt'],
    ['Nul.tar.gz', 'Nul_.tar.gz'],
    ['COM1', 'COM1_'],
    ['lpt9.pdb', 'lpt9_.pdb'],
    ['CONSOLE.md', 'CONSOLE.md'],
    ['aux-file', 'aux-file'],
  ])('suffixes the Windows device name %j', (raw, safe) => {
    expect(safeSegment(raw)).toBe(safe);
  });

  it('bounds a 300-byte name to 200 bytes keeping its extension', () => {
    const name = `${'é'.repeat(150)}.csv`;
    expect(bytes(name)).toBe(304);
    const safe = safeSegment(name);
    expect(bytes(safe)).toBeLessThanOrEqual(200);
    expect(safe.endsWith('.csv')).toBe(true);
    expect(safe).toBe(`${'é'.repeat(98)}.csv`);
  });

  it('never cuts inside a character or an emoji sequence', () => {
    const family = '👨‍👩‍👧';
    const cut = cutToBytes(family.repeat(20), 50);
    expect(bytes(cut)).toBeLessThanOrEqual(50);
    expect(cut).toBe(family.repeat(Math.floor(50 / bytes(family))));
    expect(cut.includes('\ufffd')).toBe(false);
  });

  it('cuts a name whose extension is too long as a whole', () => {
    const safe = safeSegment(`x.${'b'.repeat(300)}`);
    expect(bytes(safe)).toBe(200);
  });

  it('normalises to NFC and drops lone surrogates', () => {
    expect(safeSegment('e\u0301.md')).toBe('é.md');
    expect(safeSegment('a\ud800b')).toBe('a_b');
  });

  it('falls back twice when the fallback is unusable too', () => {
    expect(safeSegment('..', '..')).toBe('file');
  });
});

describe('fileNameFor', () => {
  it.each([
    ['text/markdown', '.md'],
    ['text/markdown; charset=utf-8', '.md'],
    ['text/csv', '.csv'],
    ['image/png', '.png'],
    ['image/jpeg', '.jpg'],
    ['image/svg+xml', '.svg'],
    ['chemical/x-pdb', '.pdb'],
    ['application/pdf', '.pdf'],
    ['application/json', '.json'],
    ['text/plain', '.txt'],
    ['application/x-unknown', '.bin'],
    [null, '.bin'],
  ])('names a nameless %s file with %s', (type, ext) => {
    expect(extensionFor(type)).toBe(ext);
    expect(fileNameFor(null, 'file_1', type)).toBe(`file_1${ext}`);
  });

  it('keeps a usable service name and replaces an unusable one by the id', () => {
    expect(fileNameFor('report.md', 'f1', 'text/markdown')).toBe('report.md');
    expect(fileNameFor('..', 'f1', 'text/csv')).toBe('f1.csv');
    expect(fileNameFor('', 'f1', 'image/png')).toBe('f1.png');
    expect(fileNameFor(null, '../evil', 'image/png')).toBe('_evil.png');
  });
});

describe('collisions', () => {
  it('suffixes a taken name before the extension, within the byte bound', () => {
    expect(withCollisionSuffix('table.csv', 2)).toBe('table (2).csv');
    expect(withCollisionSuffix('README', 3)).toBe('README (3)');
    const long = `${'a'.repeat(196)}.csv`;
    const s = withCollisionSuffix(long, 12);
    expect(bytes(s)).toBeLessThanOrEqual(200);
    expect(s.endsWith(' (12).csv')).toBe(true);
  });

  it('picks the first free name, comparing case-insensitively', () => {
    const taken = new Set(['r.md', 'r (2).md']);
    expect(uniqueName('R.md', (c) => taken.has(c.toLowerCase()))).toBe('R (3).md');
    expect(uniqueName('s.md', (c) => taken.has(c))).toBe('s.md');
  });

  it('gives lossy folder names a hash of the original so distinct ids stay distinct', () => {
    expect(safeFolderName('item-1', 'item')).toBe('item-1');
    const a = safeFolderName('a/b', 'item');
    const b = safeFolderName('a_b', 'item');
    expect(a).toMatch(/^a_b-[0-9a-f]{8}$/);
    expect(b).toBe('a_b');
    expect(safeFolderName('..', 'item')).toMatch(/^item-[0-9a-f]{8}$/);
    expect(bytes(safeFolderName('é'.repeat(300), 'item'))).toBeLessThanOrEqual(200);
  });
});

describe('resolveInside', () => {
  const root = resolve('/tmp/resq-out');
  it('joins safe segments under the root', () => {
    expect(resolveInside(root, 'b', 'i', 'f.md')).toBe(join(root, 'b', 'i', 'f.md'));
  });

  it.each([['..'], ['../x'], ['/etc/passwd'], ['a/../../x'], ['']])('refuses %j', (seg) => {
    expect(() => resolveInside(root, seg)).toThrow(UnsafePathError);
  });

  it('accepts a name that merely starts with two dots', () => {
    expect(isInside(root, join(root, '..x'))).toBe(true);
    expect(isInside(root, `${root}-sibling/x`)).toBe(false);
  });
});

describe('batchFolderName', () => {
  it('is the safe name and the start of the id, so one name in two databases makes two folders', () => {
    expect(batchFolderName('extra', '1a2b3c4d-5e6f-4a1b-8c9d-0e1f2a3b4c5d')).toBe('extra-1a2b3c4d');
    expect(batchFolderName('extra', '9f8e7d6c-0000-4000-8000-000000000000')).toBe('extra-9f8e7d6c');
  });

  it('stays within the name limit and safe for a long or hostile name', () => {
    const long = batchFolderName('é'.repeat(300), 'abcdef01-x');
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(200);
    expect(long.endsWith('-abcdef01')).toBe(true);
    expect(batchFolderName('../up', 'abcdef01')).toMatch(/^_up-[0-9a-f]{8}-abcdef01$/);
  });
});
