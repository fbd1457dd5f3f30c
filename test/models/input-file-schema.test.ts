import { describe, expect, it } from 'vitest';
import type { ModelField } from '../../src/api/index.js';
import { modelInputSchema } from '../../src/models/input-file-schema.js';
import { parseJsonExactly } from '../../src/text/json-text.js';

const schema = modelInputSchema({
  modelId: 'm',
  inputs: [
    { name: 'smiles', type: 'string', required: true },
    { name: 'n', type: 'integer', required: false },
    { name: 'x', type: 'number', required: false },
  ] as ModelField[],
});

const json = (text: string) => (parseJsonExactly(text) as { value: unknown }).value;

describe('modelInputSchema', () => {
  it('reads a CSV header into a row reader: inputs coerced, id trimmed, meta kept', () => {
    const toRow = schema.csvHeader('f.csv', ['id', 'smiles', 'n', 'meta.note'], 1);
    expect(typeof toRow).toBe('function');
    const read = toRow as Exclude<typeof toRow, unknown[]>;
    expect(read([' 007 ', 'CCO', '3', 'hi'], 2, 1)).toEqual({ ok: true, row: { id: '007', line: 2, inputs: { smiles: 'CCO', n: 3 }, meta: { note: 'hi' } } });
    expect(read(['', 'C', '', ''], 3, 2)).toEqual({ ok: true, row: { id: '2', line: 3, inputs: { smiles: 'C' }, meta: { note: '' } } });
  });

  it('refuses a header with every problem at its line', () => {
    expect(schema.csvHeader('f.csv', ['n', 'n', 'colour'], 1)).toEqual([
      { file: 'f.csv', line: 1, field: 'n', reason: 'column appears twice' },
      { file: 'f.csv', line: 1, field: 'colour', reason: expect.stringContaining('not an input of model m') },
      { file: 'f.csv', line: 1, field: 'smiles', reason: 'required input has no column' },
    ]);
  });

  it('reports every problem of a row: the first, then the rest in order', () => {
    const read = schema.csvHeader('f.csv', ['smiles', 'n', 'x'], 1) as (f: string[], l: number, o: number) => unknown;
    expect(read(['', '1.5', 'y'], 4, 3)).toEqual({
      ok: false,
      problem: { file: 'f.csv', line: 4, field: 'smiles', reason: 'required input missing (string)' },
      more: [
        { file: 'f.csv', line: 4, field: 'n', reason: 'expected an integer, got "1.5"' },
        { file: 'f.csv', line: 4, field: 'x', reason: 'expected a number, got "y"' },
      ],
    });
  });

  it('takes JSON rows: a number id stays as written, inputs are numbers, meta keeps its text', () => {
    const r = schema.jsonRow('f.jsonl', json('{"id": 1.50, "smiles": "C", "x": 2.50, "meta": {"w": 1.50}}'), 1, 1);
    expect(r.ok).toBe(true);
    const row = (r as { row: { id: string; inputs: Record<string, unknown>; meta: unknown } }).row;
    expect(row.id).toBe('1.50');
    expect(row.inputs).toEqual({ smiles: 'C', x: 2.5 });
    expect(JSON.stringify(row.meta)).toBe('{"w":1.50}');
    expect(schema.jsonRow('f.jsonl', json('[1]'), 2, 2)).toEqual({ ok: false, problem: { file: 'f.jsonl', line: 2, reason: 'expected a JSON object of inputs' } });
  });
});
