import { describe, expect, it } from 'vitest';
import { CUT_MARK, cutDepth, INPUT_DEPTH } from '../../src/api/json-depth.js';
import { RequiredActionSchema } from '../../src/api/run-schema.js';

const nest = (levels: number): unknown => {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = { level: v };
  return v;
};
const depthOf = (v: unknown): number => {
  let n = 0;
  while (v !== null && typeof v === 'object') [v, n] = [(v as { level: unknown }).level, n + 1];
  return n;
};

describe('cutDepth', () => {
  it('gives back a value within the limit equal, arrays and objects alike', () => {
    const v = { a: [1, { b: 'x' }], c: null, d: nest(10) };
    expect(cutDepth(v)).toEqual(v);
  });

  it('replaces what is nested deeper than the limit with the mark', () => {
    const cut = cutDepth(nest(3000)) as unknown;
    expect(depthOf(cut)).toBe(INPUT_DEPTH);
    let v = cut;
    for (let i = 0; i < INPUT_DEPTH; i++) v = (v as { level: unknown }).level;
    expect(v).toBe(CUT_MARK);
  });

  it('is applied where a pause enters: a required_action input 3,000 levels deep is kept 64 deep', () => {
    const parsed = RequiredActionSchema.parse({ tool: 'confirm_scope', input: { cost: 1, nested: nest(3000) } });
    expect(parsed.input['cost']).toBe(1);
    expect(depthOf(parsed.input['nested'])).toBe(INPUT_DEPTH - 1);
  });
});
