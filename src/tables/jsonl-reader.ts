import { ByteChecker } from './byte-check.js';
import { notTextReason, wideEncoding, wideEncodingReason } from './encoding.js';
import { parseJsonExactly } from '../text/json-text.js';
import type { DuplicateIds } from './row.js';
import { type KeyedRow, type Notify, type ReadResult, type RowSchema, problem, refused } from './row-schema.js';

/** Longest line accepted, in bytes; it bounds memory when a file has no line breaks. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

const LF = 10;
const CR = 13;

/**
 * Streams a JSONL file (one JSON value a line, LF or CRLF, optional BOM) and yields
 * every non-blank line validated by `schema`, in file order. Every bad line is reported
 * and reading goes on: invalid JSON (lone surrogate escapes included), nesting too deep,
 * what the schema refuses, bad bytes, duplicate ids, lines over {@link MAX_LINE_BYTES}.
 * Numbers keep their source text where JavaScript would change it (see parseJsonExactly).
 * Blank lines are skipped.
 */
export async function* readJsonl<R extends KeyedRow>(
  source: AsyncIterable<Uint8Array>,
  file: string,
  schema: RowSchema<R>,
  ids: DuplicateIds | null,
  notify?: Notify,
): AsyncGenerator<ReadResult<R>> {
  const checker = new ByteChecker();
  let line = 0;
  let ordinal = 0;
  let offset = 0;
  // The unfinished last line of the chunks read so far, and its file offset.
  let parts: Buffer[] = [];
  let partsLength = 0;
  let partsOffset = 0;
  // Set while skipping the rest of an over-long line.
  let skipping = false;

  const handle = (buf: Buffer, start: number, end: number, lineOffset: number): ReadResult<R> | null => {
    line++;
    const fault = checker.takeBefore(lineOffset + (end - start) + 1);
    if (lineOffset === 0 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) {
      start += 3;
    }
    if (end > start && buf[end - 1] === CR) end--;
    if (end === start) return null;
    const text = buf.toString('utf8', start, end);
    // Only a line starting with white space can be blank; trim the rest never.
    if (buf[start]! <= 0x20 && text.trim() === '') return null;
    ordinal++;
    if (fault) return problem({ file, line, reason: fault.reason });
    const parsed = parseJsonExactly(text);
    if (!parsed.ok) return problem({ file, line, reason: parsed.reason });
    const result = schema.jsonRow(file, parsed.value, line, ordinal, notify);
    if (!result.ok) return refused(result);
    const duplicate = ids ? ids.check(file, result.row) : null;
    return duplicate ? problem(duplicate) : result;
  };

  for await (const chunk of source) {
    checker.push(chunk);
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    const base = offset;
    offset += buf.length;
    const wide = base === 0 ? wideEncoding(buf) : null;
    const binary = base === 0 ? notTextReason(buf) : null;
    if (wide || binary) {
      yield problem({ file, reason: binary ?? wideEncodingReason(wide!, file) });
      return;
    }
    let start = 0;
    let nl = buf.indexOf(LF);
    if (skipping) {
      // Faults inside the skipped line are moot: it is already reported.
      checker.takeBefore(nl === -1 ? offset : base + nl + 1);
      if (nl === -1) continue;
      skipping = false;
      start = nl + 1;
      nl = buf.indexOf(LF, start);
    } else if (parts.length > 0) {
      if (nl === -1) {
        parts.push(buf);
        partsLength += buf.length;
        if (partsLength > MAX_LINE_BYTES) {
          line++;
          ordinal++;
          checker.takeBefore(offset);
          yield problem({ file, line, reason: `line longer than ${MAX_LINE_BYTES} bytes` });
          parts = [];
          skipping = true;
        }
        continue;
      }
      parts.push(buf.subarray(0, nl));
      const whole = Buffer.concat(parts);
      parts = [];
      const result = handle(whole, 0, whole.length, partsOffset);
      if (result) yield result;
      start = nl + 1;
      nl = buf.indexOf(LF, start);
    }
    while (nl !== -1) {
      const result = handle(buf, start, nl, base + start);
      if (result) yield result;
      start = nl + 1;
      nl = buf.indexOf(LF, start);
    }
    if (start < buf.length) {
      parts = [buf.subarray(start)];
      partsLength = buf.length - start;
      partsOffset = base + start;
    }
  }
  checker.end();
  if (parts.length > 0) {
    const whole = Buffer.concat(parts);
    const result = handle(whole, 0, whole.length, partsOffset);
    if (result) yield result;
  }
  if (ordinal === 0) yield problem({ file, reason: 'file is empty' });
}
