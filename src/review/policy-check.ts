// Past pauses reviewed: a policy replayed on a batch's pauses, and the rule people's decisions
// suggest. Over the store and the pure policy functions; front ends render what they return.
import { policyYaml } from '../config/policy-file.js';
import { checkPolicy, type PolicyCheck, proposeRule, type ProposedRule } from '../policy/index.js';
import type { Policy } from '../policy/index.js';
import type { ReadStore } from '../store/port.js';
import type { BatchRecord } from '../store/types.js';

/**
 * How `policy` would have decided every pause of `batch`, against what was decided (by the
 * policy the batch ran with, or by a person): see {@link checkPolicy}.
 */
export async function readPolicyCheck(store: Pick<ReadStore, 'batchPauses'>, batch: BatchRecord, policy: Policy | null): Promise<PolicyCheck> {
  return checkPolicy(policy, await store.batchPauses(batch.id));
}

/** The rule that would have decided some person-decided pauses, as YAML, and how it does on them. */
export interface RuleView extends ProposedRule {
  /** The policy as a policy file holds it. */
  yaml: string;
  /** Items asked for that have no pause a person decided. */
  skipped: string[];
  /** The rule replayed on those pauses: how many it decides as the people did. */
  agrees: number;
  pauses: number;
}

/**
 * "The rule that would have decided these": the pauses a person decided on `itemIds` (every
 * such pause of the batch when `itemIds` is null), the policy rule proposed from them
 * ({@link proposeRule}), and that rule checked on them.
 */
export async function readRuleView(store: Pick<ReadStore, 'batchPauses'>, batch: BatchRecord, itemIds: readonly string[] | null): Promise<RuleView> {
  const all = await store.batchPauses(batch.id, { decidedBy: 'person' });
  const wanted = itemIds ? new Set(itemIds) : null;
  const pauses = wanted ? all.filter((p) => wanted.has(p.itemId)) : all;
  const found = new Set(pauses.map((p) => p.itemId));
  const rule = proposeRule(pauses);
  const check = checkPolicy(rule.policy, pauses);
  return {
    ...rule,
    yaml: Object.keys(rule.policy).length ? policyYaml(rule.policy) : '',
    skipped: itemIds ? itemIds.filter((id) => !found.has(id)) : [],
    agrees: check.total.agrees,
    pauses: check.total.pauses,
  };
}
