import { describe, expect, it } from 'vitest';
import { sniffCsvDialect } from '../../src/tables/csv-dialect.js';

const sniff = (s: string | Buffer) => sniffCsvDialect(typeof s === 'string' ? Buffer.from(s) : s);

describe('sniffCsvDialect', () => {
  it('defaults to commas, nothing skipped', () => {
    expect(sniff('id,question\n1,a\n')).toEqual({ skipBytes: 0, skipLines: 0, delimiter: ',', crEndsLines: false });
  });

  it('skips a UTF-8 BOM and Excel sep= line, taking its delimiter', () => {
    expect(sniff('\ufeffsep=;\r\nid;question\r\n')).toEqual({ skipBytes: 3 + 7, skipLines: 1, delimiter: ';', crEndsLines: false });
    expect(sniff('SEP=|\nid|question\n')).toMatchObject({ skipBytes: 6, skipLines: 1, delimiter: '|' });
  });

  it('takes the delimiter the name says (.tsv) over a sniffed one, but not over sep=', () => {
    const sniffTsv = (s: string) => sniffCsvDialect(Buffer.from(s), '\t');
    expect(sniffTsv('question\tnotes, more\n').delimiter).toBe('\t');
    expect(sniffTsv('sep=;\nquestion;a\n').delimiter).toBe(';');
  });

  it('sniffs ; and tab from the header, preferring a comma, ignoring quoted ones', () => {
    expect(sniff('id;question\n').delimiter).toBe(';');
    expect(sniff('id\tquestion\n').delimiter).toBe('\t');
    expect(sniff('"a;b",question\n').delimiter).toBe(',');
    expect(sniff('"a,b";question\n').delimiter).toBe(';');
    expect(sniff('question\n').delimiter).toBe(',');
  });

  it('says whether a lone CR ends lines (old Mac files)', () => {
    expect(sniff('id,question\r1,a\r').crEndsLines).toBe(true);
    expect(sniff('id,question\r\n1,a\r\n').crEndsLines).toBe(false);
    expect(sniff('"multi\rline",question\n').crEndsLines).toBe(false);
  });
});
