import { createHash } from 'node:crypto';
import { InputError, type InputProblem } from '../errors.js';
import { type QuestionFormat, formatFromName } from '../tables/format.js';
import { type HashTap, hashFile } from '../tables/file-chunks.js';
import { type ReadResult, problemsOf } from '../tables/row-schema.js';
import { readTable } from '../tables/table-reader.js';
import { type InputSpec, type ModelInputRow, modelInputSchema } from './input-file-schema.js';

export { type InputSpec, type ModelInputRow, modelInputSchema } from './input-file-schema.js';

/** An input file read: its valid rows (none once a problem is found), every problem, and its sha256. */
export interface ModelInputFile {
  rows: ModelInputRow[];
  problems: InputProblem[];
  sha256: string;
}

/** Options of {@link streamModelInputs}. */
export interface StreamOptions {
  /** Fed every byte read, so one pass both reads and hashes. */
  tap?: HashTap;
  /**
   * Report a row whose id an earlier row has. Off only where the rows go to a store
   * whose unique key finds duplicates, which spares a map of every id in memory.
   * @default true
   */
  checkIds?: boolean;
}

/** Problems kept; the rest are counted in one last line. */
const MAX_PROBLEMS = 1000;

/** Format named by the file's extension. */
export function inputFormat(path: string): QuestionFormat {
  const format = formatFromName(path);
  if (format) return format;
  throw new InputError([{ file: path, reason: 'expected a .csv or .jsonl (.ndjson) file of model inputs' }]);
}

/**
 * Streams a file of model inputs (CSV with a header row, or one JSON object a line)
 * through the one reader of tabular files, checking each row against the model's
 * declared inputs: yields each row or its problems (`file:line: input: reason`), in file
 * order, never holding the file in memory.
 * @throws {InputError} for a file that is neither .csv nor .jsonl, and (from the generator) one that cannot be opened.
 */
export function streamModelInputs(path: string, spec: InputSpec, opts: StreamOptions = {}): AsyncGenerator<ReadResult<ModelInputRow>> {
  return readTable(path, modelInputSchema(spec), { format: inputFormat(path), tap: opts.tap, checkIds: opts.checkIds ?? true });
}

/**
 * Reads and checks a whole file of model inputs (see {@link streamModelInputs}) for a
 * store that loads rows in one call. Rows are kept only while no problem is found: a
 * refused file costs memory for its problems only (at most 1000, then a count).
 * @throws {InputError} for a file that is neither .csv nor .jsonl or cannot be opened.
 */
export async function readModelInputs(path: string, spec: InputSpec): Promise<ModelInputFile> {
  const tap: HashTap = { hash: createHash('sha256'), complete: false };
  let rows: ModelInputRow[] = [];
  const problems: InputProblem[] = [];
  let dropped = 0;
  for await (const r of streamModelInputs(path, spec, { tap })) {
    if (r.ok) {
      if (problems.length === 0) rows.push(r.row);
      continue;
    }
    rows = [];
    for (const p of problemsOf(r)) {
      if (problems.length < MAX_PROBLEMS) problems.push(p);
      else dropped++;
    }
  }
  if (dropped > 0) problems.push({ file: path, reason: `… and ${dropped} more problems` });
  // A reader that stopped early (bad header, broken quote) saw only part of the file.
  const sha256 = tap.complete ? tap.hash.digest('hex') : await hashFile(path);
  return { rows, problems, sha256 };
}
