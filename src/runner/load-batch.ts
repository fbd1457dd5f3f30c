import { randomUUID } from 'node:crypto';
import { basename, extname, resolve } from 'node:path';
import { InputError, type InputProblem } from '../errors.js';
import { duplicateIdProblem, hashFile, isLarge, readRowBatches } from '../questions/index.js';
import type { BatchRecord, BatchSettings, DuplicateItem, Store } from '../store/index.js';

const MAX_PROBLEMS = 1000;

/** What a new batch needs besides its question set. */
export interface LoadOptions {
  store: Store;
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

/** The default batch name for a question set. */
export function defaultBatchName(questionsPath: string): string {
  const base = basename(questionsPath);
  return base.slice(0, base.length - extname(base).length) || base;
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

/** Refuses to resume a batch whose question file changed since it was loaded. */
export async function checkUnchanged(batch: BatchRecord, questionsPath: string): Promise<void> {
  const sha = await hashFile(questionsPath);
  if (sha !== batch.sourceSha256)
    throw new InputError(
      `${questionsPath}: the question set changed since batch "${batch.name}" was started ` +
        `(sha256 ${batch.sourceSha256.slice(0, 12)}… then, ${sha.slice(0, 12)}… now). ` +
        `Restore the original file to resume it, or start a new batch with --batch NEW_NAME.`,
    );
}
