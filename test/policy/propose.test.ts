import { describe, expect, it } from 'vitest';
import { checkPolicy, type PastPause } from '../../src/policy/check.js';
import { proposeRule } from '../../src/policy/propose.js';

let n = 0;
const pause = (tool: string, input: Record<string, unknown>, answer: Record<string, unknown>, by: 'person' | 'policy' = 'person'): PastPause => ({
  itemId: `i${++n}`,
  runId: `r${n}`,
  tool,
  input,
  decision: { answer, by, person: by === 'person' ? 'ann' : null, cost: 0 },
});
const options = { options: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] };

describe('proposeRule', () => {
  it('proposes the rule that decides people’s answers as they did, tool by tool', () => {
    const pauses = [
      pause('confirm_scope', { cost: 3 }, { approved: true }),
      pause('confirm_scope', { cost: 9 }, { approved: true }),
      pause('confirm_scope', { cost: 15 }, { approved: false }),
      pause('confirm_scope', { cost: 1 }, { approved: true }, 'policy'),
      pause('ask_choice', options, { decision: 'chosen', chosen: ['c'] }),
      pause('ask_choice', options, { decision: 'chosen', chosen: ['b'] }),
      pause('ask_choice', options, { decision: 'chosen', chosen: ['c'] }),
      pause('request_quality_image', {}, { approved: false }),
      pause('booking', {}, { approved: true }),
    ];
    const r = proposeRule(pauses);
    expect(r.from).toBe(8);
    expect(r.policy).toEqual({
      confirm_scope: { approve_max_cost: 9, otherwise: 'decline' },
      ask_choice: { prefer: ['c', 'b'], otherwise: 'hold' },
      request_quality_image: 'decline',
      unknown: 'hold',
    });
    expect(r.notes[0]).toBe('confirm_scope: 2 plans approved, 1 declined: approve up to 9, decline above');
    // Replayed, it decides them as the people did, but for the one b (c is preferred) and the unknown tool.
    const check = checkPolicy(r.policy, pauses.filter((p) => p.decision?.by === 'person'));
    expect(check.total).toMatchObject({ pauses: 8, agrees: 6, differs: 2 });
  });

  it('holds when approved and declined costs overlap, and when people differed on images', () => {
    const r = proposeRule([
      pause('confirm_scope', { cost: 3 }, { approved: true }),
      pause('confirm_scope', { cost: 5 }, { approved: false }),
      pause('confirm_scope', { cost: 8 }, { approved: true }),
      pause('request_quality_image', {}, { approved: false }),
      pause('request_quality_image', {}, { approved: true }),
    ]);
    expect(r.policy).toEqual({ confirm_scope: { approve_max_cost: 3, otherwise: 'hold' }, request_quality_image: 'hold' });
    expect(r.notes[0]).toContain('overlap');
    expect(proposeRule([])).toEqual({ policy: {}, notes: [], from: 0 });
  });
});
