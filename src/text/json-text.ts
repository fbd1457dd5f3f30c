/**
 * Deepest nesting of arrays and objects accepted in a JSON value. JSON.parse itself
 * does not recurse, but everything after it does (JSON.stringify, revivers, the store,
 * the export), and the stack differs between the main thread and a worker; a fixed
 * limit checked before parsing makes a row pass or fail the same way everywhere.
 */
export const MAX_JSON_DEPTH = 256;

/** A JSON text parsed, or why it is refused. */
export type ParsedJson = { ok: true; value: unknown } | { ok: false; reason: string };

/** What Node 22+ offers that TypeScript's ES2023 lib does not declare yet. */
const J = JSON as unknown as {
  rawJSON(text: string): object;
  isRawJSON(value: unknown): value is { rawJSON: string };
  parse(text: string, reviver: (key: string, value: unknown, context: { source?: string }) => unknown): unknown;
};

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;

/**
 * Whether a JSON text nests arrays and objects deeper than `max`, found by one scan of
 * its brackets outside strings (no recursion, so any depth is measured safely). Text no
 * longer than `max` cannot, and is not scanned.
 */
export function nestingExceeds(text: string, max: number = MAX_JSON_DEPTH): boolean {
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/**
 * Parses one JSON text from a user's file, exactly: nesting deeper than
 * {@link MAX_JSON_DEPTH} and lone surrogate escapes (`"\ud800"`, which no UTF-8 store can
 * keep) are refused; a number whose text JavaScript would not write back the same way
 * (`12345678901234567890`, `-0`, `1.50`, `1e3`) is kept as its source text, as a
 * `JSON.rawJSON` value that JSON.stringify writes out verbatim.
 */
export function parseJsonExactly(text: string): ParsedJson {
  if (nestingExceeds(text)) return { ok: false, reason: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `invalid JSON: ${jsonReason(err)}` };
  }
  // Only text with a `\u` escape can hold a lone surrogate (the bytes were valid UTF-8).
  const escapes = text.includes('\\u');
  const inexact = mayHoldInexactNumber(text);
  if (!escapes && !inexact) return { ok: true, value };
  const found = inspect(value, escapes);
  if (found.illFormed) return { ok: false, reason: 'invalid JSON: a \\u escape is a lone surrogate (not a character)' };
  if (found.numbers && inexact) value = J.parse(text, keepNumberText);
  return { ok: true, value };
}

/**
 * Parses JSON text that resq wrote itself (a row's stored meta), keeping the source text
 * of numbers as {@link parseJsonExactly} does, so meta reaches the export as it was read.
 */
export function parseStoredJson(text: string): unknown {
  return J.parse(text, keepNumberText);
}

/** Whether a value is a number kept as its source text (see {@link parseJsonExactly}). */
export function isRawNumber(value: unknown): value is { rawJSON: string } {
  return J.isRawJSON(value);
}

function keepNumberText(_key: string, value: unknown, context: { source?: string }): unknown {
  if (typeof value !== 'number' || context.source === undefined) return value;
  return context.source === String(value) ? value : J.rawJSON(context.source);
}

/**
 * Whether valid JSON text holds a number that JavaScript writes back differently: one
 * with an exponent, a fraction ending in 0, a fraction starting with six zeros (0.0000001
 * prints as 1e-7), 16 or more characters (precision; 1e21 and up), or -0. One pass over
 * the number tokens; strings are skipped with indexOf.
 */
export function mayHoldInexactNumber(text: string): boolean {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i + 1);
    } else if (c === MINUS || (c >= DIGIT_0 && c <= DIGIT_9)) {
      const start = i;
      let dot = -1;
      while (++i < n) {
        const d = text.charCodeAt(i);
        if (d === DOT) dot = i;
        else if (d === LOWER_E || d === UPPER_E) return true;
        else if (d < DIGIT_0 || d > DIGIT_9) break;
      }
      if (i - start >= 16) return true;
      const last = text.charCodeAt(i - 1);
      if (dot !== -1 && last === DIGIT_0) return true;
      if (c === MINUS && i - start === 2 && last === DIGIT_0) return true;
      if (dot !== -1 && text.startsWith('000000', dot + 1)) return true;
    } else {
      i++;
    }
  }
  return false;
}

/** Index just past the closing quote of the string whose text starts at `from`. */
function stringEnd(text: string, from: number): number {
  let q = text.indexOf('"', from);
  while (q !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    q = text.indexOf('"', q + 1);
  }
  return text.length;
}

/** Walks a parsed value without recursion: does it hold numbers, or strings that are not well formed? */
function inspect(root: unknown, checkStrings: boolean): { numbers: boolean; illFormed: boolean } {
  let numbers = false;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number') {
      numbers = true;
      if (!checkStrings) return { numbers, illFormed: false };
    } else if (typeof v === 'string') {
      if (checkStrings && !wellFormed(v)) return { numbers, illFormed: true };
    } else if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
    } else if (typeof v === 'object' && v !== null) {
      for (const k of Object.keys(v)) {
        if (checkStrings && !wellFormed(k)) return { numbers, illFormed: true };
        stack.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return { numbers, illFormed: false };
}

/** String.prototype.isWellFormed (ES2024, in Node 20+; not in the ES2023 lib). */
function wellFormed(s: string): boolean {
  return (s as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** V8's message, with the position made a column of this line. */
function jsonReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(
    /(?: in JSON)? at position (\d+)(?: \(line \d+ column \d+\))?/,
    (_, pos: string) => ` at column ${Number(pos) + 1}`,
  );
}
