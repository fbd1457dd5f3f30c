import { isRawNumber, parseJsonExactly } from '../text/json-text.js';

/** The result of turning one value into a declared input type. */
export type Coerced = { ok: true; value: unknown } | { ok: false; reason: string };

const INTEGER = /^[+-]?\d+$/;
// Decimal notation only: Number() would also take hex, binary and "Infinity".
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const TRUE_WORDS = new Set(['true', '1', 'yes']);
const FALSE_WORDS = new Set(['false', '0', 'no']);

function show(raw: string): string {
  const s = raw.length > 40 ? `${raw.slice(0, 39)}…` : raw;
  return JSON.stringify(s);
}

function ok(value: unknown): Coerced {
  return { ok: true, value };
}

function bad(reason: string): Coerced {
  return { ok: false, reason };
}

/** Lower-cased declared type, or null when the description gives none. */
export function normaliseType(type: string | null | undefined): string | null {
  return type ? type.trim().toLowerCase() : null;
}

/**
 * Turns a text cell (CSV, or `--input name=value`) into the declared type: integer,
 * number, boolean (true/false/1/0/yes/no, any case), string (verbatim), object or
 * array (JSON). A type the interface does not name (`file`, none, …) stays the text.
 * Pure; the caller decides what an empty cell means.
 */
export function coerceText(type: string | null | undefined, raw: string): Coerced {
  const t = normaliseType(type);
  const s = raw.trim();
  switch (t) {
    case 'integer':
    case 'int': {
      if (!INTEGER.test(s)) return bad(`expected an integer, got ${show(raw)}`);
      const n = Number(s);
      return Number.isSafeInteger(n) ? ok(n) : bad(`integer ${show(raw)} is too large to send exactly`);
    }
    case 'number':
    case 'float': {
      if (!DECIMAL.test(s)) return bad(`expected a number, got ${show(raw)}`);
      const n = Number(s);
      return Number.isFinite(n) ? ok(n) : bad(`number ${show(raw)} is out of range`);
    }
    case 'boolean':
    case 'bool': {
      const w = s.toLowerCase();
      if (TRUE_WORDS.has(w)) return ok(true);
      if (FALSE_WORDS.has(w)) return ok(false);
      return bad(`expected a boolean (true/false/1/0/yes/no), got ${show(raw)}`);
    }
    case 'object':
    case 'array':
    case 'json':
      return parseJsonCell(t, raw);
    default:
      return ok(raw);
  }
}

function parseJsonCell(t: string, raw: string): Coerced {
  // The one exact JSON parse of input files: nesting bounded, lone surrogates refused.
  const parsed = parseJsonExactly(raw);
  if (!parsed.ok) {
    const why = parsed.reason.replace(/^invalid JSON: /, '').replace(/ at column \d+.*$/, '');
    return bad(`expected ${t === 'array' ? 'a JSON array' : t === 'object' ? 'a JSON object' : 'JSON'}, got ${show(raw)} (${why})`);
  }
  // A top-level number is sent as a number; nested ones keep their text (JSON.rawJSON).
  return checkValue(t, isRawNumber(parsed.value) ? Number(parsed.value.rawJSON) : parsed.value);
}

/** The value when it is of the wanted kind, else why not. A module function: a closure made per call costs (tsx names each one). */
function want(v: unknown, isWanted: boolean, what: string): Coerced {
  return isWanted ? ok(v) : bad(`expected ${what}, got ${kindOf(v)}`);
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number';
  return `a ${typeof v}`;
}

/**
 * Checks a JSON value (JSONL rows, `--inputs`) against the declared type, without
 * converting: a JSON string is not an integer. Unknown types accept any value; `file`
 * takes a file id or a file reference object.
 */
export function checkValue(type: string | null | undefined, v: unknown): Coerced {
  const t = normaliseType(type);
  switch (t) {
    case 'integer':
    case 'int':
      return want(v, typeof v === 'number' && Number.isSafeInteger(v), 'an integer');
    case 'number':
    case 'float':
      return want(v, typeof v === 'number' && Number.isFinite(v), 'a number');
    case 'boolean':
    case 'bool':
      return want(v, typeof v === 'boolean', 'a boolean');
    case 'string':
      return want(v, typeof v === 'string', 'a string');
    case 'object':
      return want(v, typeof v === 'object' && v !== null && !Array.isArray(v), 'a JSON object');
    case 'array':
      return want(v, Array.isArray(v), 'a JSON array');
    case 'file':
      return want(v, typeof v === 'string' || (typeof v === 'object' && v !== null && !Array.isArray(v)), 'a file id');
    default:
      return ok(v);
  }
}
