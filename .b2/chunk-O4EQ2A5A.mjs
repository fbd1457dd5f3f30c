import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/policy/cost.ts
var COST_BOUND = 1e12;
function costDoubt(input) {
  const c = input?.["cost"];
  if (c === void 0 || c === null) return null;
  if (typeof c !== "number" || Number.isNaN(c)) return "not a number";
  if (c < 0) return "negative";
  if (!(c <= COST_BOUND)) return `above ${COST_BOUND.toExponential().replace("e+", "e")}`;
  return null;
}
function planCost(input) {
  const c = input?.["cost"];
  return typeof c === "number" && costDoubt(input) === null ? c : null;
}
function costShown(input) {
  const c = input?.["cost"];
  if (c === void 0 || c === null) return null;
  const doubt = costDoubt(input);
  const sent = typeof c === "string" ? JSON.stringify(c.length > 80 ? `${c.slice(0, 79)}\u2026` : c) : typeof c === "number" ? numberText(c) : cutJson(c);
  return doubt ? `${sent} (untrusted: ${doubt})` : sent;
}
function numberText(n) {
  return String(n).replace("e+", "e");
}
function cutJson(v) {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 79)}\u2026` : s;
}
function recordedCost(cost) {
  return typeof cost === "number" && cost >= 0 && cost <= COST_BOUND ? cost : 0;
}
function keptTotal(n) {
  const v = Number(n ?? 0);
  if (Number.isNaN(v) || v > Number.MAX_VALUE) return Number.MAX_VALUE;
  return v < 0 ? 0 : v;
}
function untrustedCost(input) {
  return costDoubt(input) === null ? null : costShown(input);
}

export {
  COST_BOUND,
  costDoubt,
  planCost,
  costShown,
  recordedCost,
  keptTotal,
  untrustedCost
};
//# sourceMappingURL=chunk-O4EQ2A5A.mjs.map
