import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  TERMINAL_STATES
} from "./chunk-MH23QIYG.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/runner/operations/retry.ts
function retryStates(s) {
  const states = [];
  if (s.failed) states.push("failed");
  if (s.errored) states.push("error");
  if (s.cancelled) states.push("cancelled");
  if (states.length > 0) return states;
  return s.items?.length ? [...TERMINAL_STATES] : ["failed", "error"];
}
function retrySelection(o) {
  const states = o.states ?? [];
  return {
    ...states.includes("failed") ? { failed: true } : {},
    ...states.includes("error") ? { errored: true } : {},
    ...states.includes("cancelled") ? { cancelled: true } : {},
    ...o.items?.length ? { items: o.items } : {}
  };
}
async function retryItems(store, batch, s = {}) {
  const ids = s.items?.length ? [...s.items] : null;
  if (ids) {
    const missing = [];
    for (const id of ids) if (!await store.getItem(batch.id, id)) missing.push(id);
    if (missing.length) throw new InputError(`batch "${batch.name}" has no item ${missing.map((m) => `"${m}"`).join(", ")}`);
  }
  return { batch: batch.name, moved: await store.requeue(batch.id, ids, retryStates(s)) };
}
export {
  retryItems,
  retrySelection,
  retryStates
};
//# sourceMappingURL=retry-5FZL3NGJ.mjs.map
