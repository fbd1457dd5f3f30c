import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { readItemView } from '../../src/read/item-view.js';
import { answerWaiting } from '../support/answer-waiting.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore, type BatchRecord, type Store } from '../../src/store/index.js';
import { tempDir } from '../support/cli.js';
import { runCsvBatch } from '../support/two-batches.js';

describe('readItemView: one item in full', () => {
  let sim: Sim;
  let store: Store;
  let batch: BatchRecord;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
    const dir = tempDir();
    store = await openStore(join(dir, 'r.db'));
    batch = await runCsvBatch(sim, store, dir, 'iv', 'id,question\nroute,"Route @confirm=3 @choice"\nplain,Plain @files=csv\n', { confirm_scope: { approve_max_cost: 10 } });
  });
  afterAll(async () => {
    await store?.close();
    await sim?.close();
  });

  it('the chain of runs, each pause with who decided it, a held pause waiting for a person', async () => {
    const v = await readItemView(store, batch, 'route', { nowMs: Date.parse('2030-01-01T00:00:00Z') });
    expect(v.item).toMatchObject({ id: 'route', state: 'held' });
    expect(v.runs.map((r) => [r.step, r.pausedOn])).toEqual([
      [0, 'confirm_scope'],
      [1, 'ask_choice'],
    ]);
    expect(v.pauses.map((p) => [p.tool, p.decision?.words ?? null, p.decision?.by ?? null, p.waiting])).toEqual([
      ['confirm_scope', 'approved', 'policy', null],
      ['ask_choice', null, null, 'person'],
    ]);
    expect(v.next).toBeNull();
  });

  it('answered with no worker running: waiting to be sent, and the command that sends it', async () => {
    await answerWaiting(store, batch, 'route', { kind: 'choose', ids: ['a'], note: 'cheapest' }, { person: 'Ana' });
    const v = await readItemView(store, batch, 'route', { nowMs: Date.parse('2030-01-01T00:00:00Z') });
    expect(v.pauses[1]).toMatchObject({ waiting: 'send', decision: { by: 'person', person: 'Ana', note: 'cheapest', words: 'chose a' } });
    expect(v.next).toEqual({ why: 'no-worker', text: 'no worker running: resq resume iv', command: 'resq resume iv' });
  });

  it('files, and a clear error naming a few items for one the batch does not have', async () => {
    const v = await readItemView(store, batch, 'plain', { nowMs: 0 });
    expect(v.files.map((f) => f.name)).toEqual([expect.stringMatching(/\.csv$/)]);
    expect(v.next).toBeNull();
    await expect(readItemView(store, batch, 'nope', { nowMs: 0 })).rejects.toThrow(InputError);
    await expect(readItemView(store, batch, 'nope', { nowMs: 0 })).rejects.toThrow('batch "iv" has no item "nope"; its items include route, plain');
  });
});
