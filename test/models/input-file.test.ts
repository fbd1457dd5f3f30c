import { describe, expect, it } from 'vitest';
import type { ModelField } from '../../src/api/index.js';
import { formatProblem, InputError } from '../../src/errors.js';
import { inputFormat, readModelInputs } from '../../src/models/input-file.js';
import { tempDir, writeInput } from './support/helpers.js';

const spec = {
  modelId: 'descriptors',
  inputs: [
    { name: 'smiles', type: 'string', required: true },
    { name: 'include_3d', type: 'boolean', required: false },
    { name: 'weights', type: 'object', required: false },
    { name: 'properties', type: 'array', required: false },
    { name: 'n', type: 'integer', required: false },
    { name: 'scale', type: 'number', required: false },
  ] as ModelField[],
};

const lines = (problems: Parameters<typeof formatProblem>[0][]) => problems.map(formatProblem);

describe('readModelInputs (CSV)', () => {
  it('coerces every declared type, keeps id and meta, numbers rows by data ordinal', async () => {
    const dir = tempDir();
    const file = writeInput(
      dir,
      'in.csv',
      '\uFEFFsmiles,include_3d,weights,properties,n,scale,meta.note\r\n' +
        'CCO,yes,"{""C"": 12}","[""mw""]",2,0.5,first\r\n' +
        '\r\n' +
        '"c1cc\ncc1",0,,,,,\r\n',
    );
    const r = await readModelInputs(file, spec);
    expect(r.problems).toEqual([]);
    expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.rows).toEqual([
      { id: '1', line: 2, inputs: { smiles: 'CCO', include_3d: true, weights: { C: 12 }, properties: ['mw'], n: 2, scale: 0.5 }, meta: { note: 'first' } },
      { id: '2', line: 4, inputs: { smiles: 'c1cc\ncc1', include_3d: false }, meta: { note: '' } },
    ]);
  });

  it('reports every bad cell and missing required input as file:line: input: reason', async () => {
    const dir = tempDir();
    const file = writeInput(dir, 'bad.csv', 'id,smiles,include_3d,n,scale,weights\na,CCO,maybe,1.5,x,[1]\nb,,no,,,\na,C,,,,\nc,C\n');
    const r = await readModelInputs(file, spec);
    expect(r.rows.map((x) => [x.id, x.line])).toEqual([['a', 4]]);
    expect(lines(r.problems)).toEqual([
      `${file}:2: include_3d: expected a boolean (true/false/1/0/yes/no), got "maybe"`,
      `${file}:2: weights: expected a JSON object, got an array`,
      `${file}:2: n: expected an integer, got "1.5"`,
      `${file}:2: scale: expected a number, got "x"`,
      `${file}:3: smiles: required input missing (string)`,
      `${file}:5: expected 6 fields like the header, found 2`,
    ]);
  });

  it('refuses duplicate ids', async () => {
    const dir = tempDir();
    const file = writeInput(dir, 'dup.csv', 'id,smiles\na,C\na,CC\n');
    const r = await readModelInputs(file, spec);
    expect(lines(r.problems)).toEqual([`${file}:3: id: duplicate id "a" (first on line 2)`]);
  });

  it('refuses a column that is no input, and a required input with no column, at line 1', async () => {
    const dir = tempDir();
    const file = writeInput(dir, 'cols.csv', 'n,colour\n1,red\n');
    const r = await readModelInputs(file, spec);
    expect(lines(r.problems)).toEqual([
      expect.stringContaining(`${file}:1: colour: not an input of model descriptors`),
      `${file}:1: smiles: required input has no column`,
    ]);
    expect(r.rows).toEqual([]);
  });

  it('reports an unclosed quote and an empty file', async () => {
    const dir = tempDir();
    const r = await readModelInputs(writeInput(dir, 'q.csv', 'smiles\n"CCO\n'), spec);
    expect(r.problems[0]?.reason).toContain('Quote Not Closed');
    const e = await readModelInputs(writeInput(dir, 'e.csv', ''), spec);
    expect(e.problems.map((p) => p.reason)).toEqual(['no input rows']);
  });
});

describe('readModelInputs (JSONL)', () => {
  it('checks JSON values as they are, takes id and meta, reports every problem of a line', async () => {
    const dir = tempDir();
    const file = writeInput(
      dir,
      'in.jsonl',
      '{"id": "m1", "smiles": "CCO", "include_3d": true, "meta": {"batch": 7}, "meta.src": "x"}\n' +
        '\n' +
        '{"smiles": "C", "n": 3}\r\n' +
        '{"smiles": 5, "bogus": 1}\n' +
        '[1]\n' +
        '{"smiles": "C", "n": "3"}\n' +
        '{nope\n',
    );
    const r = await readModelInputs(file, spec);
    expect(r.rows).toEqual([
      { id: 'm1', line: 1, inputs: { smiles: 'CCO', include_3d: true }, meta: { batch: 7, src: 'x' } },
      { id: '2', line: 3, inputs: { smiles: 'C', n: 3 }, meta: {} },
    ]);
    expect(lines(r.problems)).toEqual([
      expect.stringContaining(`${file}:4: bogus: not an input of model descriptors`),
      `${file}:4: smiles: expected a string, got an integer`,
      `${file}:5: expected a JSON object of inputs`,
      `${file}:6: n: expected an integer, got a string`,
      expect.stringContaining(`${file}:7: invalid JSON`),
    ]);
  });

  it('refuses other file kinds and missing files', async () => {
    expect(() => inputFormat('x.txt')).toThrow(InputError);
    await expect(readModelInputs('/nonexistent/x.csv', spec)).rejects.toThrow(/cannot read: ENOENT/);
  });
});
