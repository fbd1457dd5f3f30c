import { describe, expect, it } from 'vitest';
import { judgingVerdict } from '../../src/score/judgings.js';
import type { ItemRecord } from '../../src/store/index.js';

describe('judgingVerdict', () => {
  it('leaves an item unscored with the reason when its judging run failed', () => {
    const j = { meta: { judges: { item: 'q1', scorer: 'judged', version: 'v' } }, state: 'failed', error: 'boom\u001b[2J', runId: 'run-1', id: 'x', text: null } as unknown as ItemRecord;
    expect(judgingVerdict(j, 'T')).toEqual({ item: 'q1', verdict: { scorer: 'judged', version: 'v', pass: null, score: null, reason: 'the judging run failed: boom\\x1b[2J', scoredAt: 'T', by: 'agent:run-1' } });
    expect(judgingVerdict({ ...j, state: 'held' } as ItemRecord, 'T')).toBeNull();
  });

  it('reads a completed judging strictly: its first line says PASS or FAIL', () => {
    const j = { meta: { judges: { item: 'q2', scorer: 'judged', version: 'v' } }, state: 'completed', error: null, runId: 'run-2', id: 'y', text: 'VERDICT: PASS\nsame result' } as unknown as ItemRecord;
    expect(judgingVerdict(j, 'T')).toMatchObject({ item: 'q2', verdict: { pass: true, by: 'agent:run-2' } });
    expect(judgingVerdict({ ...j, text: 'I think it passes' } as ItemRecord, 'T')).toMatchObject({ verdict: { pass: null } });
  });

  it('is null for an item that is not a judging', () => {
    expect(judgingVerdict({ meta: {}, state: 'completed' } as unknown as ItemRecord, 'T')).toBeNull();
  });
});
