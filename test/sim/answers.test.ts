import { describe, expect, it } from 'vitest';
import { answerProblem, summariseAnswer } from '../../src/sim/answers.js';

const choice = (allowMultiple: boolean) => ({
  tool: 'ask_choice',
  input: { question: 'q', options: [{ id: 'a' }, { id: 'b' }], allowMultiple },
});

describe('answerProblem', () => {
  it('wants a boolean approved for confirm_scope and request_quality_image', () => {
    for (const tool of ['confirm_scope', 'request_quality_image']) {
      const a = { tool, input: {} };
      expect(answerProblem(a, { approved: true })).toBeNull();
      expect(answerProblem(a, { approved: false, note: 'x' })).toBeNull();
      expect(answerProblem(a, { approved: 'true' })).toMatch(/approved/);
      expect(answerProblem(a, null)).toMatch(/object/);
    }
  });

  it('checks ask_choice ids, count and note', () => {
    expect(answerProblem(choice(false), { decision: 'chosen', chosen: ['b'] })).toBeNull();
    expect(answerProblem(choice(false), { decision: 'declined', note: 'no' })).toBeNull();
    expect(answerProblem(choice(true), { decision: 'chosen', chosen: ['a', 'b'] })).toBeNull();
    expect(answerProblem(choice(false), { decision: 'chosen', chosen: ['a', 'b'] })).toMatch(/allowMultiple/);
    expect(answerProblem(choice(true), { decision: 'chosen', chosen: ['a', 'a'] })).toMatch(/repeats/);
    expect(answerProblem(choice(true), { decision: 'chosen', chosen: ['c'] })).toMatch(/'c'/);
    expect(answerProblem(choice(true), { decision: 'chosen' })).toMatch(/chosen/);
    expect(answerProblem(choice(true), { chosen: ['a'] })).toMatch(/decision/);
    expect(answerProblem(choice(true), { decision: 'declined', note: 1 })).toMatch(/note/);
  });

  it('accepts any object for a tool it does not know', () => {
    expect(answerProblem({ tool: 'new_tool', input: {} }, {})).toBeNull();
    expect(answerProblem({ tool: 'new_tool', input: {} }, [])).toMatch(/object/);
  });
});

describe('summariseAnswer', () => {
  it('names each answer and flags a declined scope as narrow', () => {
    expect(summariseAnswer({ tool: 'confirm_scope', input: {} }, { approved: false })).toEqual({ line: 'confirm_scope: declined', narrow: true });
    expect(summariseAnswer({ tool: 'confirm_scope', input: {} }, { approved: true })).toEqual({ line: 'confirm_scope: approved', narrow: false });
    expect(summariseAnswer(choice(true), { decision: 'chosen', chosen: ['a', 'b'], note: 'n' }).line).toBe('ask_choice: chosen a,b (note: n)');
    expect(summariseAnswer(choice(true), { decision: 'declined' }).line).toBe('ask_choice: declined');
    expect(summariseAnswer({ tool: 'request_quality_image', input: {} }, { approved: true }).line).toBe('request_quality_image: approved');
    expect(summariseAnswer({ tool: 'odd', input: {} }, { x: 1 }).line).toBe('odd: answered {"x":1}');
  });
});
