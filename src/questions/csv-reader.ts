import { CsvError, type Parser, parse } from 'csv-parse';
import type { InputProblem } from '../errors.js';
import { ByteChecker } from './byte-check.js';
import { type CsvColumns, type DuplicateIds, type RowResult, csvColumns, csvRecordToRow } from './row.js';

/** Longest record accepted, in characters; it bounds memory when a quote is never closed. */
export const MAX_RECORD_CHARS = 8_000_000;

/**
 * Streams a CSV question set (header row, RFC 4180 quoting, LF or CRLF, optional BOM)
 * and yields every record validated, in file order. Every bad record is reported
 * (ragged rows, empty questions, bad bytes, duplicate ids) and reading goes on — except
 * after a structural error (an unclosed or stray quote, an endless record): csv-parse
 * cannot resynchronise after one, so that error is reported at the line where its
 * record starts, marked `reading stopped here`, and the generator ends cleanly.
 * Blank lines are skipped.
 */
export async function* readCsv(
  source: AsyncIterable<Uint8Array>,
  file: string,
  ids: DuplicateIds | null,
): AsyncGenerator<RowResult> {
  const checker = new ByteChecker();
  const records = new CsvRecords(file, ids, checker);
  // Records are handled inside on_record and never pushed: no object-mode stream per row.
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: false,
    // Fixed rather than sniffed from the first line, so files mixing line endings still parse.
    record_delimiter: ['\r\n', '\n', '\r'],
    max_record_size: MAX_RECORD_CHARS,
    on_record: (fields: string[], ctx) => {
      records.add(fields, ctx.lines, ctx.bytes);
      return null;
    },
  });
  // Errors reach us through the write callbacks; this only keeps the event handled.
  parser.on('error', () => {});
  let error: unknown;
  try {
    for await (const chunk of source) {
      checker.push(chunk);
      error = await write(parser, chunk);
      for (const result of records.drain()) yield result;
      if (error !== undefined || records.stopped) break;
    }
    if (error === undefined && !records.stopped) {
      checker.end();
      error = await finish(parser);
      for (const result of records.drain()) yield result;
    }
  } finally {
    parser.destroy();
  }
  if (error !== undefined) {
    if (!(error instanceof CsvError)) throw error;
    yield problem({ file, line: records.nextLine, reason: `${structuralReason(error)} (reading stopped here)` });
  } else if (!records.stopped) {
    const last = records.ending();
    if (last) yield last;
  }
}

/** Turns parsed records into results, one by one, in file order. */
class CsvRecords {
  /** Physical line where the next record starts. */
  nextLine = 1;
  /** csv-parse's own line count after the last record. */
  #parserLines = 0;
  /** Set once a bad header ends the reading. */
  stopped = false;
  #columns: CsvColumns | null = null;
  #ordinal = 0;
  #pending: RowResult[] = [];

  readonly file: string;
  readonly ids: DuplicateIds | null;
  readonly checker: ByteChecker;

  constructor(file: string, ids: DuplicateIds | null, checker: ByteChecker) {
    this.file = file;
    this.ids = ids;
    this.checker = checker;
  }

  add(fields: string[], parserLines: number, endOffset: number): void {
    if (this.stopped) return;
    const { file } = this;
    const line = this.nextLine;
    // csv-parse counts a CRLF inside quotes as two lines: recount the rare multi-line record.
    const spanned = parserLines - this.#parserLines;
    this.#parserLines = parserLines;
    this.nextLine = line + (spanned === 1 ? 1 : 1 + countLineBreaks(fields));
    const fault = this.checker.takeBefore(endOffset);
    if (fields.length === 1 && fields[0] === '' && fault === undefined) return;
    const columns = this.#columns;
    if (columns === null) {
      const found = fault ? `header: ${fault.reason}` : csvColumns(fields);
      if (typeof found === 'string') {
        this.#pending.push(problem({ file, line, reason: found }));
        this.stopped = true;
      } else {
        this.#columns = found;
      }
      return;
    }
    const ordinal = ++this.#ordinal;
    if (fault) {
      this.#pending.push(problem({ file, line, reason: fault.reason }));
    } else if (fields.length !== columns.count) {
      const reason = `expected ${columns.count} fields like the header, found ${fields.length}`;
      this.#pending.push(problem({ file, line, reason }));
    } else {
      const result = csvRecordToRow(file, columns, fields, line, ordinal);
      const duplicate = result.ok && this.ids ? this.ids.check(file, result.row) : null;
      this.#pending.push(duplicate ? problem(duplicate) : result);
    }
  }

  /** The results added since the last call. */
  drain(): RowResult[] {
    const out = this.#pending;
    this.#pending = [];
    return out;
  }

  /** The whole-file problem, if any, once every record is in. */
  ending(): RowResult | null {
    if (this.#columns === null) return problem({ file: this.file, reason: 'file is empty' });
    if (this.#ordinal === 0) {
      return problem({ file: this.file, reason: 'no questions: the file has only a header row' });
    }
    return null;
  }
}

/** Line breaks (CRLF, LF or CR) inside a record's fields. */
function countLineBreaks(fields: string[]): number {
  let n = 0;
  for (const field of fields) {
    for (let i = 0; i < field.length; i++) {
      const c = field.charCodeAt(i);
      if (c === 13) {
        n++;
        if (field.charCodeAt(i + 1) === 10) i++;
      } else if (c === 10) {
        n++;
      }
    }
  }
  return n;
}

function write(parser: Parser, chunk: Uint8Array): Promise<unknown> {
  return new Promise((resolve) => parser.write(chunk, (err) => resolve(err ?? undefined)));
}

function finish(parser: Parser): Promise<unknown> {
  return new Promise((resolve) => parser.end((err?: unknown) => resolve(err ?? undefined)));
}

/** Says in plain words what a csv-parse error means for the user's file. */
function structuralReason(err: CsvError): string {
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'unbalanced quote: a quoted field starting in this record is never closed';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'unbalanced quote: a closing quote is followed by more text (write a quote inside a quoted field as "")';
    case 'INVALID_OPENING_QUOTE':
      return 'stray quote inside an unquoted field (quote the whole field and write inner quotes as "")';
    case 'CSV_MAX_RECORD_SIZE':
      return `record longer than ${MAX_RECORD_CHARS} characters (a quote never closed?)`;
    default:
      return err.message;
  }
}

function problem(p: InputProblem): RowResult {
  return { ok: false, problem: p };
}
