import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  deciderName,
  decisionNote,
  decisionWords
} from "./chunk-IVLJ7PFV.mjs";
import {
  recordedCost
} from "./chunk-O4EQ2A5A.mjs";

// src/read/decider.ts
function deciderOf(d) {
  return {
    tool: d.tool,
    by: d.by,
    person: d.by === "person" ? d.person ?? null : null,
    reason: d.by === "policy" ? d.reason : null,
    note: decisionNote(d),
    decidedAt: d.decidedAt,
    answer: d.answer,
    words: decisionWords(d.answer),
    cost: recordedCost(Number(d.cost ?? 0)),
    overBudget: d.overBudget === true
  };
}
function deciderLine(d) {
  const who = deciderName({ by: d.by, person: d.person ?? null });
  const why = d.by === "policy" && d.reason ? ` (${d.reason})` : "";
  const over = d.overBudget ? " (over the batch budget, as confirmed)" : "";
  const note = d.note ? ` \u2014 note: ${d.note}` : "";
  return `${d.words} by ${who}${why}${over}${note}`;
}

export {
  deciderOf,
  deciderLine
};
//# sourceMappingURL=chunk-F57UOP2X.mjs.map
