import { commandHint } from '../text/command-hint.js';
import { shellQuote } from '../text/shell-quote.js';

/** Encodings resq recognises only to refuse them, with how to convert. */
export type WideEncoding = 'UTF-32LE' | 'UTF-32BE' | 'UTF-16LE' | 'UTF-16BE';

/**
 * Names the encoding of a file that is UTF-16 or UTF-32 rather than UTF-8, from its first
 * bytes: by its byte-order mark, or, without one, by the zero bytes every ASCII character
 * brings (`q\0u\0…`); null for anything else. Pure.
 */
export function wideEncoding(head: Uint8Array): WideEncoding | null {
  const [a, b, c, d] = head;
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return 'UTF-32LE';
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return 'UTF-32BE';
  if (a === 0xff && b === 0xfe) return 'UTF-16LE';
  if (a === 0xfe && b === 0xff) return 'UTF-16BE';
  if (head.length < 4 || a === undefined || b === undefined || c === undefined || d === undefined) return null;
  if (a !== 0 && b === 0 && c === 0 && d === 0) return 'UTF-32LE';
  if (a === 0 && b === 0 && c === 0 && d !== 0) return 'UTF-32BE';
  if (a !== 0 && b === 0 && c !== 0 && d === 0) return 'UTF-16LE';
  if (a === 0 && b !== 0 && c === 0 && d !== 0) return 'UTF-16BE';
  return null;
}

/** The reason given for a UTF-16 or UTF-32 file: what it is, and the command that converts it. */
export function wideEncodingReason(encoding: WideEncoding, file: string): string {
  // The exact encoding, not the family: without a byte-order mark, iconv -f UTF-16 guesses the
  // byte order (big-endian on macOS), and a BOM it keeps is read by resq as the UTF-8 BOM it is.
  return `file is ${encoding.slice(0, 6)} encoded (${encoding}); resq reads UTF-8: convert it with ${convertCommand(encoding, file)}`;
}

/** The command that writes `file` as UTF-8 beside it (`q.csv` → `q.utf8.csv`), every name quoted for a POSIX shell. */
export function convertCommand(encoding: WideEncoding, file: string): string {
  return `${commandHint(['iconv', '-f', encoding, '-t', 'UTF-8', file])} > ${shellQuote(file.replace(/(\.[^./]*)?$/, '.utf8$1'))}`;
}

/** Magic numbers of files that are not text, with what each file is. */
const MAGIC: readonly (readonly [readonly number[], string])[] = [
  [[0x7f, 0x45, 0x4c, 0x46], 'an ELF executable'],
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG image'],
  [[0x25, 0x50, 0x44, 0x46, 0x2d], 'a PDF document'],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive (an Excel .xlsx workbook is one)'],
];

/**
 * The reason given for a file that is not text at all (an ELF executable, a PNG image, a
 * PDF document, a ZIP archive), known by its first bytes; null for anything else.
 */
export function notTextReason(head: Uint8Array): string | null {
  for (const [magic, what] of MAGIC) {
    if (head.length >= magic.length && magic.every((b, i) => head[i] === b)) {
      return `not a text file: it is ${what}; a question set is CSV or JSONL text`;
    }
  }
  return null;
}
