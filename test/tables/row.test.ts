import { describe, expect, it } from 'vitest';
import { type CsvColumns, DuplicateIds, csvColumns, csvRecordToRow, jsonToRow } from '../../src/tables/row.js';

const F = 'q.csv';

function columns(header: string[]): CsvColumns {
  const c = csvColumns(header);
  if (typeof c === 'string') throw new Error(c);
  return c;
}

describe('csvColumns', () => {
  it('finds the reserved columns and keeps the rest as meta, trimmed, in order', () => {
    expect(csvColumns([' topic', 'question ', 'thread', 'id', 'source'])).toEqual({
      count: 5,
      question: 1,
      id: 3,
      thread: 2,
      expected: -1,
      metaNames: ['topic', 'source'],
      metaIndexes: [0, 4],
      renamed: [],
    });
  });

  it('marks absent optional columns with -1', () => {
    expect(csvColumns(['question'])).toMatchObject({ id: -1, thread: -1, metaNames: [] });
  });

  it('refuses a header without question', () => {
    expect(csvColumns(['id', 'text'])).toBe('header: no "question" column; found "id", "text"');
  });

  it('lists at most twenty of the columns it found, control characters escaped', () => {
    const many = Array.from({ length: 23 }, (_, i) => `c${i}`);
    expect(csvColumns(many)).toBe(`header: no "question" column; found ${many.slice(0, 20).map((n) => `"${n}"`).join(', ')}, … 3 more`);
    expect(csvColumns(['id', 'a\u001b[31m'])).toBe('header: no "question" column; found "id", "a\\u001b[31m"');
  });

  it('reads a reserved name in another case as that column, and says which', () => {
    expect(csvColumns(['QUESTION', 'Id', 'topic'])).toMatchObject({
      question: 0,
      id: 1,
      thread: -1,
      metaNames: ['topic'],
      renamed: ['"QUESTION" as "question"', '"Id" as "id"'],
    });
  });

  it('prefers the exact name: another spelling beside it stays meta', () => {
    expect(csvColumns(['question', 'Question'])).toMatchObject({ question: 0, metaNames: ['Question'], renamed: [] });
  });

  it('refuses two spellings of one reserved name with neither exact', () => {
    expect(csvColumns(['Question', 'QUESTION'])).toBe('header: columns "Question" and "QUESTION" could each be "question": rename all but one');
  });

  it('refuses duplicate and unnamed columns', () => {
    expect(csvColumns(['question', 'a', 'a'])).toBe('header: columns 2 and 3 are both named "a": rename one');
    expect(csvColumns(['question', ' '])).toBe('header: column 2 has no name');
  });
});

describe('csvRecordToRow', () => {
  const cols = columns(['id', 'question', 'thread', 'topic']);

  it('builds a row with id, thread and string meta', () => {
    expect(csvRecordToRow(F, cols, ['a', 'Why?', 't', 'x'], 3, 2)).toEqual({
      ok: true,
      row: { id: 'a', line: 3, question: 'Why?', thread: 't', meta: { topic: 'x' } },
    });
  });

  it('defaults an empty id cell to the ordinal and a blank thread to null', () => {
    expect(csvRecordToRow(F, cols, [' ', 'Why?', '  ', ''], 9, 7)).toEqual({
      ok: true,
      row: { id: '7', line: 9, question: 'Why?', thread: null, meta: { topic: '' } },
    });
  });

  it('defaults the id to the ordinal when there is no id column', () => {
    const row = csvRecordToRow(F, columns(['question']), ['Why?'], 2, 1);
    expect(row).toEqual({ ok: true, row: { id: '1', line: 2, question: 'Why?', thread: null, meta: {} } });
  });

  it('keeps the question verbatim but refuses a blank one', () => {
    expect(csvRecordToRow(F, cols, ['a', '  Why?\n', '', ''], 2, 1)).toMatchObject({ ok: true, row: { question: '  Why?\n' } });
    expect(csvRecordToRow(F, cols, ['a', ' \t', '', ''], 2, 1)).toEqual({
      ok: false,
      problem: { file: F, line: 2, field: 'question', reason: 'empty' },
    });
  });

  it('keeps a __proto__ column as data', () => {
    const r = csvRecordToRow(F, columns(['question', '__proto__']), ['Why?', 'x'], 2, 1);
    expect(r.ok && Object.getOwnPropertyDescriptor(r.row.meta, '__proto__')?.value).toBe('x');
    expect(r.ok && Object.getPrototypeOf(r.row.meta)).toBe(Object.prototype);
  });
});

