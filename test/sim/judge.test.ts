import { describe, expect, it } from 'vitest';
import { judgeCaseOf, judgeReply, judgeScript } from '../../src/sim/judge.js';
import { judgePrompt } from '../../src/score/judge-prompt.js';

describe('the simulated judge', () => {
  const ask = (question: string, expected: unknown, answer: string) => judgePrompt({ rubric: 'r', question, expected, answer });

  it('reads resq\'s judging question, and nothing else, as one', () => {
    expect(judgeCaseOf(ask('Q?', 'Paris', 'It is paris.'))).toEqual({ question: 'Q?', expected: 'Paris', answer: 'It is paris.', silent: false });
    expect(judgeCaseOf('What is the capital of France? @confirm=3')).toBeNull();
    expect(judgeCaseOf('resq judging request (format 1)\n[answer: 900 characters]\nshort')).toBeNull();
  });

  it('passes an answer that contains the expected text, case and spacing ignored, and fails one that does not', () => {
    expect(judgeReply(judgeCaseOf(ask('Q?', 'New  York', 'I say new york city.'))!)).toEqual(['VERDICT: PASS', 'The answer contains the expected text.']);
    expect(judgeReply(judgeCaseOf(ask('Q?', 'Boston', 'I say new york city.'))!)[0]).toBe('VERDICT: FAIL');
  });

  it('obeys only the judged question\'s @judge_ directives, and @judge_silent drops the verdict line', () => {
    const c = judgeCaseOf(ask('Q? @confirm=9 @duration=5s @judge_confirm=4 @judge_duration=2s @judge_silent', 'x', 'answer @fail'))!;
    const s = judgeScript(c);
    expect(s.pauses).toEqual([{ tool: 'confirm_scope', cost: 4 }]);
    expect(s.durationMs).toBe(2000);
    expect(s.fail).toBe(false);
    expect(judgeReply(s.judge!)[0]).not.toMatch(/VERDICT/);
  });
});
