import { extname } from 'node:path';

/** The question-set formats resq reads. */
export type QuestionFormat = 'csv' | 'jsonl';

/** Format named by a file's extension (`.csv`, `.jsonl`, `.ndjson`, any case), or null. */
export function formatFromName(path: string): QuestionFormat | null {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  return null;
}

/**
 * Guesses the format from the first bytes of a file whose name does not say:
 * a line starting with `{` is JSONL; a first line with a `question` column is CSV;
 * anything else is refused with the reason.
 */
export function sniffFormat(head: Uint8Array): { format: QuestionFormat } | { reason: string } {
  let text = Buffer.from(head.buffer, head.byteOffset, head.length).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const trimmed = text.trimStart();
  if (trimmed === '') return { reason: 'file is empty' };
  if (trimmed.startsWith('{')) return { format: 'jsonl' };
  if (trimmed.startsWith('[')) {
    return { reason: 'looks like a JSON array: write one JSON object a line (JSONL)' };
  }
  const firstLine = trimmed.split(/\r?\n/, 1)[0]!;
  const names = firstLine.split(',').map((f) => f.trim().replace(/^"(.*)"$/, '$1'));
  if (names.includes('question')) return { format: 'csv' };
  return { reason: 'cannot tell whether this is CSV or JSONL: name it .csv, .jsonl or .ndjson' };
}
