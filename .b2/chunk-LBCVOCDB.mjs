import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";
import {
  planCost,
  untrustedCost
} from "./chunk-O4EQ2A5A.mjs";

// src/read/held-selection.ts
function checkHeldFilter(f) {
  for (const [name, v] of [["min-cost", f.minCost], ["max-cost", f.maxCost]])
    if (v !== void 0 && (!Number.isFinite(v) || v < 0)) throw new InputError(`--${name}: give a number of 0 or more`);
  if (f.minCost !== void 0 && f.maxCost !== void 0 && f.minCost > f.maxCost)
    throw new InputError(`--min-cost ${f.minCost} is more than --max-cost ${f.maxCost}: no item can match`);
  for (const w of f.where ?? []) if (!/^meta\..+/.test(w.key)) throw new InputError(`--where ${w.key}=\u2026: name a meta field as meta.KEY=VALUE`);
  if (f.tool !== void 0 && f.tool.trim() === "") throw new InputError("--tool: give a tool name (confirm_scope, ask_choice, request_quality_image, \u2026)");
}
function parseWhere(s) {
  const eq = s.indexOf("=");
  const key = eq < 0 ? s : s.slice(0, eq);
  if (eq < 0 || !/^meta\..+/.test(key)) throw new InputError(`--where ${s}: write it as meta.KEY=VALUE`);
  return { key, value: s.slice(eq + 1) };
}
function metaText(v) {
  if (v === void 0) return null;
  return typeof v === "string" ? v : JSON.stringify(v);
}
function heldMatches(f, it) {
  if (f.tool !== void 0 && it.tool !== f.tool.trim()) return false;
  if ((f.minCost !== void 0 || f.maxCost !== void 0) && it.cost === null) return false;
  if (f.minCost !== void 0 && it.cost < f.minCost) return false;
  if (f.maxCost !== void 0 && it.cost > f.maxCost) return false;
  for (const w of f.where ?? []) if (metaText(it.meta[w.key.slice("meta.".length)]) !== w.value) return false;
  if (f.text) {
    const t = f.text.toLowerCase();
    if (![it.id, it.question, it.holdReason ?? ""].some((s) => s.toLowerCase().includes(t))) return false;
  }
  return true;
}
var PAGE = 200;
async function pauseOf(store, it) {
  const run = it.runId ? await store.getRun(it.runId) : null;
  const action = run?.requiredAction;
  if (!action || !it.runId) return null;
  const cost = planCost(action.input);
  return { id: it.id, seq: it.seq, runId: it.runId, tool: action.tool, input: action.input, cost, untrustedCost: untrustedCost(action.input), holdReason: it.holdReason, question: it.question, meta: it.meta };
}
async function selectHeld(store, batch, filter = {}) {
  checkHeldFilter(filter);
  const items = [];
  const wanted = filter.ids ? new Set(filter.ids) : null;
  if (wanted?.size === 0) return { items, totalCost: 0, notHeld: [] };
  const seen = /* @__PURE__ */ new Set();
  let afterSeq = -1;
  for (; ; ) {
    const page = await store.listItems(batch.id, { states: ["held"], afterSeq, limit: PAGE });
    for (const it of page) seen.add(it.id);
    const pauses = await Promise.all(page.filter((it) => !wanted || wanted.has(it.id)).map((it) => pauseOf(store, it)));
    for (const p of pauses) if (p && heldMatches(filter, p)) items.push(p);
    if (page.length < PAGE) break;
    afterSeq = page.at(-1).seq;
  }
  const notHeld = filter.ids ? [...new Set(filter.ids)].filter((id) => !seen.has(id)) : [];
  return { items, totalCost: items.reduce((n, i) => n + (i.cost ?? 0), 0), notHeld };
}

export {
  checkHeldFilter,
  parseWhere,
  heldMatches,
  selectHeld
};
//# sourceMappingURL=chunk-LBCVOCDB.mjs.map
