import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  escapeControls
} from "./chunk-E7YGSVGC.mjs";

// src/text/printable.ts
function printable(text) {
  return text.split("\n").map(escapeControls).join("\n");
}
function oneLine(text, n) {
  const one = escapeControls(text.replace(/[ \t\r\n]+/g, " ").trim());
  return one.length > n ? `${one.slice(0, n - 1)}\u2026` : one;
}

export {
  printable,
  oneLine
};
//# sourceMappingURL=chunk-5GEFFECR.mjs.map
