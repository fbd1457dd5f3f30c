import { describe, expect, it } from 'vitest';
import { checkPolicy, type PastPause, verdictOf } from '../../src/policy/check.js';
import { policySchema } from '../../src/policy/schema.js';

const plan = (itemId: string, cost: number, decision: PastPause['decision']): PastPause => ({ itemId, runId: `run-${itemId}`, tool: 'confirm_scope', input: { cost }, decision });
const person = (approved: boolean, cost: number, who = 'ann') => ({ answer: { approved }, by: 'person' as const, person: who, cost });

describe('checkPolicy', () => {
  it('reads answers as verdicts', () => {
    expect(verdictOf({ approved: true })).toEqual({ verdict: 'approve', chosen: [] });
    expect(verdictOf({ approved: false })).toEqual({ verdict: 'decline', chosen: [] });
    expect(verdictOf({ decision: 'chosen', chosen: ['a', 2] })).toEqual({ verdict: 'choose', chosen: ['a', '2'] });
    expect(verdictOf({ decision: 'declined' })).toEqual({ verdict: 'decline', chosen: [] });
  });

  it('replays the budget with what the policy approves and what people approved on the pauses it holds', () => {
    const policy = policySchema.parse({ confirm_scope: { approve_max_cost: 10, batch_budget: 12, otherwise: 'hold' } });
    const c = checkPolicy(policy, [plan('a', 20, person(true, 20)), plan('b', 5, null), plan('c', 5, person(true, 5))]);
    // a: held (over 10), a person approved 20 → 20 counted; b: 20 + 5 > 12 → held, agrees with undecided;
    // c: held too, but a person approved it: differs.
    expect(c.total).toMatchObject({ pauses: 3, would: { hold: 3 }, agrees: 1, differs: 2, actualCost: 25, wouldCost: 25 });
    expect(c.differences.map((d) => d.itemId)).toEqual(['a', 'c']);
    expect(c.differences[1]!.would.reason).toContain('over batch_budget 12');
    expect(c.replay).toEqual([{ itemId: 'a', verdict: 'hold', cost: 20 }, { itemId: 'b', verdict: 'hold', cost: 0 }, { itemId: 'c', verdict: 'hold', cost: 5 }]);
  });

  it('with no policy, holds every pause', () => {
    const c = checkPolicy(null, [plan('a', 1, { answer: { approved: true }, by: 'policy', person: null, cost: 1 })]);
    expect(c.tools).toEqual([expect.objectContaining({ tool: 'confirm_scope', differs: 1, actualCost: 1, wouldCost: 0 })]);
  });
});
