import { describe, expect, it } from 'vitest';
import { deciderLine, deciderOf } from '../../src/read/decider.js';
import { answerInWords, decisionInWords } from '../../src/read/decision-text.js';

describe('decisions in words', () => {
  it('says approved, declined and chose, with the note', () => {
    expect(answerInWords({ approved: true })).toBe('approved');
    expect(answerInWords({ approved: false })).toBe('declined');
    expect(answerInWords({ decision: 'declined', note: 'off topic' })).toBe('declined (note: "off topic")');
    expect(answerInWords({ decision: 'chosen', chosen: ['a', 'b'] })).toBe('chose a, b');
    expect(answerInWords({ other: 1 })).toBe('{"other":1}');
  });

  it('names who decided', () => {
    expect(decisionInWords({ tool: 'confirm_scope', answer: { approved: true }, by: 'person', person: 'ana' })).toBe('confirm_scope: approved by ana');
    expect(decisionInWords({ tool: 'ask_choice', answer: { decision: 'chosen', chosen: ['b'] }, by: 'policy', person: null })).toBe('ask_choice: chose b by the policy');
    expect(decisionInWords({ tool: 'confirm_scope', answer: { approved: false }, by: 'person', person: null })).toBe('confirm_scope: declined by a person');
  });

  it('says who decided as every other window does: one line of a comparison and a status line name the policy alike', () => {
    const d = { tool: 'confirm_scope', answer: { approved: true }, by: 'policy' as const, person: null, reason: null, cost: 0, decidedAt: '2026-01-01T00:00:00.000Z' };
    expect(decisionInWords(d)).toBe('confirm_scope: approved by the policy');
    expect(deciderLine(deciderOf(d))).toBe('approved by the policy');
  });
});
