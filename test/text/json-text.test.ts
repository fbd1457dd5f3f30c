import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, isRawNumber, mayHoldInexactNumber, nestingExceeds, parseJsonExactly, parseStoredJson } from '../../src/text/json-text.js';

const nested = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;

describe('nestingExceeds', () => {
  it('measures depth by brackets outside strings, without recursion', () => {
    expect(nestingExceeds(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestingExceeds(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestingExceeds(nested(1_000_000))).toBe(true);
    expect(nestingExceeds(`{"a": "${'['.repeat(1000)}"}`)).toBe(false);
    expect(nestingExceeds(`["\\"${'['.repeat(1000)}"]`)).toBe(false);
    expect(nestingExceeds('{"a":{"b":[1]}}', 2)).toBe(true);
  });
});

describe('parseJsonExactly', () => {
  it('refuses 5,000 nested arrays with a reason, not a RangeError', () => {
    expect(parseJsonExactly(`{"a": ${nested(5000)}}`)).toEqual({ ok: false, reason: 'nested deeper than 256 levels' });
  });

  it('refuses lone surrogate escapes, in values and keys, and keeps pairs', () => {
    const lone = { ok: false, reason: 'invalid JSON: a \\u escape is a lone surrogate (not a character)' };
    expect(parseJsonExactly('{"id": "\\ud800"}')).toEqual(lone);
    expect(parseJsonExactly('{"\\udfff": 1}')).toEqual(lone);
    expect(parseJsonExactly('["x", ["\\uDBFF"]]')).toEqual(lone);
    expect(parseJsonExactly('{"id": "\\ud83d\\ude00"}')).toEqual({ ok: true, value: { id: '😀' } });
  });

  it('keeps the source text of numbers JavaScript would rewrite, and only those', () => {
    const r = parseJsonExactly('{"big": 12345678901234567890, "z": -0, "d": 1.50, "e": 1e3, "n": 42, "f": 0.5}');
    expect(r.ok).toBe(true);
    const v = (r as { value: Record<string, unknown> }).value;
    expect(JSON.stringify(v)).toBe('{"big":12345678901234567890,"z":-0,"d":1.50,"e":1e3,"n":42,"f":0.5}');
    expect(isRawNumber(v['big'])).toBe(true);
    expect(v['n']).toBe(42);
    expect(isRawNumber(v['n'])).toBe(false);
  });

  it('keeps every number JavaScript would rewrite, over many generated forms', () => {
    let seed = 7;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const digits = (n: number, lead: boolean): string => {
      let s = lead ? String(1 + rnd(9)) : '';
      while (s.length < n) s += String(rnd(10));
      return s;
    };
    for (let i = 0; i < 20_000; i++) {
      const int = rnd(4) === 0 ? '0' : digits(1 + rnd(24), true);
      const frac = rnd(2) ? `.${rnd(3) === 0 ? '0'.repeat(rnd(9)) : ''}${digits(1 + rnd(19), false)}` : '';
      const exp = rnd(5) === 0 ? `${rnd(2) ? 'e' : 'E'}${['', '+', '-'][rnd(3)]}${digits(1 + rnd(3), false)}` : '';
      const text = `${rnd(3) === 0 ? '-' : ''}${int}${frac}${exp}`;
      const r = parseJsonExactly(`{"x": ${text}}`);
      expect(r.ok).toBe(true);
      expect(JSON.stringify((r as { value: unknown }).value), text).toBe(`{"x":${text}}`);
    }
  });

  it('reports invalid JSON as V8 says it, positions made columns', () => {
    expect(parseJsonExactly('{"a": }')).toEqual({ ok: false, reason: 'invalid JSON: Unexpected token \'}\', "{"a": }" is not valid JSON' });
    expect(parseJsonExactly('{"a": 1} x')).toEqual({ ok: false, reason: expect.stringMatching(/^invalid JSON: Unexpected non-whitespace character after JSON at column 10$/) });
  });
});

describe('mayHoldInexactNumber', () => {
  it('finds inexact numbers after strings with escaped quotes and backslashes', () => {
    expect(mayHoldInexactNumber('{"s": "a\\\\", "x": 1.50}')).toBe(true);
    expect(mayHoldInexactNumber('{"s": "a\\"1.50", "x": 1.5}')).toBe(false);
    expect(mayHoldInexactNumber('{"s": "", "x": -0}')).toBe(true);
    expect(mayHoldInexactNumber('[-0.5, 10, 0.000001, 123456789012345]')).toBe(false);
    expect(mayHoldInexactNumber('[0.0000001]')).toBe(true);
    expect(mayHoldInexactNumber('[1E5]')).toBe(true);
    expect(mayHoldInexactNumber('{"topic-0": "e-0"}')).toBe(false);
  });
});

describe('parseStoredJson', () => {
  it('round-trips stored meta text exactly', () => {
    const text = '{"big":12345678901234567890,"z":-0,"d":1.50,"list":[1.0,2]}';
    expect(JSON.stringify(parseStoredJson(text))).toBe(text);
  });
});
