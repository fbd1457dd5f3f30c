import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, formatProblem } from '../../src/errors.js';
import { hashFile, readQuestionSet, validateQuestionSet } from '../../src/tables/index.js';

const BAD = 'test/fixtures/bad';
const GOOD = 'test/fixtures/good';

/** Every problem of a file, formatted as the CLI prints it, and the ids of the valid rows. */
async function report(path: string): Promise<{ problems: string[]; ids: string[] }> {
  const problems: string[] = [];
  const ids: string[] = [];
  for await (const r of readQuestionSet(path)) {
    if (r.ok) ids.push(r.row.id);
    else problems.push(formatProblem(r.problem));
  }
  return { problems, ids };
}

const stopped = '(reading stopped here)';

const badFixtures: Array<[string, string[], string[]]> = [
  ['unbalanced-quote.csv', ['1'], [`3: unbalanced quote: a quoted field starting in this record is never closed ${stopped}`]],
  ['stray-quote.csv', ['1'], [`3: stray quote inside an unquoted field (quote the whole field and write inner quotes as "") ${stopped}`]],
  ['closing-quote.csv', [], [`2: unbalanced quote: a closing quote is followed by more text (write a quote inside a quoted field as "") ${stopped}`]],
  ['ragged-row.csv', ['1', '4'], ['3: expected 3 fields like the header, found 2', '4: expected 3 fields like the header, found 4']],
  ['empty-question.csv', ['3'], ['2: question: empty', '3: question: empty']],
  ['duplicate-id.csv', ['a', 'b', '4'], ['4: id: duplicate "a" (first on line 2)', '6: id: duplicate "4" (first on line 5)']],
  ['duplicate-id.jsonl', ['7'], ['3: id: duplicate "7" (first on line 1)']],
  ['empty.csv', [], [': file is empty']],
  ['blank-only.csv', [], [': file is empty']],
  ['blank-only.jsonl', [], [': file is empty']],
  ['header-only.csv', [], [': no questions: the file has only a header row']],
  ['no-question-column.csv', [], ['1: header: no "question" column; found "id", "prompt"']],
  ['duplicate-column.csv', [], ['1: header: columns 1 and 3 are both named "id": rename one']],
  ['invalid-utf8.csv', ['2', '4'], ['2: invalid UTF-8 bytes (the file must be UTF-8 encoded)', '4: invalid UTF-8 bytes (the file must be UTF-8 encoded)']],
  ['invalid-utf8.jsonl', ['1', '3'], ['2: invalid UTF-8 bytes (the file must be UTF-8 encoded)']],
  ['nul-byte.csv', ['1'], ['3: contains a NUL byte (is this a binary file?)']],
  ['nul-byte.jsonl', ['1'], ['2: contains a NUL byte (is this a binary file?)']],
  ['invalid-json.jsonl', ['1', '4'], [
    "2: invalid JSON: Expected ',' or '}' after property value at column 32",
    "3: invalid JSON: Expected property name or '}' at column 2",
  ]],
  ['non-object.jsonl', ['1'], [
    '2: expected a JSON object, found a string',
    '3: expected a JSON object, found a number',
    '4: expected a JSON object, found null',
  ]],
  ['array-line.jsonl', ['2'], ['1: expected a JSON object, found an array']],
  ['missing-question.jsonl', ['2'], ['1: question: missing']],
  ['non-string-question.jsonl', [], [
    '1: question: must be a string, found a number',
    '2: question: must be a string, found an array',
    '3: question: must be a string, found null',
    '4: question: empty',
  ]],
  // An integer beyond 2^53 is kept as written (its source text), not refused.
  ['bad-id.jsonl', ['9007199254740993'], [
    '1: id: must be a string or an integer, found a number',
    '2: id: must be a string or an integer, found a boolean',
    '3: id: empty',
    '5: id: must be a string or an integer, found an object',
  ]],
  ['bad-thread.jsonl', [], [
    '1: thread: must be a string or an integer, found a boolean',
    '2: thread: must be a string or an integer, found an array',
  ]],
  ['deep-nesting.jsonl', ['1'], ['2: nested deeper than 256 levels']],
  // Two ids that differ only by a lone surrogate would both become U+FFFD when stored.
  ['lone-surrogate.jsonl', [], [
    '1: invalid JSON: a \\u escape is a lone surrogate (not a character)',
    '2: invalid JSON: a \\u escape is a lone surrogate (not a character)',
  ]],
  ['utf16.csv', [], [": file is UTF-16 encoded (UTF-16LE); resq reads UTF-8: convert it with iconv -f UTF-16LE -t UTF-8 test/fixtures/bad/utf16.csv > test/fixtures/bad/utf16.utf8.csv"]],
  // ESC and BEL from the file are shown escaped, never sent raw to the terminal.
  ['control-chars.csv', ['\u001b]0;owned\u0007'], ['3: id: duplicate "\\x1b]0;owned\\x07" (first on line 2)']],
  ['json-array.json', [], [': looks like a JSON array: write one JSON object a line (JSONL)']],
  ['unknown-format.txt', [], [': cannot tell whether this is CSV or JSONL: name it .csv, .tsv, .jsonl or .ndjson']],
];

