import { describe, expect, it } from 'vitest';
import { lineDiff } from '../../src/runner/text-diff.js';

describe('lineDiff', () => {
  it('keeps common lines and marks the removed and added ones in order, the removed (-) first', () => {
    expect(lineDiff('a\nb\nc\nd', 'a\nx\nc\nd\ne')).toEqual([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'x' },
      { op: ' ', text: 'c' },
      { op: ' ', text: 'd' },
      { op: '+', text: 'e' },
    ]);
  });

  it('equal texts are all kept; from nothing, all added', () => {
    expect(lineDiff('one\ntwo', 'one\ntwo').every((l) => l.op === ' ')).toBe(true);
    expect(lineDiff('', 'x\ny')).toEqual([{ op: '-', text: '' }, { op: '+', text: 'x' }, { op: '+', text: 'y' }]);
  });

  it('finds the longest common run in the middle', () => {
    const d = lineDiff('h\n1\n2\n3\nt', 'h\n0\n1\n2\nt');
    expect(d.filter((l) => l.op === ' ').map((l) => l.text)).toEqual(['h', '1', '2', 't']);
    expect(d.filter((l) => l.op !== ' ')).toEqual([{ op: '+', text: '0' }, { op: '-', text: '3' }]);
  });

  it('a changed stretch lists every old line before the new ones', () => {
    const ops = lineDiff('k\na\nb\nk2', 'k\nx\ny\nk2').map((l) => l.op).join('');
    expect(ops).toBe(' --++ ');
  });

  it('a very large pair falls back to removed-then-added, keeping the common head and tail', () => {
    const a = ['same', ...Array.from({ length: 3000 }, (_, i) => `a${i}`), 'end'].join('\n');
    const b = ['same', ...Array.from({ length: 3000 }, (_, i) => `b${i}`), 'end'].join('\n');
    const d = lineDiff(a, b);
    expect(d[0]).toEqual({ op: ' ', text: 'same' });
    expect(d[1]).toEqual({ op: '-', text: 'a0' });
    expect(d[3001]).toEqual({ op: '+', text: 'b0' });
    expect(d.at(-1)).toEqual({ op: ' ', text: 'end' });
  });
});
