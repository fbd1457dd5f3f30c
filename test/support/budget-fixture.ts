import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A batch whose every item pauses once, answered by a policy with a batch_budget (the fault
 * suites of issue 28: test/suites/partition.test.ts, sqlite-faults.test.ts). A third of the
 * items are confirm_scope plans of one equal cost, so the plans that fit the budget may be
 * any of them but their number and total cost are the same whatever the order: what a single
 * uninterrupted worker approves.
 */

export const PLAN_COST = 4;
export const BATCH_BUDGET = 40;

export interface BudgetItem {
  id: string;
  question: string;
  /** The tool of its one pause. */
  tool: 'confirm_scope' | 'ask_choice' | 'request_quality_image';
}

export const BUDGET_POLICY = `confirm_scope:
  approve_max_cost: 10
  batch_budget: ${BATCH_BUDGET}
  otherwise: decline
ask_choice:
  prefer: [b]
  otherwise: first
request_quality_image: approve
unknown: hold
`;

/** `n` items of one pause each, `dur` of work per run; files on each unless `files` is false. */
export function budgetItems(n: number, dur: string, o: { prefix?: string; files?: boolean } = {}): BudgetItem[] {
  const out: BudgetItem[] = [];
  const prefix = o.prefix ?? 'p';
  for (let i = 0; i < n; i++) {
    const id = `${prefix}${String(i).padStart(2, '0')}`;
    const files = o.files === false ? '' : i % 2 === 0 ? ' @files=md' : ' @files=csv,png';
    if (i % 3 === 0) out.push({ id, tool: 'confirm_scope', question: `Plan ${id} @duration=${dur} @confirm=${PLAN_COST}${files}` });
    else if (i % 3 === 1) out.push({ id, tool: 'ask_choice', question: `Pick ${id} @duration=${dur} @choice${files}` });
    else out.push({ id, tool: 'request_quality_image', question: `Figure ${id} @duration=${dur} @image${files}` });
  }
  return out;
}

/** What a single uninterrupted worker approves: the budget's whole plans, whatever their order. */
export function expectedApproved(list: readonly BudgetItem[]): { count: number; cost: number } {
  const plans = list.filter((i) => i.tool === 'confirm_scope').length;
  const count = Math.min(plans, Math.floor(BATCH_BUDGET / PLAN_COST));
  return { count, cost: count * PLAN_COST };
}

/** Writes the items as a CSV question set and the policy; returns their paths. */
export function writeBudgetFixture(dir: string, list: readonly BudgetItem[]): { questions: string; policy: string } {
  const questions = join(dir, 'questions.csv');
  writeFileSync(questions, `id,question\n${list.map((i) => `${i.id},"${i.question}"`).join('\n')}\n`);
  const policy = join(dir, 'policy.yaml');
  writeFileSync(policy, BUDGET_POLICY);
  return { questions, policy };
}
