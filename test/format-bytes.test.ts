import { describe, expect, it } from 'vitest';
import { formatBytes } from '../src/format-bytes.js';
import { formatBytes as notebookBytes } from '../src/notebook/index.js';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KiB'],
    [1536, '1.5 KiB'],
    [45_600, '45 KiB'],
    [1024 * 1024 - 1, '1.0 MiB'],
    [200 * 1024 * 1024, '200 MiB'],
    [1024 ** 3, '1.0 GiB'],
    [7_100_000_000, '6.6 GiB'],
  ])('%d bytes → %s', (n, s) => expect(formatBytes(n)).toBe(s));

  it('says when the size is unknown', () => {
    expect(formatBytes(null)).toBe('size unknown');
  });

  it('is the notebook helpers\' formatter too: one size for one file', () => {
    expect(notebookBytes).toBe(formatBytes);
  });
});
