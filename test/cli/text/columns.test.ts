import { describe, expect, it } from 'vitest';
import { alignColumns } from '../../../src/cli/text/columns.js';

describe('alignColumns', () => {
  it('pads each column to its widest cell, two spaces apart, the right-aligned ones at the left, no trailing spaces', () => {
    expect(alignColumns([['id', 'cost', 'why'], ['a-long-id', '5', ''], ['b', '1200', 'over budget']], [1])).toEqual([
      'id         cost  why',
      'a-long-id     5',
      'b          1200  over budget',
    ]);
  });

  it('gives no line for no rows', () => {
    expect(alignColumns([])).toEqual([]);
  });
});
