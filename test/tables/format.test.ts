import { describe, expect, it } from 'vitest';
import { formatFromName, sniffFormat } from '../../src/tables/format.js';

describe('formatFromName', () => {
  it.each([
    ['a.csv', 'csv'],
    ['a.TSV', 'tsv'],
    ['dir.x/A.CSV', 'csv'],
    ['a.jsonl', 'jsonl'],
    ['a.ndjson', 'jsonl'],
    ['a.json', null],
    ['a.txt', null],
    ['csv', null],
  ])('%s → %s', (name, format) => {
    expect(formatFromName(name)).toBe(format);
  });
});

describe('sniffFormat', () => {
  const sniff = (s: string) => sniffFormat(Buffer.from(s));

  it('takes a leading object (after a BOM and white space) for JSONL', () => {
    expect(sniff('\ufeff \n{"question":"q"}\n')).toEqual({ format: 'jsonl' });
  });

  it('takes a first line with a question column for CSV', () => {
    expect(sniff('id,question\r\n1,q\r\n')).toEqual({ format: 'csv' });
    expect(sniff('"id", "question"\n')).toEqual({ format: 'csv' });
    expect(sniff('ID,Question\n')).toEqual({ format: 'csv' });
  });

  it('refuses a JSON array, an empty file and anything else', () => {
    expect(sniff('[{"question":"q"}]')).toEqual({ reason: 'looks like a JSON array: write one JSON object a line (JSONL)' });
    expect(sniff(' \n')).toEqual({ reason: 'file is empty' });
    expect(sniff('Why?\n')).toEqual({ reason: 'cannot tell whether this is CSV or JSONL: name it .csv, .tsv, .jsonl or .ndjson' });
  });
});

describe('sniffFormat on spreadsheet and wide files', () => {
  it('finds the question column after a sep= line and with ; or tab separators', () => {
    expect(sniffFormat(Buffer.from('sep=;\r\nid;question\r\n'))).toEqual({ format: 'csv' });
    expect(sniffFormat(Buffer.from('id\tquestion\n'))).toEqual({ format: 'csv' });
  });

  it('refuses UTF-16 naming the encoding and the conversion', () => {
    expect(sniffFormat(Buffer.from('\ufeffquestion\n', 'utf16le'), 'q.txt')).toEqual({
      reason: "file is UTF-16 encoded (UTF-16LE); resq reads UTF-8: convert it with iconv -f UTF-16LE -t UTF-8 q.txt > q.utf8.txt",
    });
  });
});
