import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  judgeItem
} from "./chunk-AU72P42T.mjs";
import "./chunk-QHE4PU7B.mjs";
import "./chunk-2A6FAXNZ.mjs";
import "./chunk-UUEOY5IK.mjs";
import "./chunk-64FYAIQV.mjs";
import "./chunk-ADUNF5BB.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/score/worker-scorers.ts
function workerScorers(stored, own) {
  const from = own ?? (stored ?? []).filter((s) => s.kind !== "command");
  return from.filter((s) => s.kind !== "agent");
}
function agentScorers(batch, own) {
  if (batch.settings.judgeOf !== void 0) return [];
  return (own ?? batch.settings.scorers ?? []).filter((s) => s.kind === "agent");
}
function completedScorer(store, batchId, specs, o = {}) {
  if (specs.length === 0) return null;
  return async (item) => {
    try {
      const verdicts = await judgeItem(item, specs, { store, batchId, ...o.clock ? { clock: o.clock } : {} });
      await store.recordVerdicts(batchId, item.id, verdicts);
    } catch (e) {
      o.onProblem?.(`item ${item.id}: its verdicts were not recorded (${e instanceof Error ? e.message : String(e)}); \`resq score\` judges it`);
    }
  };
}
export {
  agentScorers,
  completedScorer,
  workerScorers
};
//# sourceMappingURL=worker-scorers-KM4L7OKT.mjs.map
