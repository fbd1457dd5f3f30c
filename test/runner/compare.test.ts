import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareBatches, compareSides, compareSummary, hasChanges } from '../../src/runner/compare.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore, type BatchRecord, type Store } from '../../src/store/index.js';
import { tempDir } from '../support/cli.js';
import { runCsvBatch } from '../support/two-batches.js';

// Batch A approves the plan and picks b; batch B declines the plan, picks a, drops x, adds z,
// fails y and makes different files for w.
const CSV_A = 'id,question\nv,same question\nw,plan @confirm=5 @files=md\nx,only in A\ny,pick @choice\n';
const CSV_B = 'id,question\nv,same question\nw,plan @confirm=5 @files=csv\ny,pick @choice @fail\nz,only in B\n';

describe('compareBatches', () => {
  let sim: Sim;
  let store: Store;
  let a: BatchRecord;
  let b: BatchRecord;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
    const dir = tempDir();
    store = await openStore(join(dir, 'resq.db'));
    a = await runCsvBatch(sim, store, dir, 'first', CSV_A, { confirm_scope: { approve_max_cost: 10 }, ask_choice: { prefer: ['b'] } });
    b = await runCsvBatch(sim, store, dir, 'second', CSV_B, { confirm_scope: { approve_max_cost: 1, otherwise: 'decline' }, ask_choice: { prefer: ['a'] } });
  }, 30_000);
  afterAll(async () => {
    await store.close();
    await sim.close();
  });

  it('pairs the same ids: A in its order, then those only B has', async () => {
    const all = [];
    for await (const c of compareBatches(store, a, b, 2)) all.push(c);
    expect(all.map((c) => c.id)).toEqual(['v', 'w', 'x', 'y', 'z']);
    const by = Object.fromEntries(all.map((c) => [c.id, c]));
    expect(hasChanges(by.v!)).toBe(false);
    expect(by.x!.b).toBeNull();
    expect(by.z!.a).toBeNull();
    expect(by.y!.stateChanged).toBe(true);
    expect(by.y!).toMatchObject({ a: { state: 'completed' }, b: { state: 'failed' } });
    expect(by.w!.answerChanged).toBe(true);
    expect(by.w!.decisionsDiffer).toBe(true);
    expect(by.w!.a!.decisions).toEqual(['confirm_scope: approved by the policy']);
    expect(by.w!.b!.decisions).toEqual(['confirm_scope: declined by the policy']);
    expect(by.y!.a!.decisions).toEqual(['ask_choice: chose b by the policy']);
    expect(by.y!.questionChanged).toBe(true);
    expect(by.v!.questionChanged).toBe(false);
    expect(by.w!.filesAdded).toEqual(['table.csv']);
    expect(by.w!.filesGone).toEqual(['report.md']);
    expect(by.w!.diff!.some((l) => l.op === '+' && l.text.includes('Narrow answer'))).toBe(true);
  });

  it('compareSummary counts at the top and lists only the items that differ', async () => {
    const s = await compareSummary(store, a, b);
    expect(s.counts).toEqual({ both: 3, onlyA: 1, onlyB: 1, same: 1, stateChanged: 1, questionChanged: 2, answerChanged: 2, decisionsDiffer: 2, filesChanged: 1 });
    expect(s.changed.map((c) => c.id)).toEqual(['w', 'x', 'y', 'z']);
    expect(s.more).toBe(false);
    const capped = await compareSummary(store, a, b, 2);
    expect(capped.changed.map((c) => c.id)).toEqual(['w', 'x']);
    expect(capped.more).toBe(true);
  });

  it('compareSides counts repeated file names as a multiset', () => {
    const side = (files: string[]) => ({ state: 'completed', runStatus: 'completed', question: 'q', text: 't', decisions: [], files });
    const c = compareSides('i', side(['f.md', 'f.md', 'g.png']), side(['f.md', 'h.csv']));
    expect(c.filesGone).toEqual(['f.md', 'g.png']);
    expect(c.filesAdded).toEqual(['h.csv']);
    expect(c.answerChanged).toBe(false);
    expect(c.diff).toBeNull();
  });
});
