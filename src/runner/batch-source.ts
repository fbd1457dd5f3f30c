import { basename, extname } from 'node:path';
import { InputError } from '../errors.js';
import type { BatchRecord } from '../store/index.js';
import { hashFile } from '../tables/file-chunks.js';
import { commandHint } from '../text/command-hint.js';
import { escapeControls } from '../text/escape-text.js';

// A batch's question file as a resume sees it: the name a batch takes from it, and the check
// that it is the file the batch was loaded from. Nothing here reads rows (load-batch.ts does),
// so resuming loads no table reader.

/** The default batch name for a question set. */
export function defaultBatchName(questionsPath: string): string {
  const base = basename(questionsPath);
  return base.slice(0, base.length - extname(base).length) || base;
}

/** The question set of a batch changed since it was loaded (a bad input: the CLI exits 2). */
export class SourceChangedError extends InputError {
  /** The batch whose question set no longer matches (a caller says whether it came from another file). */
  readonly batch: BatchRecord;
  /** The command the message suggests to run only the added rows (`resq run FILE --append`, as words), or null; a caller may add the flags it needs. */
  readonly appendArgv: string[] | null;
  constructor(message: string, batch: BatchRecord, appendArgv: string[] | null = null) {
    super(message);
    this.batch = batch;
    this.appendArgv = appendArgv;
  }
}

/** Refuses to resume a batch whose question file changed since it was loaded. */
export async function checkUnchanged(batch: BatchRecord, questionsPath: string): Promise<void> {
  const sha = await hashFile(questionsPath);
  const append = batch.kind === 'runs' ? ['resq', 'run', questionsPath, '--append'] : null;
  if (sha !== batch.sourceSha256)
    throw new SourceChangedError(
      `${escapeControls(questionsPath)}: the question set changed since batch "${escapeControls(batch.name)}" was started ` +
        `(sha256 ${batch.sourceSha256.slice(0, 12)}… then, ${sha.slice(0, 12)}… now). ` +
        `Restore the original file to resume it, or start a new batch with --batch NEW_NAME` +
        (append ? `; if you only added rows, this runs the new ones: ${commandHint(append)}` : '.'),
      batch,
      append,
    );
}
