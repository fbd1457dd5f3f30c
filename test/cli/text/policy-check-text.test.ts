import { describe, expect, it } from 'vitest';
import { differenceLine, policyCheckText } from '../../../src/cli/text/policy-check-text.js';
import { checkPolicy } from '../../../src/policy/check.js';
import { policySchema } from '../../../src/policy/schema.js';

const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('policy check as text', () => {
  it('prints no raw control character from ids, tools, names, option ids or the file name', () => {
    const policy = policySchema.parse({ ask_choice: { prefer: ['x\u001b[2J'] } });
    const c = checkPolicy(policy, [
      { itemId: 'i\u001b]0;owned\u0007', runId: 'r', tool: 'ask_choice', input: { options: [{ id: 'x\u001b[2J' }] }, decision: { answer: { decision: 'chosen', chosen: ['y\u009b1m'] }, by: 'person', person: 'm\u001b[31mallory', cost: 0 } },
      { itemId: 'j', runId: 's', tool: 'to\u0007ol', input: {}, decision: null },
    ]);
    const text = policyCheckText('p\u001b.yaml', 'b\u0007', c);
    expect(text).not.toMatch(CONTROL);
    expect(text).toContain('i\\x1b]0;owned\\x07 (ask_choice): choose y\\x9b1m by m\\x1b[31mallory; policy would choose x\\x1b[2J');
    expect(text.split('\n')[0]).toBe('p\\x1b.yaml on batch b\\x07: 2 pauses, 1 decided the same, 1 otherwise (0 from the budget, 1 from the rules)');
  });

  it('says a batch without pauses in one line', () => {
    expect(policyCheckText('p.yaml', 'b', checkPolicy(null, []))).toBe('p.yaml on batch b: 0 pauses, 0 decided the same, 0 otherwise\n');
  });

  it('names who decided, or that nobody did yet', () => {
    const [d] = checkPolicy(null, [{ itemId: 'a', runId: 'r', tool: 'confirm_scope', input: { cost: 3 }, decision: { answer: { approved: true }, by: 'policy', person: null, cost: 3 } }]).differences;
    expect(differenceLine(d!)).toBe('a (confirm_scope, cost 3): approve by policy; policy would hold: no policy: held for a person');
  });
});
