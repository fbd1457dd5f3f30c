import { describe, expect, it } from 'vitest';
import { deciderLine, deciderOf, decisionWords } from '../../src/read/decider.js';

const base = { tool: 'confirm_scope', cost: 0, decidedAt: '2026-01-01T00:00:00.000Z' };

describe('decisions in words, with who decided and the note', () => {
  it('says approved, declined, chose a, b; anything else as its JSON', () => {
    expect(decisionWords({ approved: true })).toBe('approved');
    expect(decisionWords({ approved: false })).toBe('declined');
    expect(decisionWords({ decision: 'declined', note: 'no' })).toBe('declined');
    expect(decisionWords({ decision: 'chosen', chosen: ['a', 'b'] })).toBe('chose a, b');
    expect(decisionWords({ other: 1 })).toBe('{"other":1}');
  });

  it("a person's note is the stored reason; a policy's reason is its rule and its note rides in the answer", () => {
    const person = deciderOf({ ...base, answer: { approved: true }, by: 'person', person: 'Ana', reason: 'within the grant' });
    expect(person).toMatchObject({ by: 'person', person: 'Ana', note: 'within the grant', reason: null, words: 'approved' });
    expect(deciderLine(person)).toBe('approved by Ana — note: within the grant');
    const policy = deciderOf({ ...base, tool: 'ask_choice', answer: { decision: 'chosen', chosen: ['a'], note: 'house rule' }, by: 'policy', person: null, reason: 'preferred option "a" is offered' });
    expect(policy).toMatchObject({ by: 'policy', person: null, note: 'house rule', reason: 'preferred option "a" is offered' });
    expect(deciderLine(policy)).toBe('chose a by the policy (preferred option "a" is offered) — note: house rule');
    expect(deciderLine(deciderOf({ ...base, answer: { approved: false }, by: 'person', person: null, reason: null }))).toBe('declined by a person');
  });
});
