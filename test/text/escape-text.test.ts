import { describe, expect, it } from 'vitest';
import { escapeControls } from '../../src/text/escape-text.js';

describe('escapeControls', () => {
  it('returns text without control characters unchanged (the same string)', () => {
    const s = 'café ✓ "quoted" \\ back';
    expect(escapeControls(s)).toBe(s);
  });

  it('escapes ESC, BEL, NUL, DEL, tab and line ends visibly', () => {
    expect(escapeControls('\u001b]0;title\u0007x')).toBe('\\x1b]0;title\\x07x');
    expect(escapeControls('a\u0000b\u007fc')).toBe('a\\x00b\\x7fc');
    expect(escapeControls('a\tb\nc\rd')).toBe('a\\tb\\nc\\rd');
  });

  it('escapes C1 controls (a one-byte CSI) and bidirectional overrides', () => {
    expect(escapeControls('\u009b31m')).toBe('\\x9b31m');
    expect(escapeControls('abc\u202Edef\u2066')).toBe('abc\\u202edef\\u2066');
  });

  it('gives the same answer on repeated calls (no regex state carried over)', () => {
    expect(escapeControls('\u001b')).toBe('\\x1b');
    expect(escapeControls('\u001b')).toBe('\\x1b');
    expect(escapeControls('plain')).toBe('plain');
  });
});
