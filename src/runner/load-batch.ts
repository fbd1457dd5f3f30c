import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { InputError, type InputProblem } from '../errors.js';
import { duplicateIdProblem, escapeControls, isLarge, readRowBatches } from '../tables/index.js';
import { hashFile } from '../tables/file-chunks.js';
import { defaultBatchName } from './batch-source.js';
import type { BatchRecord, BatchSettings, BatchStore, ChangedRow, DuplicateItem } from '../store/index.js';
import { commandHint } from '../text/command-hint.js';

const MAX_PROBLEMS = 1000;

/** What a new batch needs besides its question set. */
export interface LoadOptions {
  store: BatchStore;
  /** Path of the question set (CSV or JSONL). */
  questions: string;
  /** Batch name. @default the question file's name without extension */
  name?: string | null;
  settings: BatchSettings;
  policy: unknown;
  baseUrl: string | null;
  /** Load the valid rows and record the rejected ones instead of refusing the file. @default false */
  skipInvalid?: boolean;
  /** Called each time another 10,000 rows have been read. */
  onRows?: (n: number) => void;
}

/**
 * Validates a whole question set and records it as a new batch in one transaction:
 * either every valid row is stored, or (on any bad row without skipInvalid) nothing is
 * and an InputError lists every problem as `file:line: field: reason`. `notices` says,
 * once each, what was read leniently (a `Question` header read as `question`).
 */
export async function loadBatch(o: LoadOptions): Promise<{ batch: BatchRecord; invalid: InputProblem[]; notices: string[] }> {
  const id = randomUUID();
  const name = o.name ?? defaultBatchName(o.questions);
  // Large files: parsed in a worker thread, stored through a rollback journal (one stat).
  const large = await isLarge(o.questions);
  const loader = await o.store.beginBatchLoad({
    id,
    name,
    kind: 'runs',
    sourcePath: resolve(o.questions),
    // Filled in once the file has been read (and hashed on the way).
    sourceSha256: '',
    baseUrl: o.baseUrl,
    settings: o.settings,
    policy: o.policy,
  }, { bulk: large });
  const problems: InputProblem[] = [];
  const notices: string[] = [];
  let invalid = 0;
  let seq = 0;
  // Keep the report bounded: a wholly wrong million-row file must not fill memory.
  const note = (p: InputProblem): void => {
    if (invalid++ < MAX_PROBLEMS) problems.push(p);
  };
  // The store's unique key finds duplicate ids (no set of a million ids in memory here).
  let duplicates = 0;
  const refused = (dups: DuplicateItem[]): void => {
    duplicates += dups.length;
    for (const d of dups)
      note(duplicateIdProblem(o.questions, d.item.id, d.item.line, d.firstLine));
  };
  try {
    const read = await readRowBatches(o.questions, { checkIds: false, offThread: large });
    for await (const b of read.batches) {
      notices.push(...b.notices);
      for (const p of b.problems) note(p);
      if (b.ids.length === 0) continue;
      refused(await loader.addColumns(b, seq));
      const before = seq;
      seq += b.ids.length;
      if (o.onRows && Math.floor(seq / 10000) > Math.floor(before / 10000)) o.onRows(seq);
    }
    refused(await loader.flush());
    // Duplicates are found a chunk late: put them back in file order.
    if (duplicates > 0) problems.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
    if (invalid > problems.length)
      problems.push({ file: o.questions, reason: `… and ${invalid - problems.length} more invalid rows` });
    if (invalid > 0 && !o.skipInvalid) throw new InputError(problems);
    if (seq === 0) throw new InputError([{ file: o.questions, reason: 'no valid question to run' }]);
    // A reader that stopped early (a broken quote, with --skip-invalid) did not hash it all.
    await loader.commit(problems, read.sha256() ?? (await hashFile(o.questions)));
  } catch (e) {
    await loader.rollback();
    throw e;
  }
  const batch = await o.store.findBatch(id);
  if (!batch) throw new Error('batch vanished after load');
  return { batch, invalid: problems, notices };
}

