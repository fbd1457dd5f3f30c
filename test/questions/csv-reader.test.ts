import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/errors.js';
import { MAX_RECORD_CHARS, readCsv } from '../../src/questions/csv-reader.js';
import { DuplicateIds, type RowResult, questionSchema } from '../../src/questions/row.js';

async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Rows as `line id question` and problems as the CLI prints them. */
async function read(input: string | Buffer, size = 65536): Promise<string[]> {
  const bytes = typeof input === 'string' ? Buffer.from(input) : input;
  const out: string[] = [];
  const results: RowResult[] = [];
  for await (const r of readCsv(chunked(bytes, size), 'q.csv', questionSchema, new DuplicateIds())) results.push(r);
  for (const r of results) {
    out.push(r.ok ? `${r.row.line} ${r.row.id} ${JSON.stringify(r.row.question)}` : formatProblem(r.problem));
  }
  return out;
}

const sample =
  '\ufeffid,question,thread\r\n' +
  'a,"multi\r\nline\r\nquestion",t\r\n' +
  '\r\n' +
  'b,"with ""quotes"", and commas",\r\n' +
  'c,only two\r\n' +
  'd,"lf\nonly",t\n' +
  'e,caf\u00e9 \u2713,\r' +
  'f,last without newline,';

describe('readCsv', () => {
  it('numbers records by the physical line they start on', async () => {
    expect(await read(sample)).toEqual([
      '2 a "multi\\r\\nline\\r\\nquestion"',
      '6 b "with \\"quotes\\", and commas"',
      'q.csv:7: expected 3 fields like the header, found 2',
      '8 d "lf\\nonly"',
      '10 e "café ✓"',
      '11 f "last without newline"',
    ]);
  });

  it('gives the same results however the bytes are chunked', async () => {
    const whole = await read(sample);
    for (const size of [1, 2, 3, 5, 7, 13]) expect(await read(sample, size)).toEqual(whole);
  });

  it('matches bad bytes to their record however the bytes are chunked', async () => {
    const bytes = Buffer.concat([Buffer.from('question\nok\n"x\n'), Buffer.from([0xe2, 0x82]), Buffer.from('"\nfine\n')]);
    for (const size of [1, 2, 3, 64]) {
      expect(await read(bytes, size)).toEqual(['2 1 "ok"', 'q.csv:3: invalid UTF-8 bytes (the file must be UTF-8 encoded)', '5 3 "fine"']);
    }
  });

  it('reports a bad byte in the header and stops', async () => {
    expect(await read(Buffer.from([0x71, 0xff, 0x0a, 0x61, 0x0a]))).toEqual([
      'q.csv:1: header: invalid UTF-8 bytes (the file must be UTF-8 encoded)',
    ]);
  });

  it('skips blank lines before the header', async () => {
    expect(await read('\n\nquestion\nWhy?\n')).toEqual(['4 1 "Why?"']);
  });

  it('reports an unclosed quote at the line its record starts, after the rows before it', async () => {
    expect(await read('question,x\nok,1\n"open,2\nmore,3\n', 4)).toEqual([
      '2 1 "ok"',
      'q.csv:3: unbalanced quote: a quoted field starting in this record is never closed (reading stopped here)',
    ]);
  });

  it('stops on a record longer than the limit instead of holding the file', async () => {
    const big = 'question\nok\n"' + 'x'.repeat(MAX_RECORD_CHARS + 10);
    expect(await read(big)).toEqual([
      '2 1 "ok"',
      `q.csv:3: record longer than ${MAX_RECORD_CHARS} characters (a quote never closed?) (reading stopped here)`,
    ]);
  });

  it('ends cleanly when the consumer stops early', async () => {
    const gen = readCsv(chunked(Buffer.from('question\na\nb\nc\n'), 1), 'q.csv', questionSchema, new DuplicateIds());
    const first = await gen.next();
    expect(first.value).toMatchObject({ ok: true, row: { question: 'a' } });
    expect(await gen.return(undefined)).toEqual({ done: true, value: undefined });
  });

  it('passes errors of the source through', async () => {
    async function* failing(): AsyncGenerator<Buffer> {
      yield Buffer.from('question\na\n');
      throw new Error('disk gone');
    }
    const all = async () => {
      for await (const _ of readCsv(failing(), 'q.csv', questionSchema, new DuplicateIds())) void _;
    };
    await expect(all()).rejects.toThrow('disk gone');
  });
});
