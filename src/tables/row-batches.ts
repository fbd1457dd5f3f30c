import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { InputError, type InputProblem } from '../errors.js';
import type { QuestionFormat } from './format.js';
import { type HashTap, readQuestionSet } from './question-set.js';
import type { RowResult } from './row.js';

/**
 * Valid rows and problems of a stretch of a question set, column by column: plain
 * arrays of strings and numbers are cheap to post between threads (a million row
 * objects are not). `metas[i]` is row i's meta as JSON text, ready to store.
 */
export interface RowBatch {
  ids: string[];
  lines: number[];
  questions: string[];
  threads: (string | null)[];
  metas: string[];
  /** Row i's expected answer as JSON text, or null: none. */
  expecteds: (string | null)[];
  /** Problems of this stretch, in file order. */
  problems: InputProblem[];
  /** Notices about the file said while this stretch was read (each once per file). */
  notices: string[];
}

/** Options of {@link readRowBatches}. */
export interface BatchReadOptions {
  format?: QuestionFormat;
  /** As for readQuestionSet. @default true */
  checkIds?: boolean;
  /** Rows a batch holds at most. @default 512 */
  batchRows?: number;
  /**
   * Parse in a worker thread, so the caller's thread only stores rows while the next
   * ones are parsed: `'auto'` does so for files of {@link OFF_THREAD_BYTES} or more,
   * where the worker's start-up (~0.1 s) is worth it. @default 'auto'
   */
  offThread?: boolean | 'auto';
}

/** A question set being read in batches, and the hash of the bytes read. */
export interface BatchRead {
  batches: AsyncGenerator<RowBatch>;
  /** sha256 (hex) of the whole file once `batches` is done; null when reading stopped early. */
  sha256(): string | null;
}

/** Files this large or larger are parsed off the caller's thread under `offThread: 'auto'`. */
export const OFF_THREAD_BYTES = 16 * 2 ** 20;
/**
 * Rows a batch holds: small batches keep little alive at once on the storing thread, so
 * its young generation stays small (a million rows in batches of 4096 grew it to 64 MiB).
 */
const BATCH_ROWS = 512;
/** Batches the worker may post ahead of the reader: bounds memory to a few batches. */
const WINDOW = 16;

/**
 * Reads a question set as {@link RowBatch}es, in file order, hashing the same bytes on
 * the way. Same rows, problems and errors as readQuestionSet, whichever thread parses.
 * @throws {InputError} (from the generator) when the file cannot be opened or is not a regular file.
 */
export async function readRowBatches(path: string, opts: BatchReadOptions = {}): Promise<BatchRead> {
  const off = opts.offThread ?? 'auto';
  const useWorker = off === 'auto' ? await isLarge(path) : off;
  return useWorker ? readInWorker(path, opts) : readHere(path, opts);
}

/** Whether a question file is large enough to read off-thread (and load in bulk). */
export async function isLarge(path: string): Promise<boolean> {
  // A file that cannot be stat'ed is read here, where the usual message is made.
  const s = await stat(path).catch(() => null);
  return s !== null && s.isFile() && s.size >= OFF_THREAD_BYTES;
}

/** Reads on this thread (small files, and inside the worker). */
export function readHere(path: string, opts: BatchReadOptions): BatchRead {
  const tap: HashTap = { hash: createHash('sha256'), complete: false };
  let sha: string | null = null;
  const notices: string[] = [];
  async function* batches(): AsyncGenerator<RowBatch> {
    const rows = readQuestionSet(path, { format: opts.format, checkIds: opts.checkIds ?? true, tap, onNotice: (t) => notices.push(t) });
    yield* batchesOf(rows, opts.batchRows ?? BATCH_ROWS, notices);
    sha = tap.complete ? tap.hash.digest('hex') : null;
  }
  return { batches: batches(), sha256: () => sha };
}

/** Groups row results into batches of at most `size` rows (problems, and notices taken from `notices`, ride along). */
export async function* batchesOf(results: AsyncIterable<RowResult>, size: number, notices: string[] = []): AsyncGenerator<RowBatch> {
  let b = emptyBatch();
  for await (const r of results) {
    if (notices.length > 0) b.notices.push(...notices.splice(0));
    if (!r.ok) {
      b.problems.push(r.problem);
      continue;
    }
    const row = r.row;
    b.ids.push(row.id);
    b.lines.push(row.line);
    b.questions.push(row.question);
    b.threads.push(row.thread);
    b.metas.push(JSON.stringify(row.meta));
    b.expecteds.push(row.expected === undefined ? null : JSON.stringify(row.expected));
    if (b.ids.length >= size) {
      yield b;
      b = emptyBatch();
    }
  }
  if (notices.length > 0) b.notices.push(...notices.splice(0));
  if (b.ids.length > 0 || b.problems.length > 0 || b.notices.length > 0) yield b;
}

function emptyBatch(): RowBatch {
  return { ids: [], lines: [], questions: [], threads: [], metas: [], expecteds: [], problems: [], notices: [] };
}

/** What the worker posts. */
export type WorkerMessage =
  | { type: 'batch'; batch: RowBatch }
  | { type: 'end'; sha256: string | null }
  | { type: 'error'; problems: InputProblem[] | null; message: string; stack?: string };

/** What the worker is started with. */
export interface WorkerInput {
  path: string;
  format?: QuestionFormat;
  checkIds: boolean;
  batchRows: number;
  window: number;
}

const ENTRY = new URL('./row-batch-worker.mjs', import.meta.url);

function readInWorker(path: string, opts: BatchReadOptions): BatchRead {
  let sha: string | null = null;
  const input: WorkerInput = {
    path,
    format: opts.format,
    checkIds: opts.checkIds ?? true,
    batchRows: opts.batchRows ?? BATCH_ROWS,
    window: WINDOW,
  };
  async function* batches(): AsyncGenerator<RowBatch> {
    // Bounded young generation: left alone it grows to 64 MiB and more. Smaller (4 MiB)
    // was worse: more survivors promoted, a larger old generation, more GC time.
    const worker = new Worker(ENTRY, { workerData: input, resourceLimits: { maxYoungGenerationSizeMb: 16 } });
    const inbox: WorkerMessage[] = [];
    let failure: Error | null = null;
    let wake: (() => void) | null = null;
    const notify = (): void => {
      wake?.();
      wake = null;
    };
    worker.on('message', (m: WorkerMessage) => {
      inbox.push(m);
      notify();
    });
    worker.on('error', (e: Error) => {
      failure ??= e;
      notify();
    });
    worker.on('exit', (code) => {
      failure ??= new Error(`the question reader thread stopped (exit code ${code}) before the end of ${path}`);
      notify();
    });
    try {
      for (;;) {
        const m = inbox.shift();
        if (!m) {
          if (failure) throw failure;
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        if (m.type === 'batch') {
          // Ask for the next one before storing this one: parsing and storing overlap.
          worker.postMessage('more');
          yield m.batch;
        } else if (m.type === 'end') {
          sha = m.sha256;
          return;
        } else {
          throw m.problems?.length ? new InputError(m.problems) : Object.assign(new Error(m.message), { stack: m.stack });
        }
      }
    } finally {
      worker.removeAllListeners('exit');
      await worker.terminate();
    }
  }
  return { batches: batches(), sha256: () => sha };
}
