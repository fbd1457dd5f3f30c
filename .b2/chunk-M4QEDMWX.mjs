import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/read/spend.ts
function budgetOf(policy) {
  const b = policy?.confirm_scope?.batch_budget;
  return typeof b === "number" && Number.isFinite(b) ? b : null;
}
var HELD_WAIT_BUCKETS = [5, 15, 30, 60, 300, 900, 1800, 3600, 7200, 14400, 43200, 86400, 259200];
function histogramOf(values, bounds) {
  return {
    buckets: bounds.map((le) => ({ le, count: values.filter((v) => v <= le).length })),
    count: values.length,
    sum: values.reduce((s, v) => s + v, 0)
  };
}
async function heldWaitSeconds(store, batchId) {
  const out = [];
  for (const p of await store.batchPauses(batchId, { decidedBy: "person" })) {
    if (!p.pausedAt || !p.decision) continue;
    const ms = Date.parse(p.decision.decidedAt) - Date.parse(p.pausedAt);
    if (Number.isFinite(ms)) out.push(Math.max(0, ms) / 1e3);
  }
  return out;
}
async function readHeldWaits(store, batchId) {
  return histogramOf(await heldWaitSeconds(store, batchId), HELD_WAIT_BUCKETS);
}

export {
  budgetOf,
  HELD_WAIT_BUCKETS,
  histogramOf,
  heldWaitSeconds,
  readHeldWaits
};
//# sourceMappingURL=chunk-M4QEDMWX.mjs.map
