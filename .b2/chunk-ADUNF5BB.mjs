import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/text/json-text.ts
var MAX_JSON_DEPTH = 256;
var J = JSON;
var OPEN_ARRAY = 91;
var OPEN_OBJECT = 123;
var CLOSE_ARRAY = 93;
var CLOSE_OBJECT = 125;
var QUOTE = 34;
var BACKSLASH = 92;
var MINUS = 45;
var DOT = 46;
var DIGIT_0 = 48;
var DIGIT_9 = 57;
var LOWER_E = 101;
var UPPER_E = 69;
function nestingExceeds(text, max = MAX_JSON_DEPTH) {
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
function parseJsonExactly(text) {
  if (nestingExceeds(text)) return { ok: false, reason: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  let value;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `invalid JSON: ${jsonReason(err)}` };
  }
  const escapes = text.includes("\\u");
  const inexact = mayHoldInexactNumber(text);
  if (!escapes && !inexact) return { ok: true, value };
  const found = inspect(value, escapes);
  if (found.illFormed) return { ok: false, reason: "invalid JSON: a \\u escape is a lone surrogate (not a character)" };
  if (found.numbers && inexact) value = J.parse(text, keepNumberText);
  return { ok: true, value };
}
function parseStoredJson(text) {
  return J.parse(text, keepNumberText);
}
function isRawNumber(value) {
  return J.isRawJSON(value);
}
function keepNumberText(_key, value, context) {
  if (typeof value !== "number" || context.source === void 0) return value;
  return context.source === String(value) ? value : J.rawJSON(context.source);
}
function mayHoldInexactNumber(text) {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i + 1);
    } else if (c === MINUS || c >= DIGIT_0 && c <= DIGIT_9) {
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
      if (dot !== -1 && text.startsWith("000000", dot + 1)) return true;
    } else {
      i++;
    }
  }
  return false;
}
function stringEnd(text, from) {
  let q = text.indexOf('"', from);
  while (q !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    q = text.indexOf('"', q + 1);
  }
  return text.length;
}
function inspect(root, checkStrings) {
  let numbers = false;
  const stack = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "number") {
      numbers = true;
      if (!checkStrings) return { numbers, illFormed: false };
    } else if (typeof v === "string") {
      if (checkStrings && !wellFormed(v)) return { numbers, illFormed: true };
    } else if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
    } else if (typeof v === "object" && v !== null) {
      for (const k of Object.keys(v)) {
        if (checkStrings && !wellFormed(k)) return { numbers, illFormed: true };
        stack.push(v[k]);
      }
    }
  }
  return { numbers, illFormed: false };
}
function wellFormed(s) {
  return s.isWellFormed();
}
function jsonReason(err) {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(
    /(?: in JSON)? at position (\d+)(?: \(line \d+ column \d+\))?/,
    (_, pos) => ` at column ${Number(pos) + 1}`
  );
}

export {
  parseJsonExactly,
  parseStoredJson,
  isRawNumber
};
//# sourceMappingURL=chunk-ADUNF5BB.mjs.map
