import type { InputProblem } from '../errors.js';
import { escapeControls } from '../text/escape-text.js';

/** What every row a reader yields has: the id duplicates are found by, and its line. */
export interface KeyedRow {
  /** The row's id. */
  id: string;
  /** 1-based physical line where the record starts. */
  line: number;
}

/** A row read from a tabular file: valid, or its problem (and any more it has, in field order). */
export type ReadResult<R> = { ok: true; row: R } | Refusal;

/** A refused row: its first problem, and the others when a schema reports several (one per input). */
export interface Refusal {
  ok: false;
  problem: InputProblem;
  more?: InputProblem[];
}

/** Takes a notice about the file (a header read leniently), said once however often it is called. */
export type Notify = (text: string) => void;

/** Turns one CSV record (its fields in header order, trailing nameless columns cut) into a row. */
export type CsvRowReader<R> = (fields: string[], line: number, ordinal: number) => ReadResult<R>;

/**
 * The pluggable part of the one streaming reader (src/tables/table-reader.ts): what a
 * row of this kind of file is. The reader owns everything else — bytes, encodings, line
 * numbers, CSV dialects, JSON limits, blank rows, duplicate ids — so a fix there serves
 * question sets and model inputs alike. Both functions are pure.
 */
export interface RowSchema<R extends KeyedRow> {
  /** What the rows are, in the plural, for whole-file messages (`questions`, `input rows`). */
  noun: string;
  /**
   * Reads a CSV header (names trimmed, trailing nameless columns already cut) into the
   * reader of its records, or says why the header cannot be used (each at `line`).
   */
  csvHeader(file: string, names: string[], line: number, notify?: Notify): CsvRowReader<R> | InputProblem[];
  /** Turns one parsed JSONL value into a row (the value may be anything JSON). */
  jsonRow(file: string, value: unknown, line: number, ordinal: number, notify?: Notify): ReadResult<R>;
}

/**
 * A problem as a reader yields it: its file name, field and reason come from the user, so
 * control characters in them are escaped here, once for every reader.
 */
export function problem(p: InputProblem): Refusal {
  return { ok: false, problem: escaped(p) };
}

/** A schema's refusal as a reader yields it: every problem escaped as by {@link problem}. */
export function refused(r: Refusal): Refusal {
  return r.more ? { ok: false, problem: escaped(r.problem), more: r.more.map(escaped) } : problem(r.problem);
}

/** The problems a result carries: none for a row. */
export function problemsOf<R>(r: ReadResult<R>): InputProblem[] {
  if (r.ok) return [];
  return r.more ? [r.problem, ...r.more] : [r.problem];
}

function escaped(p: InputProblem): InputProblem {
  // The file's name too: it is the user's, and a name may hold an escape sequence.
  const file = escapeControls(p.file);
  const reason = escapeControls(p.reason);
  const field = p.field === undefined ? undefined : escapeControls(p.field);
  if (file === p.file && reason === p.reason && field === p.field) return p;
  return field === undefined ? { ...p, file, reason } : { ...p, file, field, reason };
}
