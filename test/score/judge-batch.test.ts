import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/decide.js';
import { isJudgeBatch, judgeBatchName, judgedRefOf, judgeItemId, judgePolicy } from '../../src/score/judge-batch.js';

describe('the judge batch', () => {
  it('is named for the batch it judges and known by the batch it names', () => {
    expect(judgeBatchName({ name: 'capitals' })).toBe('capitals.judge');
    expect(isJudgeBatch({ settings: { judgeOf: 'b1' } as never })).toBe(true);
    expect(isJudgeBatch({ settings: {} as never })).toBe(false);
  });

  it('gives one judging one id: the item, its attempt, the scorer and its version, and a round of its own for a rescore', () => {
    const spec = { name: 'judged', version: 'abc' };
    expect(judgeItemId({ id: 'q1', attempt: 0 }, spec, null)).toBe('q1|a0|judged|abc');
    expect(judgeItemId({ id: 'q1', attempt: 2 }, spec, 'r17')).toBe('q1|a2|judged|abc|r17');
    expect(judgedRefOf({ meta: { judges: { item: 'q1', scorer: 'judged', version: 'abc' } } })).toEqual({ item: 'q1', scorer: 'judged', version: 'abc' });
    expect(judgedRefOf({ meta: { judges: { item: 1 } } })).toBeNull();
    expect(judgedRefOf({ meta: {} })).toBeNull();
  });

  it('declines a judge\'s pause the batch\'s policy has no rule for, and holds an unknown tool\'s', () => {
    const p = judgePolicy(null);
    expect(decide(p, { tool: 'confirm_scope', input: { cost: 1 } }, { approvedCost: 0 })).toMatchObject({ kind: 'answer', answer: { approved: false } });
    expect(decide(p, { tool: 'ask_choice', input: { options: [{ id: 'a' }] } }, { approvedCost: 0 })).toMatchObject({ kind: 'answer', answer: { decision: 'declined' } });
    expect(decide(p, { tool: 'request_quality_image', input: {} }, { approvedCost: 0 })).toMatchObject({ kind: 'answer', answer: { approved: false } });
    expect(decide(p, { tool: 'fold_more', input: {} }, { approvedCost: 0 }).kind).toBe('hold');
  });

  it('keeps the batch\'s own rules and its whole budget (the store holds both batches to it together)', () => {
    const p = judgePolicy({ confirm_scope: { approve_max_cost: 10, batch_budget: 20, otherwise: 'hold' }, request_quality_image: 'approve' });
    expect(p.confirm_scope).toEqual({ approve_max_cost: 10, batch_budget: 20, otherwise: 'hold' });
    expect(p.request_quality_image).toBe('approve');
    expect(judgePolicy({ confirm_scope: { approve_max_cost: 10, otherwise: 'decline' } }).confirm_scope).toEqual({ approve_max_cost: 10, otherwise: 'decline' });
  });
});
