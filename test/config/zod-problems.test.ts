import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { describe as kindOf, friendlyErrors, problem, zodProblems } from '../../src/config/zod-problems.js';

function issuesOf(schema: z.ZodType, value: unknown): z.ZodError {
  const r = schema.safeParse(value, { error: friendlyErrors });
  if (r.success) throw new Error('parsed');
  return r.error;
}

describe('friendlyErrors', () => {
  it('words type, value, union and size problems without echoing values', () => {
    const schema = z.strictObject({
      n: z.number(),
      i: z.int(),
      e: z.enum(['x', 'y']),
      u: z.union([z.string(), z.boolean()]),
      s: z.string().min(1),
      a: z.array(z.string()).min(1),
      p: z.number().positive(),
      m: z.string(),
    });
    const error = issuesOf(schema, { n: 'secret-value', i: 1.5, e: 'z', u: 3, s: '', a: [], p: 0 });
    expect(zodProblems(error, { file: 'f' })).toEqual([
      { file: 'f', field: 'n', reason: 'must be a number, found a string' },
      { file: 'f', field: 'i', reason: 'must be an integer, found a fraction' },
      { file: 'f', field: 'e', reason: 'must be "x" or "y"' },
      { file: 'f', field: 'u', reason: 'must be a string or a boolean' },
      { file: 'f', field: 's', reason: 'must not be empty' },
      { file: 'f', field: 'a', reason: 'must not be empty' },
      { file: 'f', field: 'p', reason: 'must be more than 0' },
      { file: 'f', field: 'm', reason: 'missing' },
    ]);
    expect(JSON.stringify(error.issues)).not.toContain('secret-value');
  });
});

describe('zodProblems', () => {
  it('gives one problem per unknown key, with prefix and lines', () => {
    const error = issuesOf(z.strictObject({ a: z.strictObject({}) }), { a: { x: 1, y: 2 } });
    const lineOf = (path: readonly PropertyKey[]) => path.length * 10;
    expect(zodProblems(error, { file: 'f', prefix: ['top'], lineOf })).toEqual([
      { file: 'f', line: 30, field: 'top.a.x', reason: 'unknown key' },
      { file: 'f', line: 30, field: 'top.a.y', reason: 'unknown key' },
    ]);
  });
});

describe('problem', () => {
  it('leaves out field and line when there are none', () => {
    expect(problem({ file: 'f' }, [], 'bad')).toEqual({ file: 'f', reason: 'bad' });
    expect(problem({ file: 'f', lineOf: () => undefined }, ['k', 0], 'bad')).toEqual({ file: 'f', field: 'k.0', reason: 'bad' });
  });
});

describe('describe', () => {
  it.each([
    [null, 'null'],
    [[1], 'a list'],
    [{}, 'a mapping'],
    [1, 'a number'],
    [1.5, 'a fraction'],
    [Number.POSITIVE_INFINITY, 'an infinite number'],
    ['s', 'a string'],
    [true, 'a boolean'],
  ])('%j is %s', (value, kind) => {
    expect(kindOf(value)).toBe(kind);
  });
});
