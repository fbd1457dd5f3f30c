import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { answerFor } from '../../src/runner/answer.js';

const choice = { question: 'which?', options: [{ id: 'a' }, { id: 'b' }], allowMultiple: false };

describe('answerFor', () => {
  it('approves and declines confirm_scope, counting the cost only when approved', () => {
    expect(answerFor('confirm_scope', { cost: 12 }, { kind: 'approve' })).toEqual({ answer: { approved: true }, cost: 12 });
    expect(answerFor('confirm_scope', { cost: 12 }, { kind: 'decline' })).toEqual({ answer: { approved: false }, cost: 0 });
  });
  it('answers request_quality_image', () => {
    expect(answerFor('request_quality_image', {}, { kind: 'approve' }).answer).toEqual({ approved: true });
  });
  it('chooses offered options with a note, or declines', () => {
    expect(answerFor('ask_choice', choice, { kind: 'choose', ids: ['b'], note: 'n' }).answer).toEqual({
      decision: 'chosen',
      chosen: ['b'],
      note: 'n',
    });
    expect(answerFor('ask_choice', choice, { kind: 'decline' }).answer).toEqual({ decision: 'declined' });
  });
  it('refuses options not offered, several without allowMultiple, and approve for a choice', () => {
    expect(() => answerFor('ask_choice', choice, { kind: 'choose', ids: ['z'] })).toThrow(InputError);
    expect(() => answerFor('ask_choice', choice, { kind: 'choose', ids: ['a', 'b'] })).toThrow(/only one/);
    expect(() => answerFor('ask_choice', choice, { kind: 'approve' })).toThrow(/--choose/);
    expect(() => answerFor('confirm_scope', {}, { kind: 'choose', ids: ['a'] })).toThrow(/--approve or --decline/);
  });
  it('accepts several options when allowMultiple', () => {
    expect(answerFor('ask_choice', { ...choice, allowMultiple: true }, { kind: 'choose', ids: ['a', 'b'] }).answer).toEqual({
      decision: 'chosen',
      chosen: ['a', 'b'],
    });
  });
});
