import { describe, expect, it } from 'vitest';
import { shellLine, shellQuote } from '../../src/text/shell-quote.js';
import { shSplit } from '../support/sh-split.js';

const HOSTILE = [
  'two words;x',
  'p;touch x',
  "it's",
  "'",
  '',
  '$(touch pwned)',
  '`touch pwned`',
  'a"b\\c',
  '*',
  '~root',
  '-n',
  'a!b',
  '100%',
  'tab\there',
  'line\nbreak',
  'esc\u001b[31mred',
  'bell\u0007',
  'csi\u009b1m',
  'bidi\u202eevil',
  'naïve ünïcode 東京',
  "mixed '\u001b' %d \\n",
];

describe('shellQuote', () => {
  it('leaves safe words bare', () => {
    for (const w of ['june', 'resq', '--db', 'a/b.db', 'x@y:1,2+4%', '-']) expect(shellQuote(w)).toBe(w);
    // zsh expands a word starting with = to a command's path.
    expect(shellQuote('=ls')).toBe("'=ls'");
  });

  it("single-quotes the rest, a quote inside written as '\\''", () => {
    expect(shellQuote('two words;x')).toBe("'two words;x'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('')).toBe("''");
  });

  it('gives the shell back exactly the words it was given, however hostile', () => {
    for (const w of HOSTILE) expect(shSplit(`resq ${shellQuote(w)} end`), JSON.stringify(w)).toEqual(['resq', w, 'end']);
    expect(shSplit(shellLine(HOSTILE))).toEqual(HOSTILE);
    // bash (what most people paste into) splits it the same.
    expect(shSplit(shellLine(HOSTILE), '/bin/bash')).toEqual(HOSTILE);
  });

  it('writes no control character, nor a bidi override, onto the line', () => {
    for (const w of HOSTILE) expect(shellQuote(w), JSON.stringify(w)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it('keeps bash history expansion out: no ! inside double quotes', () => {
    expect(shellQuote('esc\u001b!')).toBe(`"$(printf 'esc\\033\\041')"`);
  });
});
