import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportRows, type ExportRow } from '../../src/runner/index.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { expectedFiles, fixtureItems, type FixtureItem } from '../support/batch-fixture.js';
import { expectBatchWhole } from '../support/expect-batch.js';
import { runFixture } from '../support/in-process.js';
import type { Store } from '../../src/store/index.js';

function faultsInjected(sim: Sim): number {
  return Object.values(sim.counters().faultsInjected).reduce((a, b) => a + b, 0);
}

async function checkOutcome(sim: Sim, store: Store, batchId: string, items: FixtureItem[]): Promise<void> {
  const c = sim.counters();
  expect(c.runsAdmitted).toBe(items.length);
  for (const it of items) expect(c.admissionsByInput[it.question], it.id).toBe(1);
  expect(c.respondRuns).toBe(items.reduce((n, it) => n + it.pauses, 0));
  // Downloads are on: every file was asked for at least once.
  expect(c.requestsByRoute['GET /files/:id'] ?? 0).toBeGreaterThanOrEqual(items.reduce((n, it) => n + expectedFiles(it), 0));
  const batch = await store.findBatch(batchId);
  if (!batch) throw new Error('no batch');
  const rows: ExportRow[] = [];
  for await (const r of exportRows(store, batch)) rows.push(r);
  expectBatchWhole(rows, items, sim.ledger());
}

// Fault suite: the same batch through every kind of fault the simulator injects (GET /files
// included: downloads are on) must end exactly as it does on a clean service, checked against
// the simulator's own record: each question admitted once, its run ids the simulator's chain,
// every file on disk with the bytes the simulator serves.
describe('faults', () => {
  let sim: Sim;
  beforeEach(async () => {
    sim = await startSim({ defaultDurationMs: 60, seed: 3 });
  });
  afterEach(async () => sim.close());

  it('gives the clean result on a clean service', async () => {
    const items = fixtureItems('60ms', 2);
    const { store, result, batchId } = await runFixture(sim, items);
    expect(result).toMatchObject({ interrupted: false, stalled: 0, fatal: null });
    await checkOutcome(sim, store, batchId, items);
    await store.close();
  });

  it('gives the same result through 5xx before and after side effects', async () => {
    sim.faults.set({ error5xxBefore: 0.1, error5xxAfter: 0.1 });
    const items = fixtureItems('60ms', 2);
    const { store, result, batchId } = await runFixture(sim, items);
    expect(result.stalled).toBe(0);
    expect(faultsInjected(sim)).toBeGreaterThan(0);
    await checkOutcome(sim, store, batchId, items);
    await store.close();
  });

  it('gives the same result through dropped connections', async () => {
    sim.faults.set({ dropBefore: 0.08, dropAfter: 0.08 });
    const items = fixtureItems('60ms', 2);
    const { store, result, batchId } = await runFixture(sim, items);
    expect(result.stalled).toBe(0);
    expect(faultsInjected(sim)).toBeGreaterThan(0);
    await checkOutcome(sim, store, batchId, items);
    await store.close();
  });

  it('gives the same result through 429s with Retry-After', async () => {
    sim.faults.set({ rate429: 0.2, retryAfterSeconds: 0 });
    const items = fixtureItems('60ms', 2);
    const { store, result, batchId } = await runFixture(sim, items);
    expect(result.stalled).toBe(0);
    expect(faultsInjected(sim)).toBeGreaterThan(0);
    await checkOutcome(sim, store, batchId, items);
    await store.close();
  });

  it('gives the same result when event streams end after a few events', async () => {
    sim.faults.set({ sseEndAfterEvents: 2 });
    const items = fixtureItems('60ms', 2);
    const { store, result, batchId } = await runFixture(sim, items);
    expect(result.stalled).toBe(0);
    expect(faultsInjected(sim)).toBeGreaterThan(0);
    await checkOutcome(sim, store, batchId, items);
    expect(sim.counters().requestsByRoute['GET /runs/:id/events']).toBeGreaterThan(items.length * 2);
    await store.close();
  });

  it('gives the same result with everything at once, followed by polling', async () => {
    sim.faults.set({ error5xxBefore: 0.05, error5xxAfter: 0.05, dropBefore: 0.03, dropAfter: 0.03, rate429: 0.05, retryAfterSeconds: 0, sseEndAfterEvents: 3 });
    const items = fixtureItems('60ms', 2);
    const { store, result, batchId } = await runFixture(sim, items, { follow: 'poll' });
    expect(result.stalled).toBe(0);
    expect(faultsInjected(sim)).toBeGreaterThan(0);
    await checkOutcome(sim, store, batchId, items);
    await store.close();
  });

  it('lowers the in-flight cap when the service says too many runs', async () => {
    await sim.close();
    sim = await startSim({ defaultDurationMs: 80, maxRunningPerAccount: 3 });
    const caps: number[] = [];
    const items = fixtureItems('80ms', 2);
    const { store, result, batchId } = await runFixture(sim, items, {
      concurrency: 12,
      onEvent: (e) => {
        if (e.type === 'cap') caps.push(e.cap);
      },
    });
    expect(result.stalled).toBe(0);
    expect(sim.counters().peakConcurrentRuns.alice).toBeLessThanOrEqual(3);
    expect(caps.length).toBeGreaterThan(0);
    expect(Math.min(...caps)).toBeLessThan(12);
    await checkOutcome(sim, store, batchId, items);
    await store.close();
  });
});