/** What {@link appendToBatch} did. */
export interface AppendResult {
  /** The batch as it is now (its count grown). */
  batch: BatchRecord;
  /** New rows appended, queued. */
  appended: number;
  /** Rows the batch already had, found unchanged. */
  kept: number;
  /** Rows skipped as invalid (with skipInvalid). */
  invalid: InputProblem[];
  /** Notices about the file, each once (a header read leniently). */
  notices: string[];
}

/**
 * Grows a batch with the new rows of its question set (`resq run … --append`), in one
 * transaction: every row whose id the batch has must be as it was (question, thread,
 * meta; it may move to another line) and every item of the batch must still be in the
 * file; rows with new ids are appended, queued, after the batch's last item, in file
 * order. On any refusal nothing is added and an InputError names each changed row's line.
 * @throws {InputError} for a changed or missing row, a bad row (unless skipInvalid), or a model batch.
 */
export async function appendToBatch(o: { store: BatchStore; batch: BatchRecord; questions: string; skipInvalid?: boolean }): Promise<AppendResult> {
  const { batch, questions } = o;
  if (batch.kind !== 'runs') throw new InputError(`batch "${batch.name}" is a model batch: --append grows question sets only`);
  const appender = await o.store.beginBatchAppend(batch.id);
  const problems: InputProblem[] = [];
  const changes: InputProblem[] = [];
  const notices: string[] = [];
  let invalid = 0;
  let changed = 0;
  try {
    // Ids are checked here: a new id given twice must not pass for an existing row.
    const read = await readRowBatches(questions, { checkIds: true, offThread: await isLarge(questions) });
    for await (const b of read.batches) {
      notices.push(...b.notices);
      for (const p of b.problems) if (invalid++ < MAX_PROBLEMS) problems.push(p);
      if (b.ids.length === 0) continue;
      for (const c of await appender.addColumns(b)) if (changed++ < MAX_PROBLEMS) changes.push(changedProblem(questions, batch.name, c));
    }
    if (changed > 0) {
      if (changed > changes.length) changes.push({ file: questions, reason: `… and ${changed - changes.length} more changed rows` });
      throw new InputError(changes);
    }
    if (invalid > problems.length) problems.push({ file: questions, reason: `… and ${invalid - problems.length} more invalid rows` });
    if (invalid > 0 && !o.skipInvalid) throw new InputError(problems);
    const { kept } = appender.tally();
    if (kept < batch.totalItems)
      throw new InputError(
        `${questions}: ${batch.totalItems - kept} of the ${batch.totalItems} items of batch "${batch.name}" are no longer in the file; ` +
          '--append only adds rows: put them back, or start a new batch with --batch NEW_NAME',
      );
    const done = await appender.commit(problems, read.sha256() ?? (await hashFile(questions)));
    const grown = await o.store.findBatch(batch.id);
    if (!grown) throw new Error('batch vanished after append');
    return { batch: grown, ...done, invalid: problems, notices };
  } catch (e) {
    await appender.rollback();
    throw e;
  }
}

/** A changed row as a problem: `file:line: field: changed since …`, naming the meta column that differs. */
function changedProblem(file: string, batchName: string, c: ChangedRow): InputProblem {
  const columns = c.field === 'meta' ? changedColumns(c.storedMeta, c.meta) : '';
  const field = columns ? `meta ${columns}` : c.field;
  return {
    file,
    line: c.line,
    field,
    reason:
      `changed since batch "${batchName}" was started (item "${escapeControls(c.id)}", line ${c.storedLine} then); ` +
      '--append adds new rows only: restore this one, or start a new batch with --batch NEW_NAME',
  };
}

/** The meta columns whose values differ between two meta objects (JSON text), quoted. */
function changedColumns(before: string, after: string): string {
  const a = JSON.parse(before) as Record<string, unknown>;
  const b = JSON.parse(after) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  return keys.map((k) => `"${escapeControls(k)}"`).join(', ');
}
