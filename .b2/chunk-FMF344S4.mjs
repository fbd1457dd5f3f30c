import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  checkPolicy,
  proposeRule
} from "./chunk-2KEABKLD.mjs";
import {
  policyYaml
} from "./chunk-XCINQ3MG.mjs";

// src/review/policy-check.ts
async function readPolicyCheck(store, batch, policy) {
  return checkPolicy(policy, await store.batchPauses(batch.id));
}
async function readRuleView(store, batch, itemIds) {
  const all = await store.batchPauses(batch.id, { decidedBy: "person" });
  const wanted = itemIds ? new Set(itemIds) : null;
  const pauses = wanted ? all.filter((p) => wanted.has(p.itemId)) : all;
  const found = new Set(pauses.map((p) => p.itemId));
  const rule = proposeRule(pauses);
  const check = checkPolicy(rule.policy, pauses);
  return {
    ...rule,
    yaml: Object.keys(rule.policy).length ? policyYaml(rule.policy) : "",
    skipped: itemIds ? itemIds.filter((id) => !found.has(id)) : [],
    agrees: check.total.agrees,
    pauses: check.total.pauses
  };
}

export {
  readPolicyCheck,
  readRuleView
};
//# sourceMappingURL=chunk-FMF344S4.mjs.map
