import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/errors.js';
import { MAX_LINE_BYTES, readJsonl } from '../../src/tables/jsonl-reader.js';
import { DuplicateIds, questionSchema } from '../../src/tables/row.js';

async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function read(input: string | Buffer, size = 65536): Promise<string[]> {
  const bytes = typeof input === 'string' ? Buffer.from(input) : input;
  const out: string[] = [];
  for await (const r of readJsonl(chunked(bytes, size), 'q.jsonl', questionSchema, new DuplicateIds())) {
    out.push(r.ok ? `${r.row.line} ${r.row.id} ${JSON.stringify(r.row.question)}` : formatProblem(r.problem));
  }
  return out;
}

const sample =
  '\ufeff{"question":"first ✓"}\r\n' +
  '\n' +
  '   \t\r\n' +
  '{"question":"x","id":"1"}\n' +
  '{"question":"third","id":"k"}\r\n' +
  'not json\n' +
  ' {"question":"indented"}\n' +
  '{"question":"last, no newline"}';

describe('readJsonl', () => {
  it('skips blank lines, strips BOM and CR, and counts physical lines', async () => {
    expect(await read(sample)).toEqual([
      '1 1 "first ✓"',
      'q.jsonl:4: id: duplicate "1" (first on line 1)',
      '5 k "third"',
      "q.jsonl:6: invalid JSON: Unexpected token 'o', \"not json\" is not valid JSON",
      '7 5 "indented"',
      '8 6 "last, no newline"',
    ]);
  });

  it('gives the same results however the bytes are chunked', async () => {
    const whole = await read(sample);
    for (const size of [1, 2, 3, 5, 7, 13]) expect(await read(sample, size)).toEqual(whole);
  });

  it('only strips a BOM at the start of the file', async () => {
    const [first, second] = await read('{"question":"a"}\n\ufeff{"question":"b"}\n');
    expect(first).toBe('1 1 "a"');
    expect(second).toMatch(/^q\.jsonl:2: invalid JSON: Unexpected token '\ufeff'/);
  });

  it('matches bad bytes to their line however the bytes are chunked', async () => {
    const bytes = Buffer.concat([Buffer.from('{"question":"a"}\n{"question":"'), Buffer.from([0xf0, 0x9f]), Buffer.from('"}\n{"question":"c"}')]);
    for (const size of [1, 2, 3, 64]) {
      expect(await read(bytes, size)).toEqual(['1 1 "a"', 'q.jsonl:2: invalid UTF-8 bytes (the file must be UTF-8 encoded)', '3 3 "c"']);
    }
  });

  it('refuses a line over the limit without holding it, and goes on after it', async () => {
    const long = Buffer.alloc(MAX_LINE_BYTES + 100_000, 0x61);
    long[MAX_LINE_BYTES + 50_000] = 0xff;
    const bytes = Buffer.concat([Buffer.from('{"question":"a"}\n'), long, Buffer.from('\n{"question":"c"}\n')]);
    expect(await read(bytes)).toEqual([
      '1 1 "a"',
      `q.jsonl:2: line longer than ${MAX_LINE_BYTES} bytes`,
      '3 3 "c"',
    ]);
  });

  it('reports an empty file', async () => {
    expect(await read('')).toEqual(['q.jsonl: file is empty']);
  });
});
