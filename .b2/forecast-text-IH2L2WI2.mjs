import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  oneLine
} from "./chunk-5GEFFECR.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/cli/text/forecast-text.ts
function figure(n) {
  if (Math.abs(n) >= 100) return String(Math.round(n));
  return String(Number(n.toPrecision(3)));
}
function durationText(s) {
  const t = Math.round(s);
  if (t < 60) return `${t}s`;
  if (t < 3600) return `${Math.floor(t / 60)}m ${t % 60}s`;
  return `${Math.floor(t / 3600)}h ${Math.floor(t % 3600 / 60)}m`;
}
var pct = (x) => `${Math.round(x * 100)}%`;
var signed = (x) => `${x > 0 ? "+" : x < 0 ? "\u2212" : "\xB1"}${figure(Math.abs(x))}`;
function missText(m, actualIs) {
  const share = m.offShare === null ? "" : ` (${m.offShare > 0 ? "+" : m.offShare < 0 ? "\u2212" : "\xB1"}${pct(Math.abs(m.offShare))})`;
  return `about ${figure(m.estimate)} (${figure(m.low)}\u2013${figure(m.high)}); ${actualIs} ${figure(m.actual)}: off by ${signed(m.off)}${share}, ${m.inside ? "within" : "outside"} its p10\u2013p90`;
}
function hindsightLine(h, which) {
  if (!h) return [];
  const of = `    last forecast of batch ${oneLine(h.batch, 80)} (made ${h.madeAt.slice(0, 16).replace("T", " ")}, from batch ${h.learnedFrom.map((n) => oneLine(n, 80)).join(", ")})`;
  if (!h.ended) return which === "cost" ? [`${of}: the batch has not ended yet`] : [];
  const m = h[which];
  if (!m) return [];
  return [`${of}: ${missText(m, which === "cost" ? "the batch cost" : "the batch held")}`];
}
function forecastText(f, policyName) {
  const file = oneLine(f.file, 120);
  const from = oneLine(f.from, 80);
  const what = f.rest ? `the ${f.questions} question${f.questions === 1 ? "" : "s"} of ${file} that batch ${from} has not run yet` : `${f.questions} question${f.questions === 1 ? "" : "s"} of ${file}`;
  const lines = [`forecast (an estimate, p10\u2013p90 in brackets) for ${what}, from ${f.sample} question${f.sample === 1 ? "" : "s"} that ran in batch${f.learnedFrom.length > 1 ? "es" : ""} ${f.learnedFrom.map((b2) => oneLine(b2.name, 80)).join(", ")}; policy: ${oneLine(policyName, 80)}`];
  lines.push(`  learned from: ${f.learnedFrom.map((b2) => `batch ${oneLine(b2.name, 80)} (${b2.questions} question${b2.questions === 1 ? "" : "s"} that ran)`).join(", ")}`);
  if (f.match === "content") lines.push(`  ${file} is matched to batch ${from} by its content, not its name: the batch was loaded from ${oneLine(f.batchFile, 120)}`);
  if (f.rest) lines.push(`  batch ${from} already spent ${figure(f.now.spent)} and holds ${f.now.heldPauses} pause${f.now.heldPauses === 1 ? "" : "s"} for a person (cost ${figure(f.now.heldCost)} if approved, not counted below); the batch's total starts from ${figure(f.spent)}`);
  else if (f.match !== "none") lines.push(`  every row of ${file}, as a new batch (nothing spent yet)`);
  const c = f.costPerQuestion;
  lines.push(c ? `  cost per question: median ${figure(c.median)}, 90th percentile ${figure(c.p90)} (mean ${figure(c.mean)})` : "  cost per question: unknown");
  const t = f.totalCost;
  if (t) lines.push(`  total cost: about ${figure(t.estimate)} (${figure(t.low)}\u2013${figure(t.high)})${f.rest && f.batchCost ? `; with what is spent, the batch about ${figure(f.batchCost.estimate)} (${figure(f.batchCost.low)}\u2013${figure(f.batchCost.high)})` : ""}`);
  lines.push(...hindsightLine(f.lastForecast, "cost"));
  const b = f.budget;
  if (b) lines.push(`  budget ${figure(b.budget)}: about ${pct(b.share)} of it (${pct(b.lowShare)}\u2013${pct(b.highShare)}); chance of going over: ${pct(b.chanceOver)}`);
  else lines.push("  budget: none set (--budget, or batch_budget in the policy)");
  const h = f.held;
  if (h) lines.push(`  held for a person: about ${figure(h.estimate)} pause${h.estimate === 1 ? "" : "s"} (${figure(h.low)}\u2013${figure(h.high)}; ${figure(h.perQuestion)} per question)`);
  lines.push(...hindsightLine(f.lastForecast, "held"));
  const w = f.wallSeconds;
  if (w)
    lines.push(
      `  wall time at cap ${f.cap}: about ${durationText(w.estimate)} (${durationText(w.low)}\u2013${durationText(w.high)}): ${w.waves} wave${w.waves === 1 ? "" : "s"} of ${f.cap} \xD7 ${durationText(w.perQuestion.median)} a question (median); the time people take on held pauses comes on top`
    );
  else lines.push("  wall time: unknown (no run of the reference batch ended)");
  return `${lines.join("\n")}
`;
}
export {
  durationText,
  figure,
  forecastText,
  missText
};
//# sourceMappingURL=forecast-text-IH2L2WI2.mjs.map
