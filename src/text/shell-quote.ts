import { hasTerminalControls } from './escape-text.js';

// Words made safe to paste into a POSIX shell (sh, dash, bash, zsh): every hint resq prints is
// built from them (src/text/command-hint.ts), so a batch named `p;touch x` stays one word.

/** Words every shell takes as they are: no quoting, expansion, globbing, history (`!`), nor zsh's `=cmd`. */
const BARE = /^[A-Za-z0-9_@%+:,./-]+$/;

const UTF8 = new TextEncoder();

/**
 * One word quoted for a POSIX shell, so the shell splits it back into exactly that word: a safe
 * word stays bare (`june`), any other is single-quoted with `'\''` for each quote it holds
 * (`'two words;x'`). A word holding a control character (or a bidi override) is written
 * without it, as `"$(printf '…\033…')"` with the character as an octal escape: the line shows no
 * raw control, and pasting it gives the word back (a line break at the very end of a word is
 * the one thing this cannot give back: command substitution drops it).
 */
export function shellQuote(word: string): string {
  if (BARE.test(word)) return word;
  if (!hasTerminalControls(word)) return `'${word.replaceAll("'", `'\\''`)}'`;
  return `"$(printf '${printfFormat(word)}')"`;
}

/** Words quoted one by one and joined by spaces: a command line the shell splits back into `argv`. */
export function shellLine(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

/**
 * The word as a printf format inside single quotes: `%` doubled, the backslash escaped, and the
 * quote, `!` (bash's history inside the double quotes around it) and every control written as
 * octal escapes of their UTF-8 bytes.
 */
function printfFormat(word: string): string {
  let out = '';
  for (const ch of word) {
    if (ch === '%') out += '%%';
    else if (ch === '\\') out += '\\\\';
    else if (ch === "'" || ch === '!' || hasTerminalControls(ch)) for (const b of UTF8.encode(ch)) out += `\\${b.toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return out;
}
