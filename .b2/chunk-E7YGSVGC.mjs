import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/text/escape-text.ts
var TERMINAL_ACTIVE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
function hasTerminalControls(text) {
  TERMINAL_ACTIVE.lastIndex = 0;
  return TERMINAL_ACTIVE.test(text);
}
function escapeControls(text) {
  if (!hasTerminalControls(text)) return text;
  return text.replace(TERMINAL_ACTIVE, escapeOne);
}
var NAMED = { "	": "\\t", "\n": "\\n", "\r": "\\r" };
function escapeOne(c) {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code <= 255 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}
function escapeHtml(s) {
  return s.replace(/[&<>"']/g, (c) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "#39" }[c]};`);
}

export {
  hasTerminalControls,
  escapeControls,
  escapeHtml
};
//# sourceMappingURL=chunk-E7YGSVGC.mjs.map
