import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  printable
} from "./chunk-5GEFFECR.mjs";
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";
import {
  deciderLine
} from "./chunk-F57UOP2X.mjs";
import {
  costShown
} from "./chunk-O4EQ2A5A.mjs";

// src/text/unwatched-run.ts
function unwatchedText(finishedAt) {
  return `ended while resq was stopped, at or before ${finishedAt ?? "its resume"}`;
}

// src/cli/text/item-text.ts
function indent(text, by = "    ") {
  return text.split("\n").map((l) => `${by}${l}`).join("\n");
}
function labelled(label, text, by = "    ") {
  const shown = printable(text);
  return shown.includes("\n") ? `${label}:
${indent(shown, by)}` : `${label}: ${shown}`;
}
function uniqueOptions(options) {
  const seen = /* @__PURE__ */ new Set();
  return options.flatMap((o) => {
    const obj = o !== null && typeof o === "object" ? o : { id: o };
    const key = JSON.stringify(obj.id ?? null);
    if (seen.has(key)) return [];
    seen.add(key);
    return [obj];
  });
}
function describePause(tool, input) {
  const out = [];
  const str = (v) => printable(typeof v === "string" ? v : JSON.stringify(v));
  if (typeof input.objective === "string") out.push(`objective: ${str(input.objective)}`);
  if (Array.isArray(input.steps)) input.steps.forEach((s, i) => out.push(`step ${i + 1}: ${str(s)}`));
  if (input.cost !== void 0) out.push(`cost: ${printable(costShown(input) ?? "null")}`);
  if (input.instead !== void 0) out.push(`instead (if declined): ${str(input.instead)}`);
  if (typeof input.question === "string") out.push(`question: ${str(input.question)}`);
  if (Array.isArray(input.options))
    for (const o of uniqueOptions(input.options)) {
      const label = o.label ?? o.title ?? o.text ?? o.name;
      out.push(`option ${str(o.id)}${label !== void 0 ? `: ${str(label)}` : ""}`);
    }
  if (input.allowMultiple !== void 0) out.push(`several allowed: ${input.allowMultiple ? "yes" : "no"}`);
  if (typeof input.prompt === "string") out.push(`prompt: ${str(input.prompt)}`);
  if (typeof input.reason === "string") out.push(`reason: ${str(input.reason)}`);
  const known = /* @__PURE__ */ new Set(["objective", "steps", "cost", "instead", "question", "options", "allowMultiple", "prompt", "reason"]);
  for (const [k, v] of Object.entries(input)) if (!known.has(k)) out.push(`${printable(k)}: ${str(v)}`);
  return out.length ? out : [`(${printable(tool)} gave no input)`];
}
function answerFlags(tool) {
  return tool === "ask_choice" ? "--choose ID[,ID] | --decline" : "--approve | --decline";
}
function answerHint(batch, item, tool, place, runId, input) {
  const option = tool === "ask_choice" ? firstOption(input) : null;
  const first = tool !== "ask_choice" ? ["--approve"] : option !== null ? ["--choose", option] : ["--decline"];
  const others = tool !== "ask_choice" ? "or --decline" : option !== null ? "or another --choose ID[,ID], or --decline" : "it offers no options";
  return `answer (${others}): ${commandHint(["resq", "answer", batch, item, ...runId ? ["--run", runId] : [], ...first], place)}`;
}
function firstOption(input) {
  const options = input?.options;
  const id = Array.isArray(options) ? options[0]?.id : void 0;
  return typeof id === "string" && id !== "" ? id : typeof id === "number" ? String(id) : null;
}
function formatItem(v, hint) {
  const it = v.item;
  const lines = [];
  lines.push(`item ${printable(it.id)} of batch ${printable(v.batch.name)} (line ${it.line}): ${it.state}${it.runStatus ? ` (run status ${printable(it.runStatus)})` : ""}`);
  if (v.wait) lines.push(`why queued: ${printable(v.wait.text)}`);
  lines.push("question:", indent(printable(it.question)));
  const meta = Object.entries(it.meta);
  if (meta.length) lines.push(`meta: ${meta.map(([k, val]) => `${printable(k)}=${printable(JSON.stringify(val))}`).join(", ")}`);
  if (it.expected !== null && it.expected !== void 0) lines.push(`expected: ${printable(typeof it.expected === "string" ? it.expected : JSON.stringify(it.expected))}`);
  if (it.text) lines.push("answer:", indent(printable(it.text)));
  for (const s of v.verdicts) lines.push(`verdict ${printable(s.scorer)}: ${s.pass === null ? "unscored" : s.pass ? "pass" : "fail"}${s.score !== null ? ` (score ${s.score})` : ""}: ${printable(s.reason)} (by ${printable(s.by)}, ${s.scoredAt})`);
  if (it.error) lines.push(labelled(`error${it.errorCode ? ` (${printable(it.errorCode)})` : ""}`, it.error));
  const pauses = new Map(v.pauses.map((p) => [p.runId, p]));
  lines.push(`runs (${v.runs.length}):`);
  for (const r of v.runs) {
    const took = r.seconds !== null ? ` in ${r.seconds.toFixed(1)} s` : r.endedUnwatched ? ` (${unwatchedText(r.finishedAt)})` : "";
    lines.push(`  ${printable(r.id)} step ${r.step}: ${printable(r.status)}${took}${r.parentRunId ? ` (after ${printable(r.parentRunId)})` : ""}`);
    if (r.error || r.errorCode) lines.push(`    ${labelled(`failed${r.errorCode ? ` (${printable(r.errorCode)})` : ""}`, r.error ?? "", "      ")}`);
    const p = pauses.get(r.id);
    if (!p) continue;
    lines.push(`    paused on ${printable(p.tool)}:`);
    for (const l of describePause(p.tool, p.input)) lines.push(`      ${l}`);
    const d = p.decision;
    if (d) lines.push(`    decided ${printable(deciderLine(d))}, ${d.decidedAt}`);
    if (p.waiting === "person")
      lines.push(
        `    held for a person${it.holdReason ? ` (${printable(it.holdReason)})` : ""}; ${answerHint(v.batch.name, it.id, p.tool, hint, p.runId, p.input)}`
      );
    if (p.waiting === "send") lines.push(v.next ? `    not sent yet (no worker running), to send it: ${v.next.command}` : "    answered: the worker carrying the batch sends it");
  }
  if (v.files.length) {
    lines.push(`files (${v.files.length}):`);
    for (const f of v.files) {
      const where = f.path ? `${printable(f.path)}${f.host ? ` on ${printable(f.host)}` : ""}` : `not on disk${f.error ? `: ${printable(f.error)}` : ""}`;
      lines.push(`  ${printable(f.name ?? f.id)} [${f.status}${f.bytes !== null ? `, ${f.bytes} bytes` : ""}] ${where}`);
    }
  }
  return lines.join("\n");
}

export {
  describePause,
  answerFlags,
  answerHint,
  formatItem
};
//# sourceMappingURL=chunk-B54UIUN7.mjs.map
