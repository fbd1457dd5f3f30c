import { describe, expect, it } from 'vitest';
import { answerInWords, decisionInWords } from '../../src/runner/decision-words.js';

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
    expect(decisionInWords({ tool: 'ask_choice', answer: { decision: 'chosen', chosen: ['b'] }, by: 'policy', person: null })).toBe('ask_choice: chose b by policy');
    expect(decisionInWords({ tool: 'confirm_scope', answer: { approved: false }, by: 'person', person: null })).toBe('confirm_scope: declined by a person');
  });
});
