import type { InputProblem } from '../errors.js';
import { escapeControls } from '../text/escape-text.js';
import { IdIndex } from './id-index.js';
import { isRawNumber } from '../text/json-text.js';
import type { CsvRowReader, KeyedRow, Notify, ReadResult, RowSchema } from './row-schema.js';

/** One valid question of a question set. */
export interface QuestionRow {
  /** The row's id: the file's `id` field, or else the data row's 1-based ordinal. */
  id: string;
  /** 1-based physical line where the record starts. */
  line: number;
  /** The run's input, verbatim. */
  question: string;
  /** Thread key: rows sharing one run one after another in one thread; null for none. */
  thread: string | null;
  /** Every other field (CSV: strings; JSONL: any JSON value). */
  meta: Record<string, unknown>;
  /** The expected answer (`expected`: CSV a string, JSONL a string, a number or an object), kept apart from meta; absent: none. */
  expected?: unknown;
}

/** A row read from a question set: valid, or one problem with it. */
export type RowResult = ReadResult<QuestionRow>;

/** Where the reserved fields sit in a CSV header, and the names of the others. */
export interface CsvColumns {
  /** Number of fields every record must have. */
  count: number;
  question: number;
  /** -1 when the file has no such column. */
  id: number;
  /** -1 when the file has no such column. */
  thread: number;
  /** -1 when the file has no such column. */
  expected: number;
  /** Names of every other column, in header order. */
  metaNames: string[];
  /** Their positions, matching `metaNames`. */
  metaIndexes: number[];
  /** Reserved columns written in another case, as read: `"Question" as "question"`. */
  renamed: string[];
}

const RESERVED = new Set(['question', 'id', 'thread', 'expected']);

/**
 * Reads a CSV header row into column positions, or says why it cannot be used. A reserved
 * name written in another case (`Question`, `ID`) is read as that column when the header
 * has no column spelt exactly so; `renamed` lists each, for a notice.
 */
export function csvColumns(header: string[]): CsvColumns | string {
  const names = header.map((h) => h.trim());
  const seen = new Map<string, number>();
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (name === '') return `header: column ${i + 1} has no name`;
    const first = seen.get(name);
    if (first !== undefined) return `header: columns ${first + 1} and ${i + 1} are both named "${name}": rename one`;
    seen.set(name, i);
  }
  const renamed: string[] = [];
  const at: Record<string, number> = {};
  for (const reserved of RESERVED) {
    const exact = names.indexOf(reserved);
    if (exact !== -1) {
      at[reserved] = exact;
      continue;
    }
    const near = names.flatMap((n, i) => (n.toLowerCase() === reserved ? [i] : []));
    if (near.length > 1) return `header: columns ${near.map((i) => `"${names[i]}"`).join(' and ')} could each be "${reserved}": rename all but one`;
    at[reserved] = near[0] ?? -1;
    if (near.length === 1) renamed.push(`"${names[near[0]!]}" as "${reserved}"`);
  }
  const question = at['question']!;
  if (question === -1) return `header: no "question" column; found ${foundColumns(names)}`;
  const taken = new Set(Object.values(at));
  return {
    count: names.length,
    question,
    id: at['id']!,
    thread: at['thread']!,
    expected: at['expected']!,
    metaNames: names.filter((_, i) => !taken.has(i)),
    metaIndexes: names.flatMap((_, i) => (taken.has(i) ? [] : [i])),
    renamed,
  };
}

/** The columns a header has, quoted (JSON escapes, so a control character shows as such), the first 20. */
function foundColumns(names: readonly string[]): string {
  const shown = names.slice(0, 20).map((n) => JSON.stringify(n));
  return `${shown.join(', ')}${names.length > shown.length ? `, … ${names.length - shown.length} more` : ''}`;
}

/** Validates one CSV record (already known to have `columns.count` fields). Pure. */
export function csvRecordToRow(
  file: string,
  columns: CsvColumns,
  fields: string[],
  line: number,
  ordinal: number,
): RowResult {
  const question = fields[columns.question]!;
  if (question.trim() === '') return bad(file, line, 'question', 'empty');
  const idCell = columns.id === -1 ? '' : fields[columns.id]!;
  // An empty id cell means "no id", so a sparse id column still works.
  const id = idCell.trim() === '' ? String(ordinal) : idCell;
  const threadCell = columns.thread === -1 ? '' : fields[columns.thread]!;
  // An empty cell: no expected answer for this row.
  const expectedCell = columns.expected === -1 ? '' : fields[columns.expected]!;
  const meta: Record<string, unknown> = {};
  const { metaNames, metaIndexes } = columns;
  for (let k = 0; k < metaNames.length; k++) setKey(meta, metaNames[k]!, fields[metaIndexes[k]!]);
  return {
    ok: true,
    row: { id, line, question, thread: threadCell.trim() === '' ? null : threadCell, meta, ...(expectedCell.trim() === '' ? {} : { expected: expectedCell }) },
  };
}