describe('jsonToRow', () => {
  const J = 'q.jsonl';

  it('builds a row with integer id and thread turned into strings and any JSON as meta', () => {
    expect(jsonToRow(J, { id: 5, question: 'Why?', thread: 12, tags: ['a'], n: null, o: { p: 1 } }, 4, 3)).toEqual({
      ok: true,
      row: { id: '5', line: 4, question: 'Why?', thread: '12', meta: { tags: ['a'], n: null, o: { p: 1 } } },
    });
  });

  it('treats null or absent id and thread as none', () => {
    expect(jsonToRow(J, { question: 'Why?', id: null, thread: null }, 1, 1)).toMatchObject({ ok: true, row: { id: '1', thread: null } });
    expect(jsonToRow(J, { question: 'Why?', thread: ' ' }, 1, 1)).toMatchObject({ ok: true, row: { thread: null } });
  });

  it.each([
    [[1], undefined, 'expected a JSON object, found an array'],
    ['s', undefined, 'expected a JSON object, found a string'],
    [true, undefined, 'expected a JSON object, found a boolean'],
    [null, undefined, 'expected a JSON object, found null'],
    [{}, 'question', 'missing'],
    [{ question: 1 }, 'question', 'must be a string, found a number'],
    [{ question: {} }, 'question', 'must be a string, found an object'],
    [{ question: '' }, 'question', 'empty'],
    [{ question: 'q', id: '' }, 'id', 'empty'],
    [{ question: 'q', id: 1.5 }, 'id', 'must be a string or an integer, found a number'],
    [{ question: 'q', id: 2 ** 60 }, 'id', 'integer too large: write it as a string'],
    [{ question: 'q', id: [] }, 'id', 'must be a string or an integer, found an array'],
    [{ question: 'q', thread: false }, 'thread', 'must be a string or an integer, found a boolean'],
  ])('refuses %j (%s: %s)', (value, field, reason) => {
    const problem = field ? { file: J, line: 2, field, reason } : { file: J, line: 2, reason };
    expect(jsonToRow(J, value, 2, 1)).toEqual({ ok: false, problem });
  });

  it('keeps a __proto__ key as data, not as a prototype', () => {
    const r = jsonToRow(J, JSON.parse('{"question":"q","__proto__":{"polluted":1}}'), 1, 1);
    expect(r.ok && Object.getOwnPropertyDescriptor(r.row.meta, '__proto__')?.value).toEqual({ polluted: 1 });
    expect(r.ok && (r.row.meta as { polluted?: number }).polluted).toBeUndefined();
  });
});

describe('expected answers', () => {
  it('reads a CSV expected column apart from meta; an empty cell gives none', () => {
    const c = columns(['question', 'Expected', 'topic']);
    expect(c).toMatchObject({ expected: 1, metaNames: ['topic'] });
    expect(csvRecordToRow(F, c, ['q?', ' 42 ', 'x'], 2, 1)).toEqual({ ok: true, row: { id: '1', line: 2, question: 'q?', thread: null, meta: { topic: 'x' }, expected: ' 42 ' } });
    const none = csvRecordToRow(F, c, ['q?', '  ', 'x'], 3, 2);
    expect(none.ok && 'expected' in none.row).toBe(false);
  });

  it('reads a JSONL expected string, number or object apart from meta, and refuses a list or true by file, line and field', () => {
    const row = (expected: unknown) => jsonToRow('q.jsonl', { question: 'q?', expected, topic: 't' }, 4, 1);
    expect(row('Paris')).toEqual({ ok: true, row: { id: '1', line: 4, question: 'q?', thread: null, meta: { topic: 't' }, expected: 'Paris' } });
    expect(row(3.5)).toMatchObject({ ok: true, row: { expected: 3.5 } });
    expect(row({ total: 12 })).toMatchObject({ ok: true, row: { expected: { total: 12 }, meta: { topic: 't' } } });
    const none = row(null);
    expect(none.ok && 'expected' in none.row).toBe(false);
    expect(row([1, 2])).toEqual({ ok: false, problem: { file: 'q.jsonl', line: 4, field: 'expected', reason: 'must be a string, a number or an object, found an array' } });
    expect(row(true)).toEqual({ ok: false, problem: { file: 'q.jsonl', line: 4, field: 'expected', reason: 'must be a string, a number or an object, found a boolean' } });
  });
});

describe('DuplicateIds', () => {
  it('accepts new ids and names the first line of a repeated one', () => {
    const ids = new DuplicateIds();
    const row = (id: string, line: number) => ({ id, line, question: 'q', thread: null, meta: {} });
    expect(ids.check(F, row('a', 2))).toBeNull();
    expect(ids.check(F, row('b', 3))).toBeNull();
    expect(ids.check(F, row('a', 9))).toEqual({ file: F, line: 9, field: 'id', reason: 'duplicate "a" (first on line 2)' });
    expect(ids.check(F, row('a', 10))).toEqual({ file: F, line: 10, field: 'id', reason: 'duplicate "a" (first on line 2)' });
  });
});
