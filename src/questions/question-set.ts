import { type Hash, createHash } from 'node:crypto';
import { type FileHandle, open } from 'node:fs/promises';
import { InputError, type InputProblem } from '../errors.js';
import { readCsv } from './csv-reader.js';
import { type QuestionFormat, formatFromName, sniffFormat } from './format.js';
import { readJsonl } from './jsonl-reader.js';
import { DuplicateIds, type RowResult } from './row.js';

/** Options of {@link readQuestionSet}. */
export interface ReadOptions {
  /**
   * The file's format. When absent it comes from the extension (`.csv`, `.jsonl`,
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
}

const CHUNK_BYTES = 256 * 1024;

/**
 * Streams a question set and yields each row validated, in file order, never holding
 * the file in memory. Every bad row yields one problem (`file` as given, 1-based `line`
 * where its record starts, `field`, `reason`); whole-file problems (empty, no
 * `question` column, unknown format) carry no line. A duplicate id is a problem on the
 * later row, naming the line of the first.
 * @throws {InputError} when the file cannot be opened or is not a regular file.
 */
export function readQuestionSet(path: string, opts: ReadOptions = {}): AsyncGenerator<RowResult> {
  // Returned, not delegated with yield*: each generator layer costs a promise a row.
  return readFrom(fileChunks(path, opts.tap), path, opts.format, opts.checkIds ?? true);
}

/**
 * sha256 (hex) of a file's bytes, streamed.
 * @throws {InputError} when the file cannot be opened or is not a regular file.
 */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fileChunks(path)) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * Validates a whole question set in one streaming pass, hashing the same bytes.
 * Keeps only the problems (at most `maxProblems`), never the rows.
 * @throws {InputError} when the file cannot be opened or is not a regular file.
 */
export async function validateQuestionSet(path: string, opts: ValidateOptions = {}): Promise<ValidationSummary> {
  const maxProblems = opts.maxProblems ?? 1000;
  const tap: HashTap = { hash: createHash('sha256'), complete: false };
  const summary = { rows: 0, invalid: 0, problems: [] as InputProblem[] };
  for await (const result of readFrom(fileChunks(path, tap), path, opts.format, opts.checkIds ?? true)) {
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

/** Picks the reader for the format, peeking at the first chunk when it must sniff. */
function readFrom(
  source: AsyncGenerator<Buffer>,
  file: string,
  format: QuestionFormat | undefined,
  checkIds: boolean,
): AsyncGenerator<RowResult> {
  const chosen = format ?? formatFromName(file);
  const ids = checkIds ? new DuplicateIds() : null;
  if (chosen === 'csv') return readCsv(source, file, ids);
  if (chosen === 'jsonl') return readJsonl(source, file, ids);
  return readSniffed(source, file, ids);
}

async function* readSniffed(source: AsyncGenerator<Buffer>, file: string, ids: DuplicateIds | null): AsyncGenerator<RowResult> {
  const first = await source.next();
  const head: Buffer = first.done ? Buffer.alloc(0) : first.value;
  const sniffed = sniffFormat(head);
  if ('reason' in sniffed) {
    await source.return(undefined);
    yield { ok: false, problem: { file, reason: sniffed.reason } };
    return;
  }
  async function* replayed(): AsyncGenerator<Buffer> {
    if (!first.done) yield head;
    yield* source;
  }
  yield* sniffed.format === 'csv' ? readCsv(replayed(), file, ids) : readJsonl(replayed(), file, ids);
}

/** A hash fed on the way, and whether it saw the file to its end (else hash the file apart). */
export interface HashTap {
  hash: Hash;
  complete: boolean;
}

/**
 * The file's bytes in chunks, fed to `tap` on the way when given. The handle is closed
 * when the chunks end or the reader stops early (the generator's finally).
 */
async function* fileChunks(path: string, tap?: HashTap): AsyncGenerator<Buffer> {
  const handle = await openFile(path);
  const stream = handle.createReadStream({ autoClose: false, highWaterMark: CHUNK_BYTES, start: 0 });
  try {
    for await (const chunk of stream) {
      tap?.hash.update(chunk as Buffer);
      yield chunk as Buffer;
    }
    if (tap) tap.complete = true;
  } finally {
    stream.destroy();
    await handle.close();
  }
}

/** Opens a file for reading, turning the usual failures into problems a person can act on. */
async function openFile(path: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw new InputError([{ file: path, reason: `cannot open: ${describeFsError(err)}` }], { cause: err });
  }
  const stat = await handle.stat();
  if (!stat.isFile()) {
    await handle.close();
    throw new InputError([{ file: path, reason: 'not a regular file' }]);
  }
  return handle;
}

function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return err instanceof Error ? err.message : String(err);
}
