/**
 * Characters a terminal acts on rather than shows: C0 controls (ESC starts colour and
 * title sequences, BEL rings, CR and LF break a one-line message), DEL, C1 controls
 * (U+009B is a one-byte CSI), and the bidirectional overrides and isolates that reorder
 * what a reader sees (Trojan Source).
 */
const TERMINAL_ACTIVE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Whether text holds a character a terminal acts on rather than shows (see {@link escapeControls}). */
export function hasTerminalControls(text: string): boolean {
  TERMINAL_ACTIVE.lastIndex = 0;
  return TERMINAL_ACTIVE.test(text);
}

/**
 * Makes text from a user's file safe to print on one terminal line: every control
 * character becomes a visible escape (`\x1b`, `\n`, `\u009b`, `\u202e`), everything else
 * is left as it is. Pure; text without such characters is returned unchanged (the same
 * string), so calling it on every message costs one regex test.
 */
export function escapeControls(text: string): string {
  if (!hasTerminalControls(text)) return text;
  return text.replace(TERMINAL_ACTIVE, escapeOne);
}

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function escapeOne(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`);
}
