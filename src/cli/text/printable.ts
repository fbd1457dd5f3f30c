/** Control characters a terminal acts on (C0, DEL, C1, bidi overrides): never printed raw from user data. */
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Text from a user's file or the service, safe for the terminal: controls become visible escapes. */
export function printable(text: string): string {
  return text.replace(ACTIVE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** One line of at most `n` characters, whitespace folded, controls escaped. */
export function oneLine(text: string, n: number): string {
  const one = printable(text.replace(/\s+/g, ' ').trim());
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}
