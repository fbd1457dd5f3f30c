import { escapeControls } from './escape-text.js';

/** Text from a user's file or the service, safe for the terminal; line breaks kept, every other control escaped. */
export function printable(text: string): string {
  return text.split('\n').map(escapeControls).join('\n');
}

/** One line of at most `n` characters, whitespace folded, controls escaped. */
export function oneLine(text: string, n: number): string {
  const one = escapeControls(text.replace(/[ \t\r\n]+/g, ' ').trim());
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}
