import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/errors.js';
import type { CsvRowReader, ReadResult, RowSchema } from '../../src/tables/row-schema.js';
import { readTable } from '../../src/tables/table-reader.js';
import { tempDir } from '../support/cli.js';

/** A schema of its own: rows are `name` columns / keys; the reader does the rest. */
interface NameRow {
  id: string;
  line: number;
  name: string;
}
const names: RowSchema<NameRow> = {
  noun: 'names',
  csvHeader(file, header, line) {
    const at = header.indexOf('name');
    if (at === -1) return [{ file, line, reason: 'no name column' }];
    const read: CsvRowReader<NameRow> = (fields, l, ordinal) => ({ ok: true, row: { id: String(ordinal), line: l, name: fields[at]! } });
    return read;
  },
  jsonRow(file, value, line, ordinal): ReadResult<NameRow> {
    const name = (value as { name?: unknown }).name;
    if (typeof name !== 'string') return { ok: false, problem: { file, line, field: 'name', reason: 'missing' } };
    return { ok: true, row: { id: String(ordinal), line, name } };
  },
};

async function read(name: string, content: string | Buffer): Promise<string[]> {
  const file = join(tempDir(), name);
  writeFileSync(file, content);
  const out: string[] = [];
  for await (const r of readTable(file, names)) out.push(r.ok ? `${r.row.line} ${r.row.name}` : formatProblem(r.problem).slice(file.length));
  return out;
}

describe('readTable', () => {
  it('serves any schema: CSV and JSONL rows, whole-file problems in its words', async () => {
    expect(await read('n.csv', 'x;name\n1;ada\n')).toEqual(['2 ada']);
    expect(await read('n.jsonl', '{"name":"ada"}\n{"nom":"x"}\n')).toEqual(['1 ada', ':2: name: missing']);
    expect(await read('h.csv', 'name\n')).toEqual([': no names: the file has only a header row']);
  });

  it('refuses UTF-16 and UTF-32 files of either format', async () => {
    expect(await read('w.jsonl', Buffer.from('\ufeff{"name":"a"}\n', 'utf16le'))).toEqual([
      expect.stringMatching(/^: file is UTF-16 encoded \(UTF-16LE\)/),
    ]);
    expect(await read('w.csv', Buffer.from([0, 0, 0xfe, 0xff, 0, 0, 0, 0x6e]))).toEqual([expect.stringMatching(/^: file is UTF-32 encoded \(UTF-32BE\)/)]);
  });

  it('sniffs the format of a file whose name does not say, semicolons and sep= included', async () => {
    const q = (await import('../../src/tables/row.js')).questionSchema;
    const file = join(tempDir(), 'q.txt');
    writeFileSync(file, 'sep=;\nid;question\n1;Why?\n');
    const rows = [];
    for await (const r of readTable(file, q)) rows.push(r);
    expect(rows).toEqual([{ ok: true, row: { id: '1', line: 3, question: 'Why?', thread: null, meta: {} } }]);
  });
});