describe('readQuestionSet on malformed fixtures', () => {
  it.each(badFixtures)('reports every problem of %s as file:line: field: reason', async (name, ids, problems) => {
    const path = `${BAD}/${name}`;
    const got = await report(path);
    expect(got.problems).toEqual(problems.map((p) => (p.startsWith(':') ? `${path}${p}` : `${path}:${p}`)));
    expect(got.ids).toEqual(ids);
  });
});

describe('readQuestionSet on valid fixtures', () => {
  it('reads a CSV with BOM, CRLF, quoted commas and an embedded newline', async () => {
    const rows = [];
    for await (const r of readQuestionSet(`${GOOD}/bom-crlf.csv`)) rows.push(r);
    expect(rows).toEqual([
      { ok: true, row: { id: 'q1', line: 2, question: 'Compare A, B and C', thread: null, meta: { topic: 'chem' } } },
      {
        ok: true,
        row: { id: 'q2', line: 3, question: 'A question\r\nover two lines, with "quotes"', thread: 't1', meta: { topic: 'bio' } },
      },
      { ok: true, row: { id: 'q3', line: 6, question: 'Plain', thread: 't1', meta: { topic: '' } } },
    ]);
  });

  it('reads a JSONL file with meta, threads, blank lines and CRLF', async () => {
    const rows = [];
    for await (const r of readQuestionSet(`${GOOD}/meta-threads.jsonl`)) rows.push(r);
    expect(rows).toEqual([
      { ok: true, row: { id: 'a', line: 1, question: 'First', thread: 't1', meta: { tags: ['x', 'y'], priority: 1 } } },
      { ok: true, row: { id: '2', line: 3, question: 'Second', thread: 't1', meta: { source: { page: 3 } } } },
      { ok: true, row: { id: '3', line: 4, question: 'Third – ünïcödé', thread: '7', meta: {} } },
    ]);
  });

  it('defaults ids to the data row ordinal in a question-only CSV', async () => {
    expect(await report(`${GOOD}/minimal.csv`)).toEqual({ problems: [], ids: ['1', '2'] });
  });

  it('sniffs JSONL from content when the extension says nothing', async () => {
    expect(await report(`${GOOD}/sniffed-jsonl.txt`)).toEqual({ problems: [], ids: ['1'] });
  });

  it('obeys an explicit format over the extension', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'resq-q-'));
    const path = join(dir, 'questions.csv');
    writeFileSync(path, '{"question":"json in a .csv"}\n');
    expect((await report(path)).problems).toEqual([
      `${path}:1: stray quote inside an unquoted field (quote the whole field and write inner quotes as "") ${stopped}`,
    ]);
    const rows = [];
    for await (const r of readQuestionSet(path, { format: 'jsonl' })) rows.push(r);
    expect(rows).toEqual([{ ok: true, row: { id: '1', line: 1, question: 'json in a .csv', thread: null, meta: {} } }]);
  });

  it('reads a .tsv file as tab-separated and an upper-case header as the reserved columns, said once', async () => {
    const path = `${GOOD}/upper-header.tsv`;
    const notices: string[] = [];
    const rows = [];
    for await (const r of readQuestionSet(path, { onNotice: (n) => notices.push(n) })) rows.push(r);
    // The header holds a comma, which the sniffer would have taken for the delimiter.
    expect(rows).toEqual([
      { ok: true, row: { id: 'q1', line: 2, question: 'What, exactly?', thread: 't', meta: { 'notes, extra': 'x, y' } } },
      { ok: true, row: { id: 'q2', line: 3, question: 'Why?', thread: null, meta: { 'notes, extra': 'z' } } },
    ]);
    expect(notices).toEqual([
      `${path}:1: header: read "Question" as "question", "ID" as "id", "Thread" as "thread" (resq's column names are lower case)`,
    ]);
  });

  it('reads JSONL keys in another case as the reserved fields, each notice once', async () => {
    const path = `${GOOD}/upper-keys.jsonl`;
    const notices: string[] = [];
    const rows = [];
    for await (const r of readQuestionSet(path, { onNotice: (n) => notices.push(n) })) rows.push(r);
    expect(rows).toEqual([
      { ok: true, row: { id: 'a', line: 1, question: 'First', thread: null, meta: { topic: 'x' } } },
      { ok: true, row: { id: '2', line: 2, question: 'Second', thread: null, meta: {} } },
    ]);
    expect(notices).toEqual([
      `${path}: read key "Question" as "question"`,
      `${path}: read key "ID" as "id"`,
      `${path}: read key "QUESTION" as "question"`,
      `${path}: read key "Id" as "id"`,
    ]);
  });

  it('says the notice once in a validation summary', async () => {
    const summary = await validateQuestionSet(`${GOOD}/upper-header.tsv`);
    expect(summary.rows).toBe(2);
    expect(summary.notices).toHaveLength(1);
  });

  it('sniffs a CSV from its header when the extension says nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'resq-q-'));
    const path = join(dir, 'questions.txt');
    writeFileSync(path, 'id,"question"\nx,Why?\n');
    expect(await report(path)).toEqual({ problems: [], ids: ['x'] });
  });
});

