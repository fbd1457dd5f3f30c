import type { ByteChecker } from './byte-check.js';
import type { CsvDialect } from './csv-dialect.js';
import type { DuplicateIds } from './row.js';
import { type CsvRowReader, type KeyedRow, type Notify, type ReadResult, type RowSchema, problem, refused } from './row-schema.js';

/** The header's shape once trailing nameless columns are cut. */
interface Header<R> {
  /** Columns as written, nameless trailing ones included. */
  written: number;
  /** Named columns: the fields a row hands to the schema. */
  named: number;
  toRow: CsvRowReader<R>;
}

/**
 * Turns parsed CSV records into results, one by one, in file order: line numbers as an
 * editor shows them, the header, blank and all-empty rows, ragged rows, bad bytes and
 * duplicate ids. What a row means is the schema's.
 */
export class CsvRecords<R extends KeyedRow> {
  /** Physical line where the next record starts. */
  nextLine: number;
  /** Set once a bad header ends the reading. */
  stopped = false;
  /** csv-parse's own line count after the last record. */
  #parserLines = 0;
  #header: Header<R> | null = null;
  #ordinal = 0;
  #pending: ReadResult<R>[] = [];
  readonly #file: string;
  readonly #schema: RowSchema<R>;
  readonly #ids: DuplicateIds | null;
  readonly #checker: ByteChecker;
  readonly #crEndsLines: boolean;
  readonly #notify: Notify | undefined;

  constructor(file: string, schema: RowSchema<R>, ids: DuplicateIds | null, checker: ByteChecker, dialect: CsvDialect, notify?: Notify) {
    this.#notify = notify;
    this.#file = file;
    this.#schema = schema;
    this.#ids = ids;
    this.#checker = checker;
    this.#crEndsLines = dialect.crEndsLines;
    this.nextLine = 1 + dialect.skipLines;
  }

  /** Takes one record: its fields, csv-parse's line count after it, the file offset of its end. */
  add(fields: string[], parserLines: number, endOffset: number): void {
    if (this.stopped) return;
    const file = this.#file;
    const line = this.nextLine;
    // csv-parse counts every CR as a line: recount the rare multi-line record as an editor would.
    const spanned = parserLines - this.#parserLines;
    this.#parserLines = parserLines;
    this.nextLine = line + (spanned === 1 ? 1 : 1 + countLineBreaks(fields, this.#crEndsLines));
    const fault = this.#checker.takeBefore(endOffset);
    if (fault === undefined && allEmpty(fields)) return;
    const header = this.#header;
    if (header === null) {
      this.#readHeader(fields, line, fault?.reason);
      return;
    }
    const ordinal = ++this.#ordinal;
    if (fault) {
      this.#pending.push(problem({ file, line, reason: fault.reason }));
      return;
    }
    const n = fields.length;
    if (n !== header.written && n !== header.named) {
      this.#pending.push(problem({ file, line, reason: `expected ${header.written} fields like the header, found ${n}` }));
      return;
    }
    for (let k = header.named; k < n; k++) {
      if (fields[k]!.trim() !== '') {
        this.#pending.push(problem({ file, line, field: `column ${k + 1}`, reason: 'has a value but no name in the header' }));
        return;
      }
    }
    const result = header.toRow(n === header.named ? fields : fields.slice(0, header.named), line, ordinal);
    const duplicate = result.ok && this.#ids ? this.#ids.check(file, result.row) : null;
    this.#pending.push(duplicate ? problem(duplicate) : result.ok ? result : refused(result));
  }

  /** The results added since the last call. */
  drain(): ReadResult<R>[] {
    const out = this.#pending;
    this.#pending = [];
    return out;
  }

  /** The whole-file problem, if any, once every record is in. */
  ending(): ReadResult<R> | null {
    if (this.#header === null) return problem({ file: this.#file, reason: 'file is empty' });
    if (this.#ordinal === 0) {
      return problem({ file: this.#file, reason: `no ${this.#schema.noun}: the file has only a header row` });
    }
    return null;
  }

  #readHeader(fields: string[], line: number, fault: string | undefined): void {
    const file = this.#file;
    let named = fields.length;
    // Spreadsheets write empty columns after the last named one: they are no columns.
    while (named > 1 && fields[named - 1]!.trim() === '') named--;
    // Names are read trimmed (a spreadsheet's `"priority "` is `priority`), by every schema alike.
    const names = fields.slice(0, named).map((f) => f.trim());
    const found = fault ? [{ file, line, reason: `header: ${fault}` }] : this.#schema.csvHeader(file, names, line, this.#notify);
    if (Array.isArray(found)) {
      const hint = found.length > 0 && named === 1 ? delimiterHint(fields[0]!) : '';
      found.forEach((p, i) => this.#pending.push(problem(i === 0 && hint ? { ...p, reason: `${p.reason}${hint}` } : p)));
      this.stopped = true;
    } else {
      this.#header = { written: fields.length, named, toRow: found };
      for (const notice of headerChanges(fields, named)) this.#notify?.(`${file}:${line}: header: ${notice}`);
    }
  }
}

/**
 * What reading a header changed, each as one notice: names read trimmed (with their columns),
 * and the nameless columns after the last named one, ignored. Names are JSON-quoted, so a
 * space or a control character shows. Pure.
 */
export function headerChanges(fields: readonly string[], named: number): string[] {
  const out: string[] = [];
  const trimmed = fields.slice(0, named).flatMap((f, i) => (f === f.trim() ? [] : [`column ${i + 1} ${JSON.stringify(f)} as ${JSON.stringify(f.trim())}`]));
  if (trimmed.length > 0) out.push(`read ${trimmed.join(', ')} (spaces around a name are dropped)`);
  const cut = fields.length - named;
  if (cut > 0) {
    const which = cut === 1 ? `column ${named + 1} has` : `columns ${named + 1}–${fields.length} have`;
    out.push(`${which} no name and ${cut === 1 ? 'is' : 'are'} ignored (a value in ${cut === 1 ? 'it' : 'them'} is refused)`);
  }
  return out;
}

/** Characters that separate fields in files resq does not sniff; `,` `;` and tab are sniffed. */
const OTHER_DELIMITERS = ['|', ':', '^', '~'];

/** For a header read as one column: names the delimiter it seems to use, and how to say so. */
function delimiterHint(header: string): string {
  const d = OTHER_DELIMITERS.find((c) => header.includes(c));
  return d ? ` (the header reads as one column: if the file is separated by "${d}", make its first line sep=${d})` : '';
}

/** Whether every field of a record is empty: a blank line, or `,,,` from a spreadsheet. */
function allEmpty(fields: string[]): boolean {
  for (const f of fields) if (f !== '') return false;
  return true;
}

/** Line breaks inside a record's fields: CRLF and LF, and a lone CR only in a file whose lines end so. */
function countLineBreaks(fields: string[], crEndsLines: boolean): number {
  let n = 0;
  for (const field of fields) {
    for (let i = 0; i < field.length; i++) {
      const c = field.charCodeAt(i);
      if (c === 13) {
        if (field.charCodeAt(i + 1) === 10) {
          n++;
          i++;
        } else if (crEndsLines) {
          n++;
        }
      } else if (c === 10) {
        n++;
      }
    }
  }
  return n;
}
