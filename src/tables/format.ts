import { extname } from 'node:path';
import { notTextReason, wideEncoding, wideEncodingReason } from './encoding.js';

/** The question-set formats resq reads: `tsv` is CSV whose delimiter is a tab. */
export type QuestionFormat = 'csv' | 'tsv' | 'jsonl';

/** Format named by a file's extension (`.csv`, `.tsv`, `.jsonl`, `.ndjson`, any case), or null. */
export function formatFromName(path: string): QuestionFormat | null {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.tsv') return 'tsv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  return null;
}

/**
 * Guesses the format from the first bytes of a file whose name does not say:
 * a line starting with `{` is JSONL; a first line with a `question` column (any case) (after an
 * Excel `sep=` line; separated by `,`, `;` or tab) is CSV; anything else, UTF-16 and
 * UTF-32 files included, is refused with the reason.
 */
export function sniffFormat(head: Uint8Array, file = 'FILE'): { format: QuestionFormat } | { reason: string } {
  const wide = wideEncoding(head);
  if (wide) return { reason: wideEncodingReason(wide, file) };
  const binary = notTextReason(head);
  if (binary) return { reason: binary };
  let text = Buffer.from(head.buffer, head.byteOffset, head.length).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const trimmed = text.trimStart();
  if (trimmed === '') return { reason: 'file is empty' };
  if (trimmed.startsWith('{')) return { format: 'jsonl' };
  if (trimmed.startsWith('[')) {
    return { reason: 'looks like a JSON array: write one JSON object a line (JSONL)' };
  }
  const lines = trimmed.split(/\r\n|\n|\r/, 2);
  const firstLine = /^sep=.$/i.test(lines[0]!) ? (lines[1] ?? '') : lines[0]!;
  const names = firstLine.split(/[,;\t]/).map((f) => f.trim().replace(/^"(.*)"$/, '$1'));
  if (names.some((n) => n.toLowerCase() === 'question')) return { format: 'csv' };
  return { reason: 'cannot tell whether this is CSV or JSONL: name it .csv, .tsv, .jsonl or .ndjson' };
}
