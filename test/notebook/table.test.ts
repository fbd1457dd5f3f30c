import { describe, expect, it } from 'vitest';
import { cellText, columnsOf, flatten, table } from '../../src/notebook/table.js';
import { findAll, parseXml, textOf } from './support/xml.js';

describe('notebook tables', () => {
  it('flattens one level of nested objects into dotted columns', () => {
    expect(flatten({ id: 'a', meta: { topic: 'x', n: 2 }, list: [1], empty: {} })).toEqual({ id: 'a', 'meta.topic': 'x', 'meta.n': 2, list: [1], empty: {} });
    expect(columnsOf([{ a: 1 }, { b: 2, a: 3 }])).toEqual(['a', 'b']);
  });

  it('cell text: empty for null, JSON for objects, whitespace folded, long text cut', () => {
    expect(cellText(null)).toBe('');
    expect(cellText({ a: [1] })).toBe('{"a":[1]}');
    expect(cellText('a\n\n b')).toBe('a b');
    expect(cellText(1 / 3)).toBe('0.333');
    expect(cellText('x'.repeat(10), 5)).toBe('xxxx…');
  });

  it('renders escaped HTML (well-formed) and aligned text, with dotted meta columns', () => {
    const t = table([{ id: '<1>', meta: { topic: 'a&b' }, n: 3 }, { id: '2', meta: { topic: 'c' }, n: 10 }], { caption: 'Items' });
    const root = parseXml(`<div>${t['text/html']}</div>`);
    expect(findAll(root, 'th').map(textOf)).toEqual(['id', 'meta.topic', 'n']);
    expect(findAll(root, 'td').map(textOf)).toEqual(['<1>', 'a&b', '3', '2', 'c', '10']);
    expect(textOf(findAll(root, 'caption')[0]!)).toBe('Items');
    expect(t['text/plain']).toBe(['Items', 'id   meta.topic  n', '---  ----------  --', '<1>  a&b         3', '2    c           10'].join('\n'));
  });

  it('keeps only the chosen columns and says how many rows were left out', () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ id: String(i), secret: 'x' }));
    const t = table(rows, { columns: ['id'], maxRows: 2 });
    expect(t['text/html']).not.toContain('secret');
    expect(t['text/html']).toContain('showing 2 of 5 rows (page 1 of 3; { page: 2 } shows the next)');
    expect(findAll(parseXml(`<div>${t['text/html']}</div>`), 'tr')).toHaveLength(3);
  });

  it('pages a long table: 50 rows a page by default, any page on request, the last page when past it', () => {
    const rows = Array.from({ length: 120 }, (_, i) => ({ id: `r${i + 1}` }));
    const ids = (b: ReturnType<typeof table>) => findAll(parseXml(`<div>${b['text/html']}</div>`), 'td').map(textOf);
    const first = table(rows);
    expect(ids(first)).toEqual(rows.slice(0, 50).map((r) => r.id));
    expect(first['text/plain']).toContain('showing 50 of 120 rows (page 1 of 3; { page: 2 } shows the next)');
    const second = table(rows, { page: 2 });
    expect(ids(second)).toEqual(rows.slice(50, 100).map((r) => r.id));
    expect(second['text/html']).toContain('showing rows 51–100 of 120 rows (page 2 of 3; { page: 3 } shows the next)');
    const last = table(rows, { page: 9 });
    expect(ids(last)).toEqual(rows.slice(100).map((r) => r.id));
    expect(last['text/html']).toContain('showing rows 101–120 of 120 rows (page 3 of 3)');
    expect(table(rows.slice(0, 50))['text/html']).not.toContain('showing');
  });

  it('says so when there are no rows', () => {
    expect(table([], { caption: 'Failed', empty: 'nothing failed' })).toEqual({
      'text/html': '<p><strong>Failed</strong>: <em>nothing failed</em></p>',
      'text/plain': 'Failed: nothing failed',
    });
    expect(table([])['text/plain']).toBe('no rows');
  });
});
