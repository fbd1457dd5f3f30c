import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/errors.js';
import { MAX_RECORD_CHARS, readCsv } from '../../src/tables/csv-reader.js';
import { DuplicateIds, type RowResult, questionSchema } from '../../src/tables/row.js';

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

  it('finds every bad row of a CR-only file (old Mac exports), whatever the chunking', async () => {
    const bytes = Buffer.concat([
      Buffer.from('id,question\ra,ok\rb,bad '),
      Buffer.from([0xff]),
      Buffer.from('\rc,fine\rd,nul '),
      Buffer.from([0]),
      Buffer.from('\re,bad '),
      Buffer.from([0xc3]),
      Buffer.from('\rf,last\r'),
    ]);
    for (const size of [1, 3, 64]) {
      expect(await read(bytes, size)).toEqual([
        '2 a "ok"',
        'q.csv:3: invalid UTF-8 bytes (the file must be UTF-8 encoded)',
        '4 c "fine"',
        'q.csv:5: contains a NUL byte (is this a binary file?)',
        'q.csv:6: invalid UTF-8 bytes (the file must be UTF-8 encoded)',
        '7 f "last"',
      ]);
    }
  });

  it('does not count a lone CR inside a quoted cell of an LF file as a line', async () => {
    expect(await read('id,question\na,"one\rstill line 2"\nb,"two\r\nlines"\nc,after\n')).toEqual([
      '2 a "one\\rstill line 2"',
      '3 b "two\\r\\nlines"',
      '5 c "after"',
    ]);
    // In a CR-only file a lone CR is a line end, quoted or not.
    expect(await read('id,question\ra,"one\rtwo"\rc,after\r')).toEqual(['2 a "one\\rtwo"', '4 c "after"']);
  });

  it('reads what spreadsheets write: BOM, sep= line, trailing nameless columns, all-empty rows', async () => {
    const xl = '\ufeffsep=,\r\nid,question,topic,,\r\n1,Why?,x,,\r\n,,,,\r\n2,How?,y,,\r\n3,What?,z,oops,\r\n';
    expect(await read(xl)).toEqual(['3 1 "Why?"', '5 2 "How?"', 'q.csv:6: column 4: has a value but no name in the header']);
  });

  it('sniffs a semicolon or tab delimiter from the header', async () => {
    expect(await read('id;question;topic\n1;"a; b";x\n')).toEqual(['2 1 "a; b"']);
    expect(await read('id\tquestion\n1\tWhy, then?\n')).toEqual(['2 1 "Why, then?"']);
  });

  it('refuses a header separated by another delimiter with a hint naming it', async () => {
    expect(await read('id|question\n1|Why?\n')).toEqual([
      'q.csv:1: header: no "question" column; found "id|question" (the header reads as one column: if the file is separated by "|", make its first line sep=|)',
    ]);
    expect(await read('sep=|\nid|question\n1|Why?\n')).toEqual(['3 1 "Why?"']);
  });

  it('keeps number-like ids as written', async () => {
    expect(await read('id,question\n007,a\n1.50,b\n1E+05,c\n12345678901234567890,d\n')).toEqual([
      '2 007 "a"',
      '3 1.50 "b"',
      '4 1E+05 "c"',
      '5 12345678901234567890 "d"',
    ]);
  });

  it('names a file that is not text (ELF, PNG, PDF, ZIP) instead of reporting a stray quote', async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.from('"\u0000\u0001x"y,\n\u0000')]);
    expect(await read(elf)).toEqual(['q.csv: not a text file: it is an ELF executable; a question set is CSV or JSONL text']);
    expect(await read(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toEqual([
      'q.csv: not a text file: it is a PNG image; a question set is CSV or JSONL text',
    ]);
    expect(await read('%PDF-1.7\n%\u00e2\n')).toEqual(['q.csv: not a text file: it is a PDF document; a question set is CSV or JSONL text']);
    expect(await read(Buffer.from([0x50, 0x4b, 0x03, 0x04, 20, 0, 6, 0]))).toEqual([
      'q.csv: not a text file: it is a ZIP archive (an Excel .xlsx workbook is one); a question set is CSV or JSONL text',
    ]);
  });

  it('refuses a UTF-16 file naming the encoding and the conversion', async () => {
    const bytes = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('question\nWhy?\n', 'utf16le').swap16()]);
    expect(await read(bytes)).toEqual([
      "q.csv: file is UTF-16 encoded (UTF-16BE); resq reads UTF-8: convert it with iconv -f UTF-16BE -t UTF-8 q.csv > q.utf8.csv",
    ]);
  });

  it('escapes control characters from the file in problems (duplicate header)', async () => {
    expect(await read('question,\u001b[31mred,\u001b[31mred\nx,1,2\n')).toEqual(['q.csv:1: header: columns 2 and 3 are both named "\\x1b[31mred": rename one']);
  });
});

describe('readCsv: a header changed on reading is said once, with its line', () => {
  async function notices(input: string): Promise<{ out: string[]; said: string[] }> {
    const said: string[] = [];
    const out: string[] = [];
    for await (const r of readCsv(chunked(Buffer.from(input), 7), 'q.csv', questionSchema, new DuplicateIds(), { notify: (n) => said.push(n) })) {
      out.push(r.ok ? `${r.row.line} ${r.row.id} ${JSON.stringify(r.row.meta)}` : formatProblem(r.problem));
    }
    return { out, said };
  }

  it('a trailing-space header ("priority ") is read as priority, with a notice naming line and column', async () => {
    const { out, said } = await notices('sep=,\nid,question,"priority "\na,one,1\nb,two,2\n');
    expect(out).toEqual(['3 a {"priority":"1"}', '4 b {"priority":"2"}']);
    expect(said).toEqual(['q.csv:2: header: read column 3 "priority " as "priority" (spaces around a name are dropped)']);
  });

  it('empty header columns after the last name are ignored, with a notice naming them', async () => {
    expect((await notices('id,question,\na,one,\n')).said).toEqual(['q.csv:1: header: column 3 has no name and is ignored (a value in it is refused)']);
    const { out, said } = await notices('id,question,, \na,one,,\nb,two\n');
    expect(out).toEqual(['2 a {}', '3 b {}']);
    expect(said).toEqual(['q.csv:1: header: columns 3–4 have no name and are ignored (a value in them is refused)']);
  });

  it('a header read as written says nothing; a duplicate or a nameless column inside is refused with its line and columns', async () => {
    expect((await notices('id,question\na,one\n')).said).toEqual([]);
    expect(await notices('question,priority,"priority "\nx,1,2\n')).toEqual({ out: ['q.csv:1: header: columns 2 and 3 are both named "priority": rename one'], said: [] });
    expect(await notices('question,,p\nx,1,2\n')).toEqual({ out: ['q.csv:1: header: column 2 has no name'], said: [] });
  });
});
