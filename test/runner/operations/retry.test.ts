import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors.js';
import { BatchRunner, loadBatch } from '../../../src/runner/index.js';
import { retryItems, retrySelection, retryStates } from '../../../src/runner/operations/retry.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore } from '../../../src/store/index.js';
import { tempDir } from '../../support/cli.js';
import { testClient, testSettings } from '../../support/in-process.js';

describe('retryStates', () => {
  it('takes the states flagged, else every finished state for named items, else failed and errored', () => {
    expect(retryStates({})).toEqual(['failed', 'error']);
    expect(retryStates({ failed: true })).toEqual(['failed']);
    expect(retryStates({ errored: true, cancelled: true })).toEqual(['error', 'cancelled']);
    expect(retryStates({ items: ['a'] })).toEqual(['completed', 'failed', 'error', 'cancelled']);
    expect(retryStates({ items: ['a'], failed: true })).toEqual(['failed']);
  });
});

describe('retrySelection: one selection for the page and resq retry', () => {
  it('the states asked for, else failed and errored, or the named items whatever they ended in', () => {
    expect(retryStates(retrySelection({}))).toEqual(['failed', 'error']);
    expect(retryStates(retrySelection({ states: ['cancelled'] }))).toEqual(['cancelled']);
    expect(retryStates(retrySelection({ items: ['a'] }))).toEqual(['completed', 'failed', 'error', 'cancelled']);
    expect(retryStates(retrySelection({ states: ['failed'], items: ['a'] }))).toEqual(['failed']);
    expect(retrySelection({ items: [] })).toEqual({});
  });
});

describe('retryItems', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
  });
  afterAll(async () => sim.close());

  it('queues failed items again as a new attempt, runs them to their end, and keeps the earlier run in the history', async () => {
    const dir = tempDir();
    const questions = join(dir, 'q.csv');
    writeFileSync(questions, 'id,question\nok,plain\nbad,doomed @fail\n');
    const store = await openStore(join(dir, 'resq.db'));
    const { batch } = await loadBatch({ store, questions, settings: testSettings(2), policy: null, baseUrl: sim.url });
    const client = testClient(sim);
    await new BatchRunner({ store, client, batch, policy: null }).run();
    expect(await retryItems(store, batch)).toEqual({ batch: batch.name, moved: ['bad'] });
    expect(await store.getItem(batch.id, 'bad')).toMatchObject({ state: 'queued', attempt: 1 });
    await new BatchRunner({ store, client, batch, policy: null }).run();
    expect((await store.runChain(batch.id, 'bad')).length).toBe(2);
    // Named items of any finished state; a name the batch lacks refuses the whole retry.
    await expect(retryItems(store, batch, { items: ['ok', 'zz', 'yy'] })).rejects.toThrow(new InputError(`batch "${batch.name}" has no item "zz", "yy"`));
    expect((await store.getItem(batch.id, 'ok'))?.state).toBe('completed');
    expect((await retryItems(store, batch, { items: ['ok'] })).moved).toEqual(['ok']);
    await client.close();
    await store.close();
  });
});
