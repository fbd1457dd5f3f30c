import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  hasTerminalControls
} from "./chunk-E7YGSVGC.mjs";

// src/text/shell-quote.ts
var BARE = /^[A-Za-z0-9_@%+:,./-]+$/;
var UTF8 = new TextEncoder();
function shellQuote(word) {
  if (BARE.test(word)) return word;
  if (!hasTerminalControls(word)) return `'${word.replaceAll("'", `'\\''`)}'`;
  return `"$(printf '${printfFormat(word)}')"`;
}
function shellLine(argv) {
  return argv.map(shellQuote).join(" ");
}
function printfFormat(word) {
  let out = "";
  for (const ch of word) {
    if (ch === "%") out += "%%";
    else if (ch === "\\") out += "\\\\";
    else if (ch === "'" || ch === "!" || hasTerminalControls(ch)) for (const b of UTF8.encode(ch)) out += `\\${b.toString(8).padStart(3, "0")}`;
    else out += ch;
  }
  return out;
}

export {
  shellQuote,
  shellLine
};
//# sourceMappingURL=chunk-KPNMTWYO.mjs.map