/**
 * Validates one parsed JSONL value. A reserved key written in another case (`Question`)
 * is read as that field when the object has none spelt exactly so, and `notify` hears it.
 * Pure but for `notify`.
 */
export function jsonToRow(file: string, value: unknown, line: number, ordinal: number, notify?: Notify): RowResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return bad(file, line, undefined, `expected a JSON object, found ${describe(value)}`);
  }
  const record = value as Record<string, unknown>;
  const reserved: Record<string, unknown> = { question: record['question'], id: record['id'], thread: record['thread'], expected: record['expected'] };
  const meta: Record<string, unknown> = {};
  for (const name of Object.keys(record)) {
    if (RESERVED.has(name)) continue;
    const lower = name.toLowerCase();
    if (lower !== name && RESERVED.has(lower) && reserved[lower] === undefined && !Object.hasOwn(record, lower)) {
      reserved[lower] = record[name];
      notify?.(`${file}: read key "${name}" as "${lower}"`);
      continue;
    }
    setKey(meta, name, record[name]);
  }
  const question = reserved['question'];
  if (question === undefined) return bad(file, line, 'question', 'missing');
  if (typeof question !== 'string') {
    return bad(file, line, 'question', `must be a string, found ${describe(question)}`);
  }
  if (question.trim() === '') return bad(file, line, 'question', 'empty');
  const id = key(reserved['id'], true);
  if (id !== null && typeof id === 'object') return bad(file, line, 'id', id.reason);
  const thread = key(reserved['thread'], false);
  if (thread !== null && typeof thread === 'object') return bad(file, line, 'thread', thread.reason);
  const expected = reserved['expected'] ?? null;
  if (!isExpected(expected)) return bad(file, line, 'expected', `must be a string, a number or an object, found ${describe(expected)}`);
  return { ok: true, row: { id: id ?? String(ordinal), line, question, thread, meta, ...(expected === null ? {} : { expected }) } };
}

/** What a question set's rows are: the question schema of the one streaming reader. */
export const questionSchema: RowSchema<QuestionRow> = {
  noun: 'questions',
  csvHeader(file: string, names: string[], line: number, notify?: Notify): CsvRowReader<QuestionRow> | InputProblem[] {
    const columns = csvColumns(names);
    if (typeof columns === 'string') return [{ file, line, reason: columns }];
    if (columns.renamed.length > 0) notify?.(`${file}:${line}: header: read ${columns.renamed.join(', ')} (resq's column names are lower case)`);
    return (fields, at, ordinal) => csvRecordToRow(file, columns, fields, at, ordinal);
  },
  jsonRow: jsonToRow,
};

/** Remembers every id seen (compactly: see {@link IdIndex}), to refuse a second row with the same one. */
export class DuplicateIds {
  #index = new IdIndex();

  /** Records a valid row's id; returns the problem when an earlier row had it. */
  check(file: string, row: KeyedRow): InputProblem | null {
    const first = this.#index.addOrFind(row.id, row.line);
    return first === undefined ? null : duplicateIdProblem(file, row.id, row.line, first);
  }
}

/**
 * The problem of a row whose id an earlier row has, wherever the duplicate is found (this
 * reader, or a store's unique key), with the id's control characters escaped.
 */
export function duplicateIdProblem(file: string, id: string, line: number, firstLine: number): InputProblem {
  return { file, line, field: 'id', reason: `duplicate "${escapeControls(id)}" (first on line ${firstLine})` };
}

/** An id or thread key: a string or an integer; null/absent means none. */
function key(value: unknown, idRules: boolean): string | null | { reason: string } {
  if (value === undefined || value === null) return null;
  // An integer JavaScript cannot hold exactly (a long numeric id) stays as written.
  if (isRawNumber(value) && /^-?\d+$/.test(value.rawJSON)) return value.rawJSON;
  if (typeof value === 'number' && Number.isInteger(value)) {
    // Beyond 2^53 the digits in the file are not the number JSON.parse returns.
    if (!Number.isSafeInteger(value)) return { reason: 'integer too large: write it as a string' };
    return String(value);
  }
  if (typeof value !== 'string') {
    return { reason: `must be a string or an integer, found ${describe(value)}` };
  }
  if (value.trim() === '') return idRules ? { reason: 'empty' } : null;
  return value;
}

/** An expected answer a JSONL row may give: none (null), a string, a number or an object (not a list, not true/false). */
function isExpected(value: unknown): boolean {
  if (value === null || typeof value === 'string' || isRawNumber(value)) return true;
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'object' && !Array.isArray(value);
}

/** Sets a key even when it is `__proto__`, which plain assignment would swallow. */
function setKey(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') {
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[name] = value;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (isRawNumber(value)) return 'a number';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return 'a number';
  return `a ${typeof value}`;
}

function bad(file: string, line: number, field: string | undefined, reason: string): RowResult {
  return { ok: false, problem: field ? { file, line, field, reason } : { file, line, reason } };
}
