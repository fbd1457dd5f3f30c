import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/store/item-states.ts
var ITEM_STATES = ["queued", "submitting", "running", "waiting", "held", "completed", "failed", "error", "cancelled"];
var STATE_COLORS = {
  queued: "#bab0ac",
  submitting: "#4e79a7",
  running: "#4e79a7",
  waiting: "#76b7b2",
  held: "#edc948",
  completed: "#59a14f",
  failed: "#e15759",
  error: "#9c2f2f",
  cancelled: "#79706e"
};
var TERMINAL_STATES = ["completed", "failed", "error", "cancelled"];
var ENDED_STATES = ["completed", "failed", "error"];
var FAILED_STATES = ["failed", "error"];
var ACTIVE_STATES = ["submitting", "running", "waiting"];
var UNFINISHED_STATES = ITEM_STATES.filter((s) => !TERMINAL_STATES.includes(s));
function isTerminal(state) {
  return TERMINAL_STATES.includes(state);
}
function sqlStates(states) {
  return `(${states.map((s) => `'${s}'`).join(", ")})`;
}
function zeroCounts() {
  return Object.fromEntries(ITEM_STATES.map((s) => [s, 0]));
}

export {
  ITEM_STATES,
  STATE_COLORS,
  TERMINAL_STATES,
  ENDED_STATES,
  FAILED_STATES,
  ACTIVE_STATES,
  UNFINISHED_STATES,
  isTerminal,
  sqlStates,
  zeroCounts
};
//# sourceMappingURL=chunk-MH23QIYG.mjs.map
