import { CsvError, type Parser, parse } from 'csv-parse';
import { ByteChecker } from './byte-check.js';
import { CsvRecords } from './csv-records.js';
import { DIALECT_HEAD_BYTES, sniffCsvDialect } from './csv-dialect.js';
import { notTextReason, wideEncoding, wideEncodingReason } from './encoding.js';
import { asBuffer, peekHead } from './peek-head.js';
import type { DuplicateIds } from './row.js';
import { type KeyedRow, type Notify, type ReadResult, type RowSchema, problem } from './row-schema.js';

/** How {@link readCsv} reads a file beyond what it sniffs. */
export interface CsvReadOptions {
  /** The delimiter the file's name says (`\t` for `.tsv`); a `sep=` line still wins. @default sniffed */
  delimiter?: string;
  /** Hears notices about the file (a header read leniently). */
  notify?: Notify;
}

/** Longest record accepted, in characters; it bounds memory when a quote is never closed. */
export const MAX_RECORD_CHARS = 8_000_000;

/**
 * Streams a CSV file (header row, RFC 4180 quoting, LF, CRLF or CR line ends) and
 * yields every record validated by `schema`, in file order. What spreadsheets write is
 * read: a UTF-8 BOM, Excel's `sep=;` first line, `;` or tab delimiters (sniffed from the
 * header, or tab for a `.tsv` file), trailing nameless columns, all-empty rows (skipped
 * like blank lines), reserved column names in another case (said through `notify`). Every
 * bad record is reported (ragged rows, bad bytes, duplicate ids, what the schema refuses)
 * and reading goes on — except after a structural error (an unclosed or stray quote, an
 * endless record): csv-parse cannot resynchronise after one, so that error is reported
 * at the line where its record starts, marked `reading stopped here`, and the generator
 * ends cleanly.
 */
export async function* readCsv<R extends KeyedRow>(
  source: AsyncIterable<Uint8Array>,
  file: string,
  schema: RowSchema<R>,
  ids: DuplicateIds | null,
  opts: CsvReadOptions = {},
): AsyncGenerator<ReadResult<R>> {
  const peeked = await peekHead(source, DIALECT_HEAD_BYTES);
  const wide = wideEncoding(peeked.head);
  const binary = notTextReason(peeked.head);
  if (wide || binary) {
    await peeked.cancel();
    yield problem({ file, reason: binary ?? wideEncodingReason(wide!, file) });
    return;
  }
  const dialect = sniffCsvDialect(peeked.head, opts.delimiter);
  const checker = new ByteChecker();
  const records = new CsvRecords(file, schema, ids, checker, dialect, opts.notify);
  // Records are handled inside on_record and never pushed: no object-mode stream per row.
  const parser = parse({
    bom: false,
    delimiter: dialect.delimiter,
    relax_column_count: true,
    skip_empty_lines: false,
    // Fixed rather than sniffed from the first line, so files mixing line endings still parse.
    record_delimiter: ['\r\n', '\n', '\r'],
    max_record_size: MAX_RECORD_CHARS,
    on_record: (fields: string[], ctx) => {
      records.add(fields, ctx.lines, ctx.bytes + dialect.skipBytes);
      return null;
    },
  });
  // Errors reach us through the write callbacks; this only keeps the event handled.
  parser.on('error', () => {});
  let error: unknown;
  let skip = dialect.skipBytes;
  try {
    for await (const chunk of peeked.chunks) {
      checker.push(chunk);
      // The BOM and `sep=` line are not CSV: the parser starts at the header.
      let body = asBuffer(chunk);
      if (skip > 0) {
        const cut = Math.min(skip, body.length);
        body = body.subarray(cut);
        skip -= cut;
      }
      error = await write(parser, body);
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
    await peeked.chunks.return(undefined);
  }
  if (error !== undefined) {
    if (!(error instanceof CsvError)) throw error;
    yield problem({ file, line: records.nextLine, reason: `${structuralReason(error)} (reading stopped here)` });
  } else if (!records.stopped) {
    const last = records.ending();
    if (last) yield last;
  }
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
