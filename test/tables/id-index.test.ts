import { describe, expect, it } from 'vitest';
import { IdIndex } from '../../src/tables/id-index.js';

describe('IdIndex', () => {
  it('records new ids and finds repeated ones with the line first seen', () => {
    const ids = new IdIndex();
    expect(ids.addOrFind('a', 2)).toBeUndefined();
    expect(ids.addOrFind('b', 3)).toBeUndefined();
    expect(ids.addOrFind('a', 9)).toBe(2);
    expect(ids.addOrFind('a', 10)).toBe(2);
    expect(ids.size).toBe(2);
  });

  it('tells apart ids that differ only in case, length, or non-ASCII characters', () => {
    const ids = new IdIndex();
    for (const [i, id] of ['x', 'X', 'xx', '', 'é', 'e\u0301', '😀', '中文', '12345678901234567890'].entries()) {
      expect(ids.addOrFind(id, i + 1)).toBeUndefined();
    }
    expect(ids.addOrFind('e\u0301', 99)).toBe(6);
    expect(ids.addOrFind('', 99)).toBe(4);
  });

  it('stays exact over a million ids while growing', () => {
    const ids = new IdIndex();
    for (let i = 0; i < 1_000_000; i++) expect(ids.addOrFind(`row-${i}`, i + 1) === undefined).toBe(true);
    for (let i = 0; i < 1_000_000; i += 9973) expect(ids.addOrFind(`row-${i}`, 0)).toBe(i + 1);
    expect(ids.addOrFind('row-1000000', 0)).toBeUndefined();
    expect(ids.size).toBe(1_000_001);
  });
});
