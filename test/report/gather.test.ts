import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatherReport } from '../../src/report/index.js';
import { answerHeldItem } from '../../src/runner/operations/answer.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore, type BatchRecord, type Store } from '../../src/store/index.js';
import { tempDir } from '../support/cli.js';
import { runCsvBatch } from '../support/two-batches.js';

describe('gatherReport (a real batch against the simulator)', () => {
  let sim: Sim;
  let store: Store;
  let batch: BatchRecord;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 5 });
    const dir = tempDir('resq-report-gather-');
    store = await openStore(join(dir, 'resq.db'));
    const csv = 'id,question\np1,plan one @confirm=3\np2,plan two @confirm=4\np3,plan three @confirm=50\nd1,doomed @fail\nd2,doomed too @fail\nok,plain\n';
    batch = await runCsvBatch(sim, store, dir, 'mixed', csv, { confirm_scope: { approve_max_cost: 10, otherwise: 'hold' } });
    const held = (await store.getItem(batch.id, 'p3'))!;
    await answerHeldItem(store, batch, 'p3', { kind: 'decline' }, { person: 'ana', runId: held.runId! });
    const v = (scorer: string, pass: boolean | null) => ({ scorer, version: 'v1', pass, score: null, reason: '', scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes' });
    await store.recordVerdicts(batch.id, 'p1', [v('mentions', true), v('exact', false)]);
    await store.recordVerdicts(batch.id, 'p2', [v('mentions', true), v('exact', null)]);
    await store.recordVerdicts(batch.id, 'ok', [v('mentions', false)]);
    // A verdict on an item that did not complete counts in no pass rate (its scorer still gets a column).
    await store.recordVerdicts(batch.id, 'd1', [v('late', true)]);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await sim?.close();
  });

  it('counts, cost, failures by code, decisions by who made them, and pass rates over the completed items', async () => {
    const s = await gatherReport(store, batch, { pageSize: 2 });
    expect(s.items).toBe(6);
    expect(s.counts).toMatchObject({ completed: 3, failed: 2 });
    expect(s.approvedCost).toBe(7);
    expect(s.failures).toEqual([{ code: 'agent_error', count: 2 }]);
    expect(s.decisions).toEqual([
      { tool: 'confirm_scope', words: 'approved', decider: 'the policy', count: 2 },
      { tool: 'confirm_scope', words: 'declined', decider: 'ana', count: 1 },
    ]);
    expect(s.scorers).toEqual(['exact', 'late', 'mentions']);
    const rate = (name: string) => s.passRates.find((r) => r.scorer === name)!;
    expect(rate('mentions')).toMatchObject({ passed: 2, failed: 1, unscored: 0, rate: 2 / 3 });
    expect(rate('mentions').interval!.low).toBeCloseTo(0.2077, 3);
    expect(rate('exact')).toMatchObject({ passed: 0, failed: 1, unscored: 2, rate: 0 });
    expect(s.passRates.map((r) => r.scorer)).toEqual(['exact', 'mentions']);
    expect(s.compare).toBeNull();
  });
});
