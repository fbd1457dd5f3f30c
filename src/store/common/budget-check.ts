import { OverBudgetError } from '../../errors.js';
import type { BudgetGuard } from '../shapes.js';

/**
 * Whether a person's answer costing `cost` goes past the batch budget, given what the batch
 * has approved (as the recording transaction reads it): true when it goes over and the
 * person allowed it (the decision is recorded as over), false when it stays within (or no
 * budget holds it). Throws {@link OverBudgetError} when it goes over unallowed. Pure; both
 * adapters call it inside the transaction that records the decision.
 */
export function checkBudget(itemId: string, approved: number, cost: number, guard: BudgetGuard | undefined): boolean {
  if (!guard || !(cost > 0) || approved + cost <= guard.budget) return false;
  if (!guard.allowOver) throw new OverBudgetError(itemId, approved, cost, guard.budget);
  return true;
}
