import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PathBook } from '../../src/files/path-book.js';

const folder = resolve('/out/b/item');

describe('PathBook', () => {
  it('gives the wanted name when free and suffixes it for another file', () => {
    const book = new PathBook();
    expect(book.claim(folder, 'r.md', 'f1')).toBe(join(folder, 'r.md'));
    expect(book.claim(folder, 'r.md', 'f2')).toBe(join(folder, 'r (2).md'));
    expect(book.claim(folder, 'R.MD', 'f3')).toBe(join(folder, 'R (3).MD'));
    expect(book.claim(folder, 'r.md', 'f1')).toBe(join(folder, 'r.md'));
  });

  it('starts from the paths the store records and keeps a file on its own path', () => {
    const book = new PathBook([{ id: 'old', path: join(folder, 'table.csv') }]);
    expect(book.claim(folder, 'table.csv', 'new')).toBe(join(folder, 'table (2).csv'));
    expect(book.claim(folder, 'other-name.csv', 'old', join(folder, 'table.csv'))).toBe(join(folder, 'table.csv'));
  });

  it('does not keep a recorded path from another folder (a different --out)', () => {
    const book = new PathBook([{ id: 'f', path: '/elsewhere/b/item/t.csv' }]);
    expect(book.claim(folder, 't.csv', 'f', '/elsewhere/b/item/t.csv')).toBe(join(folder, 't.csv'));
  });

  it('frees a released path for the next file', () => {
    const book = new PathBook();
    const p = book.claim(folder, 'x.png', 'a');
    book.release(p, 'b');
    expect(book.owns(p, 'a')).toBe(true);
    book.release(p, 'a');
    expect(book.claim(folder, 'x.png', 'b')).toBe(p);
  });

  it('treats item folders that differ only in case as one folder', () => {
    const book = new PathBook();
    book.claim(resolve('/out/b/Item'), 'r.md', 'f1');
    expect(book.claim(resolve('/out/b/item'), 'r.md', 'f2')).toBe(join(resolve('/out/b/item'), 'r (2).md'));
  });
});
