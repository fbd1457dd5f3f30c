// A batch's running spend against its budget (the policy's confirm_scope.batch_budget): the
// cost approved so far by the policy and by people, as a bar when there is a budget.
import { h } from './dom.js';

const money = (n) => String(Math.round(n * 100) / 100);

/** The spend line of a batch overview: a bar of approved cost over budget, or the cost alone. */
export function spendBar(o) {
  if (o.budget === null || o.budget === undefined) return h('p', { id: 'spend', class: 'muted' }, `approved cost ${money(o.approvedCost)} (no batch budget)`);
  // The budget's spend: the batch's and its agent judge's (status `budgetSpent`).
  const spent = typeof o.budgetSpent === 'number' ? o.budgetSpent : o.approvedCost;
  const judged = spent - o.approvedCost;
  const share = o.budget > 0 ? spent / o.budget : 1;
  return h(
    'p',
    { id: 'spend', class: share >= 1 ? 'spend over' : 'spend' },
    h('progress', { id: 'spend-bar', max: String(o.budget), value: String(Math.min(spent, o.budget)), 'aria-label': 'approved cost against the batch budget' }),
    ' ',
    h('span', { id: 'spend-text' }, `spent ${money(spent)} of the batch budget ${money(o.budget)} (${Math.round(share * 100)}%)${judged > 0 ? `, ${money(judged)} of it by its agent judge` : ''}`),
  );
}
