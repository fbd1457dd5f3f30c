import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  alignColumns
} from "./chunk-YFKNHOIT.mjs";
import {
  oneLine
} from "./chunk-5GEFFECR.mjs";
import "./chunk-E7YGSVGC.mjs";
import {
  deciderName
} from "./chunk-IVLJ7PFV.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/cli/text/policy-check-text.ts
var p = (s, n = 120) => oneLine(s, n);
var num = (n) => String(Math.round(n * 100) / 100);
function verdictText(v) {
  return v.verdict === "choose" ? `choose ${v.chosen.map((c) => p(c, 40)).join(",")}` : v.verdict;
}
var HEAD = ["tool", "pauses", "approve", "decline", "choose", "hold", "agree", "differ", "by policy", "by person", "undecided", "cost actual", "cost policy"];
function row(tool, c) {
  return [
    tool,
    String(c.pauses),
    String(c.would.approve),
    String(c.would.decline),
    String(c.would.choose),
    String(c.would.hold),
    String(c.agrees),
    String(c.differs),
    String(c.actualBy.policy),
    String(c.actualBy.person),
    String(c.actualBy.none),
    num(c.actualCost),
    num(c.wouldCost)
  ];
}
function differenceLine(d) {
  const by = d.actual.by;
  const actual = by === null ? "still held, nobody decided" : `${verdictText(d.actual)} by ${deciderName({ by, person: d.actual.person ? p(d.actual.person, 40) : null })}`;
  const cost = d.cost === null ? "" : `, cost ${num(d.cost)}`;
  return `${p(d.itemId, 60)} (${p(d.tool, 40)}${cost}): ${actual}; policy would ${verdictText(d.would)}: ${p(d.would.reason, 160)}`;
}
function policyCheckText(policyFile, batch, c) {
  const t = c.total;
  const lines = [`${p(policyFile)} on batch ${p(batch)}: ${t.pauses} pause${t.pauses === 1 ? "" : "s"}, ${t.agrees} decided the same, ${t.differs} otherwise${t.differs ? ` (${c.causes.budget} from the budget, ${c.causes.rules} from the rules)` : ""}`];
  if (t.pauses === 0) return `${lines[0]}
`;
  const rows = [HEAD, ...c.tools.map((x) => row(p(x.tool, 40), x)), row("total", t)];
  lines.push(...alignColumns(rows, HEAD.map((_, i) => i).slice(1)));
  const groups = [
    ["budget", "from the budget (its rules alone decide these as they were, the spend by then or batch_budget makes the difference)"],
    ["rules", "from the rules"]
  ];
  for (const [cause, why] of groups) {
    const ds = c.differences.filter((d) => d.cause === cause);
    if (ds.length === 0) continue;
    lines.push(`decided otherwise ${why} (${ds.length}):`);
    for (const d of ds) lines.push(`  ${differenceLine(d)}`);
  }
  return `${lines.join("\n")}
`;
}
export {
  differenceLine,
  policyCheckText,
  verdictText
};
//# sourceMappingURL=policy-check-text-UEJYWBTO.mjs.map
