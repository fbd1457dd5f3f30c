import { describe, expect, it } from 'vitest';
import { StateTally } from '../../src/runner/state-tally.js';

const zero = { queued: 0, submitting: 0, running: 0, waiting: 0, held: 0, completed: 0, failed: 0, error: 0, cancelled: 0 };

describe('StateTally', () => {
  it('moves tracked items between states and ignores untracked ones', () => {
    const t = new StateTally({ ...zero, queued: 3 });
    t.track('a', 'queued');
    t.move('a', 'running');
    t.move('a', 'completed');
    t.move('ghost', 'failed');
    expect(t.counts).toMatchObject({ queued: 2, running: 0, completed: 1, failed: 0 });
    t.untrack('a');
    t.move('a', 'error');
    expect(t.counts.error).toBe(0);
  });
  it('takes a fresh reading wholesale', () => {
    const t = new StateTally(zero);
    t.reset({ ...zero, held: 4 });
    expect(t.counts.held).toBe(4);
  });
});
