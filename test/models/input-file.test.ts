import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelField } from '../../src/api/index.js';
import { formatProblem, InputError } from '../../src/errors.js';
import { inputFormat, readModelInputs, streamModelInputs } from '../../src/models/input-file.js';
import { tempDir } from '../support/cli.js';

/** Writes `text` to `name` in `dir` and returns the path (no store helpers: this is the reading side only). */
function writeInput(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

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
    // A refused file keeps no rows: only its problems cost memory.
    expect(r.rows).toEqual([]);
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
    expect(lines(r.problems)).toEqual([`${file}:3: id: duplicate "a" (first on line 2)`]);
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
    expect(r.problems[0]?.reason).toBe('unbalanced quote: a quoted field starting in this record is never closed (reading stopped here)');
    const e = await readModelInputs(writeInput(dir, 'e.csv', ''), spec);
    expect(e.problems.map((p) => p.reason)).toEqual(['file is empty']);
    const h = await readModelInputs(writeInput(dir, 'h.csv', 'smiles\n'), spec);
    expect(h.problems.map((p) => p.reason)).toEqual(['no input rows: the file has only a header row']);
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
    const rows = [];
    for await (const x of streamModelInputs(file, spec)) if (x.ok) rows.push(x.row);
    expect(rows).toEqual([
      { id: 'm1', line: 1, inputs: { smiles: 'CCO', include_3d: true }, meta: { batch: 7, src: 'x' } },
      { id: '2', line: 3, inputs: { smiles: 'C', n: 3 }, meta: {} },
    ]);
    const r = await readModelInputs(file, spec);
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
    await expect(readModelInputs('/nonexistent/x.csv', spec)).rejects.toThrow(/cannot open: no such file/);
  });
});

describe('readModelInputs through the one reader', () => {
  it('reads what spreadsheets write: BOM, sep= line, semicolons, nameless trailing columns, all-empty rows', async () => {
    const dir = tempDir();
    const file = writeInput(dir, 'xl.csv', '\uFEFFsep=;\r\nid;smiles;n;;\r\n007;CCO;2;;\r\n;;;;\r\n1.50;C;;;\r\n');
    const r = await readModelInputs(file, spec);
    expect(r.problems).toEqual([]);
    expect(r.rows).toEqual([
      { id: '007', line: 3, inputs: { smiles: 'CCO', n: 2 }, meta: {} },
      { id: '1.50', line: 5, inputs: { smiles: 'C' }, meta: {} },
    ]);
  });

  it('refuses a deeply nested row and a UTF-16 file with file:line: reason', async () => {
    const dir = tempDir();
    const deep = `{"smiles": "C", "weights": {"a": ${'['.repeat(5000)}${']'.repeat(5000)}}}\n`;
    const r = await readModelInputs(writeInput(dir, 'deep.jsonl', `{"smiles": "C"}\n${deep}`), spec);
    expect(r.problems.map((p) => `${p.line}: ${p.reason}`)).toEqual(['2: nested deeper than 256 levels']);
    const wide = join(dir, 'wide.csv');
    writeFileSync(wide, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('smiles\nC\n', 'utf16le')]));
    const w = await readModelInputs(wide, spec);
    expect(w.problems[0]?.reason).toMatch(/^file is UTF-16 encoded \(UTF-16LE\); resq reads UTF-8: convert it with iconv -f UTF-16LE -t UTF-8/);
  });

  it('keeps meta numbers as written and escapes control characters in problems', async () => {
    const dir = tempDir();
    const file = writeInput(dir, 'm.jsonl', '{"id": 12345678901234567890, "smiles": "C", "meta": {"big": 12345678901234567890, "z": -0, "p": 1.50}}\n');
    const r = await readModelInputs(file, spec);
    expect(r.rows[0]?.id).toBe('12345678901234567890');
    expect(JSON.stringify(r.rows[0]?.meta)).toBe('{"big":12345678901234567890,"z":-0,"p":1.50}');
    const bad = await readModelInputs(writeInput(dir, 'esc.csv', 'smiles,\u001b]0;pwned\u0007\nC,x\n'), spec);
    expect(bad.problems[0]?.field).toBe('\\x1b]0;pwned\\x07');
  });

  it('streams: the first rows arrive before the whole file is read', async () => {
    const dir = tempDir();
    const n = 200_000;
    const file = writeInput(dir, 'big.csv', `smiles,n\n${Array.from({ length: n }, (_, i) => `C${i},${i}`).join('\n')}\n`);
    const gen = streamModelInputs(file, spec);
    const first = await gen.next();
    expect(first.value).toEqual({ ok: true, row: { id: '1', line: 2, inputs: { smiles: 'C0', n: 0 }, meta: {} } });
    await gen.return(undefined);
    const r = await readModelInputs(file, spec);
    expect(r.rows.length).toBe(n);
  });
});
