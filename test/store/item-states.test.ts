import { describe, expect, it } from 'vitest';
import { ACTIVE_STATES, ITEM_STATES, isTerminal, sqlStates, TERMINAL_STATES, UNFINISHED_STATES } from '../../src/store/item-states.js';

describe('item states', () => {
  it('splits every state into finished and unfinished, the active ones among the unfinished', () => {
    expect([...TERMINAL_STATES, ...UNFINISHED_STATES].sort()).toEqual([...ITEM_STATES].sort());
    expect(UNFINISHED_STATES).toEqual(['queued', 'submitting', 'running', 'waiting', 'held']);
    expect(ACTIVE_STATES.every((s) => UNFINISHED_STATES.includes(s))).toBe(true);
    expect(ITEM_STATES.filter(isTerminal)).toEqual(['completed', 'failed', 'error', 'cancelled']);
  });

  it('writes a state list as SQL the way the partial index items_active names it', () => {
    expect(sqlStates(ACTIVE_STATES)).toBe("('submitting', 'running', 'waiting')");
  });
});
