import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  admittedPatch, answeredPatch, cancelledPatch, errorPatch, finishedPatch, heldPatch, pauseSeen, UNHELD, UNLEASED,
} from '../../../src/store/common/transition-patches.js';
import type { ItemRecord } from '../../../src/store/types.js';
import type { RunSnapshot } from '../../../src/store/shapes.js';

const root = resolve(import.meta.dirname, '../../..');
const item = { batchId: 'b', id: 'q1', step: 2, threadId: 'th-old' } as ItemRecord;
const run = { id: 'r1', status: 'failed', threadId: null, output: { text: 'partial' }, error: { code: 'E_X', message: 'boom' } } as unknown as RunSnapshot;
const at = '2026-11-28T10:00:00.000Z';

describe('the transition patches, once for both adapters', () => {
  it('says what each transition writes, the adapter\'s own columns spread in after', () => {
    expect(admittedPatch(item, { id: 'r1', status: 'running', threadId: 'th-new' } as never, UNHELD)).toEqual({
      state: 'running', run_id: 'r1', thread_id: 'th-new', run_status: 'running', pending_key: null, pending_answer: null, hold_reason: null,
    });
    expect(admittedPatch(item, { id: 'r1', status: 'running', threadId: null } as never).thread_id).toBe('th-old');
    const finished = finishedPatch(item, run, 'failed', at, UNLEASED);
    expect(finished).toMatchObject({ state: 'failed', run_status: 'failed', text: 'partial', thread_id: 'th-old', finished_at: at, owner: null, lease_until: null });
    expect(finished.error).toBeTruthy();
    expect(finishedPatch(item, run, 'completed', at)).toMatchObject({ error: null, error_code: null });
    expect(pauseSeen(run)).toEqual({ run_status: 'failed', text: 'partial' });
    expect(answeredPatch(item, { answer: { ok: true } }, 'k3', pauseSeen(run), UNHELD)).toEqual({
      state: 'waiting', step: 3, pending_key: 'k3', pending_answer: { ok: true }, run_status: 'failed', text: 'partial', hold_reason: null,
    });
    expect(answeredPatch(item, { answer: {} }, 'k3')).toEqual({ state: 'waiting', step: 3, pending_key: 'k3', pending_answer: {} });
    expect(heldPatch(pauseSeen(run), 'over budget', UNLEASED)).toEqual({ state: 'held', run_status: 'failed', text: 'partial', hold_reason: 'over budget', owner: null, lease_until: null });
    expect(cancelledPatch(at)).toEqual({ state: 'cancelled', pending_key: null, finished_at: at });
    expect(errorPatch('bad', 'E_BAD', at, UNLEASED)).toEqual({ state: 'error', error: 'bad', error_code: 'E_BAD', pending_key: null, finished_at: at, owner: null, lease_until: null });
  });

  it('is what both adapters\' transitions write: each imports the patches and keeps no no-op effects hook', () => {
    for (const f of ['src/store/sqlite/transitions.ts', 'src/store/postgres/transitions.ts']) {
      const text = readFileSync(resolve(root, f), 'utf8');
      expect(text, f).toContain("from '../common/transition-patches.js'");
      expect(text, f).not.toMatch(/\beffects\(/);
      // The agent item's patches are not spelled again (pending_answer: d.answer / decision.answer).
      expect(text, f).not.toMatch(/pending_answer: (d|decision)\.answer/);
    }
  });
});
