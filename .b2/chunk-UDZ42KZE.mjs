import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";
import {
  escapeControls
} from "./chunk-E7YGSVGC.mjs";

// src/cli/text/judging-line.ts
function judgingLine(judgeName, c) {
  return `judging: ${c.runs} run${c.runs === 1 ? "" : "s"}, cost ${c.cost} (batch ${escapeControls(judgeName)})`;
}
function judgingLines(r, cost, db) {
  const name = r.judge.name;
  const lines = [judgingLine(name, cost)];
  if (r.held > 0) lines.push(`${r.held} judging${r.held === 1 ? "" : "s"} held for a person (left unscored); to answer: ${commandHint(["resq", "answer", name], { db })}`);
  return lines;
}

export {
  judgingLine,
  judgingLines
};
//# sourceMappingURL=chunk-UDZ42KZE.mjs.map