describe('validateQuestionSet', () => {
  it('counts rows and problems and hashes the same bytes', async () => {
    const path = `${BAD}/ragged-row.csv`;
    const summary = await validateQuestionSet(path);
    const sha = createHash('sha256').update(readFileSync(path)).digest('hex');
    expect(summary).toEqual({
      rows: 2,
      invalid: 2,
      problems: [
        { file: path, line: 3, reason: 'expected 3 fields like the header, found 2' },
        { file: path, line: 4, reason: 'expected 3 fields like the header, found 4' },
      ],
      sha256: sha,
      notices: [],
    });
    expect(await hashFile(path)).toBe(sha);
  });

  it('keeps at most maxProblems problems and counts the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'resq-q-'));
    const path = join(dir, 'many.jsonl');
    writeFileSync(path, '{"question":""}\n'.repeat(50) + '{"question":"ok"}\n');
    const summary = await validateQuestionSet(path, { maxProblems: 10 });
    expect(summary.rows).toBe(1);
    expect(summary.invalid).toBe(50);
    expect(summary.problems).toHaveLength(10);
    expect(summary.problems[9]).toEqual({ file: path, line: 10, field: 'question', reason: 'empty' });
  });

  it('hashes the whole file even when reading stops at a stray quote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'resq-q-'));
    const path = join(dir, 'broken.csv');
    writeFileSync(path, 'question\na"b\n' + 'x\n'.repeat(400_000));
    const summary = await validateQuestionSet(path);
    expect(summary.invalid).toBe(1);
    expect(summary.sha256).toBe(createHash('sha256').update(readFileSync(path)).digest('hex'));
  });

  it('hashes an empty file', async () => {
    const summary = await validateQuestionSet(`${BAD}/empty.csv`);
    expect(summary.sha256).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(summary.invalid).toBe(1);
  });
});

describe('files that cannot be read', () => {
  it('refuses a missing file with an InputError naming it', async () => {
    const path = 'test/fixtures/bad/no-such-file.csv';
    await expect(validateQuestionSet(path)).rejects.toThrow(InputError);
    await expect(hashFile(path)).rejects.toThrow(`${path}: cannot open: no such file`);
    const iterate = async () => {
      for await (const _ of readQuestionSet(path)) void _;
    };
    await expect(iterate()).rejects.toThrow(`${path}: cannot open: no such file`);
  });

  it('refuses a directory', async () => {
    await expect(validateQuestionSet('test/fixtures/bad')).rejects.toThrow('test/fixtures/bad: not a regular file');
  });

  it('closes the file when the reader stops early', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'resq-q-'));
    const path = join(dir, 'long.csv');
    writeFileSync(path, 'question\n' + 'q\n'.repeat(200_000));
    const fds = () => readdirCount('/proc/self/fd');
    const before = fds();
    for (let i = 0; i < 5; i++) {
      for await (const r of readQuestionSet(path)) {
        expect(r.ok).toBe(true);
        break;
      }
    }
    expect(fds()).toBeLessThanOrEqual(before);
  });
});

function readdirCount(dir: string): number {
  return readdirSync(dir).length;
}
