import { createHash } from 'node:crypto';
import type { InputProblem } from '../errors.js';
import { type HashTap, fileChunks, hashFile } from './file-chunks.js';
import type { QuestionFormat } from './format.js';
import { questionSchema, type RowResult } from './row.js';
import { readChunks, readTable } from './table-reader.js';

export { type HashTap } from './file-chunks.js';
export { hashFile } from './file-chunks.js';

/** Options of {@link readQuestionSet}. */
export interface ReadOptions {
  /**
   * The file's format. When absent it comes from the extension (`.csv`, `.tsv`, `.jsonl`,
   * `.ndjson`), else from the first bytes; a file neither names is refused.
   * @default undefined
   */
  format?: QuestionFormat;
  /**
   * Report a row whose id an earlier row has. Off when the rows go where a unique key
   * finds duplicates (a batch load), which spares a set of every id in memory.
   * @default true
   */
  checkIds?: boolean;
  /** Fed every byte read, so one pass both reads and hashes (see {@link HashTap}). */
  tap?: HashTap;
  /** Hears each notice about the file once (a header read leniently: `Question` as `question`). */
  onNotice?: (text: string) => void;
}

/** Options of {@link validateQuestionSet}. */
export interface ValidateOptions extends ReadOptions {
  /**
   * Most problems kept; the rest are only counted (`invalid - problems.length`).
   * @default 1000
   */
  maxProblems?: number;
}

/** Outcome of {@link validateQuestionSet}. */
export interface ValidationSummary {
  /** Valid rows. */
  rows: number;
  /** Problems found, kept or not: bad rows plus whole-file problems (empty, bad header). */
  invalid: number;
  /** The first `maxProblems` problems, in file order. */
  problems: InputProblem[];
  /** sha256 (hex) of exactly the bytes that were validated. */
  sha256: string;
  /** Notices about the file, each once (a header read leniently). */
  notices: string[];
}

/**
 * Streams a question set and yields each row validated, in file order, never holding
 * the file in memory: the one streaming reader ({@link readTable}) with the question
 * schema. Every bad row yields one problem (`file` as given, 1-based `line` where its
 * record starts, `field`, `reason`); whole-file problems (empty, no `question` column,
 * unknown format) carry no line. A duplicate id is a problem on the later row, naming
 * the line of the first.
 * @throws {InputError} when the file cannot be opened or is not a regular file.
 */
export function readQuestionSet(path: string, opts: ReadOptions = {}): AsyncGenerator<RowResult> {
  return readTable(path, questionSchema, opts);
}

/**
 * Validates a whole question set in one streaming pass, hashing the same bytes.
 * Keeps only the problems (at most `maxProblems`), never the rows.
 * @throws {InputError} when the file cannot be opened or is not a regular file.
 */
export async function validateQuestionSet(path: string, opts: ValidateOptions = {}): Promise<ValidationSummary> {
  const maxProblems = opts.maxProblems ?? 1000;
  const tap: HashTap = { hash: createHash('sha256'), complete: false };
  const summary = { rows: 0, invalid: 0, problems: [] as InputProblem[], notices: [] as string[] };
  const onNotice = (text: string): void => {
    summary.notices.push(text);
    opts.onNotice?.(text);
  };
  const rows = readChunks(fileChunks(path, tap), path, questionSchema, opts.format, opts.checkIds ?? true, onNotice);
  for await (const result of rows) {
    if (result.ok) {
      summary.rows++;
    } else {
      summary.invalid++;
      if (summary.problems.length < maxProblems) summary.problems.push(result.problem);
    }
  }
  // A reader that stopped early (bad header, broken quote) saw only part of the file.
  const sha256 = tap.complete ? tap.hash.digest('hex') : await hashFile(path);
  return { ...summary, sha256 };
}
