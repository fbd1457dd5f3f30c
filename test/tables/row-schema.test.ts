import { describe, expect, it } from 'vitest';
import { problem, problemsOf, refused } from '../../src/tables/row-schema.js';

describe('problem and refused', () => {
  it('escape control characters in field and reason, keeping clean problems as they are', () => {
    const clean = { file: 'f', line: 1, field: 'id', reason: 'duplicate "a"' };
    expect(problem(clean).problem).toBe(clean);
    expect(problem({ file: 'f', line: 2, field: '\u001b[2J', reason: 'bell \u0007' })).toEqual({
      ok: false,
      problem: { file: 'f', line: 2, field: '\\x1b[2J', reason: 'bell \\x07' },
    });
  });

  it('escape every problem of a refusal that has several', () => {
    const r = refused({ ok: false, problem: { file: 'f', reason: 'a\u0000' }, more: [{ file: 'f', field: '\u009b', reason: 'b' }] });
    expect(problemsOf(r)).toEqual([
      { file: 'f', reason: 'a\\x00' },
      { file: 'f', field: '\\x9b', reason: 'b' },
    ]);
    expect(problemsOf({ ok: true, row: { id: 'a', line: 1 } })).toEqual([]);
  });

  it("escape the file's name: a user's file named with an escape sequence reaches no terminal raw", () => {
    expect(problem({ file: 'x\u001b[31my.csv', reason: 'file is empty' }).problem).toEqual({ file: 'x\\x1b[31my.csv', reason: 'file is empty' });
  });
});
