import { describe, expect, it } from 'vitest';
import { ByteChecker, INVALID_UTF8, NUL_BYTE, type ByteFault } from '../../src/tables/byte-check.js';

/** All faults, one by one, using increasing limits so none is dropped. */
function allFaults(bytes: Buffer, size = bytes.length || 1): ByteFault[] {
  const checker = new ByteChecker();
  for (let i = 0; i < bytes.length; i += size) checker.push(bytes.subarray(i, i + size));
  checker.end();
  const out: ByteFault[] = [];
  for (let limit = 1; limit <= bytes.length + 1; limit++) {
    const f = checker.takeBefore(limit);
    if (f) out.push(f);
  }
  return out;
}

const text = Buffer.from('ascii, é, €, 𝄞 and 中文\nsecond line ✓\n', 'utf8');

describe('ByteChecker', () => {
  it('finds nothing in valid UTF-8 however it is chunked', () => {
    for (let size = 1; size <= text.length; size++) expect(allFaults(text, size)).toEqual([]);
  });

  it('finds an invalid byte at its file offset however it is chunked', () => {
    const bytes = Buffer.concat([Buffer.from('abc\n'), Buffer.from([0x61, 0xff, 0x62]), Buffer.from('\n')]);
    for (let size = 1; size <= bytes.length; size++) {
      expect(allFaults(bytes, size)).toEqual([{ offset: 5, reason: INVALID_UTF8 }]);
    }
  });

  it('reports a sequence cut short by the end of the file', () => {
    const bytes = Buffer.from([0x61, 0xe2, 0x82]);
    for (let size = 1; size <= 3; size++) expect(allFaults(bytes, size)).toEqual([{ offset: 1, reason: INVALID_UTF8 }]);
  });

  it('reports a sequence cut short by a line break', () => {
    expect(allFaults(Buffer.from([0xe2, 0x82, 0x0a, 0x61]))).toEqual([{ offset: 0, reason: INVALID_UTF8 }]);
  });

  it.each([
    ['overlong encoding', [0xc0, 0xaf]],
    ['overlong three-byte form', [0xe0, 0x80, 0xaf]],
    ['UTF-16 surrogate', [0xed, 0xa0, 0x80]],
    ['code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['stray continuation byte', [0x80]],
    ['latin-1 é', [0xe9, 0x20]],
  ])('rejects a %s', (_, bytes) => {
    const buf = Buffer.from([0x41, ...bytes, 0x0a]);
    for (let size = 1; size <= buf.length; size++) expect(allFaults(buf, size)[0]).toEqual({ offset: 1, reason: INVALID_UTF8 });
  });

  it('re-arms after a CR as after an LF, so each line of a CR-only file gets its fault', () => {
    const bytes = Buffer.from([0x61, 0xff, 0x0d, 0x62, 0x00, 0x0d, 0x63, 0xc3, 0x0d]);
    for (const size of [1, 2, 4, 9]) {
      expect(allFaults(bytes, size).map((f) => f.offset)).toEqual([1, 4, 7]);
    }
  });

  it('reports NUL bytes', () => {
    expect(allFaults(Buffer.from('ab\0c\n'))).toEqual([{ offset: 2, reason: NUL_BYTE }]);
  });

  it('keeps one fault a line so a binary file cannot fill memory', () => {
    const line = Buffer.from([0xff, 0x00, 0xfe, 0xfd, 0x0a]);
    const bytes = Buffer.concat([line, line, line]);
    expect(allFaults(bytes).map((f) => f.offset)).toEqual([0, 5, 10]);
    expect(allFaults(bytes, 2).map((f) => f.offset)).toEqual([0, 5, 10]);
  });

  it('takeBefore returns the first fault before the offset and drops the others before it', () => {
    const checker = new ByteChecker();
    checker.push(Buffer.from([0xff, 0x0a, 0xff, 0x0a, 0xff, 0x0a]));
    expect(checker.takeBefore(0)).toBeUndefined();
    expect(checker.takeBefore(4)).toEqual({ offset: 0, reason: INVALID_UTF8 });
    expect(checker.takeBefore(4)).toBeUndefined();
    expect(checker.takeBefore(5)).toEqual({ offset: 4, reason: INVALID_UTF8 });
  });

  it('takes plain Uint8Array chunks', () => {
    const checker = new ByteChecker();
    checker.push(new Uint8Array([0x61, 0xff]));
    expect(checker.takeBefore(10)).toEqual({ offset: 1, reason: INVALID_UTF8 });
  });
});
