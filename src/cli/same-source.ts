import { basename, extname, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { shellLine } from '../text/shell-quote.js';

/**
 * When an existing batch's question set no longer matches, says why in the words that fit:
 * a batch of that name from another file (`q.csv` then `q.jsonl` default to the same name:
 * suggest `--batch`), or the same file changed (the check's own message). Pure: `changed` is
 * the error the content check threw.
 */
export function sourceMismatch(batch: { name: string; sourcePath: string }, questions: string, changed: unknown): unknown {
  if (!(changed instanceof InputError)) return changed;
  if (resolve(questions) === resolve(batch.sourcePath)) return changed;
  const stem = basename(questions, extname(questions));
  return new InputError(
    `a batch named "${batch.name}" already exists in this database from another file (${batch.sourcePath}); ` +
      `to run ${questions} as its own batch, name it: ${shellLine(['--batch', `${stem}-${extname(questions).slice(1) || 'new'}`])}`,
  );
}
