import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/api/index.js';
import { InputError } from '../../src/errors.js';
import { defaultModelBatchName, openModelBatch } from '../../src/models/load-model-batch.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { freshStore, settings, simClient, writeInput } from './support/helpers.js';

describe('openModelBatch', () => {
  let sim: Sim;
  let client: ServiceClient;
  beforeAll(async () => {
    sim = await startSim();
    client = simClient(sim);
  });
  afterAll(async () => {
    await client.close();
    await sim.close();
  });
  const posts = () => sim.counters().requestsByRoute['POST /models/:id/runs'] ?? 0;

  it('records the batch, its model and every row in one go, sending nothing', async () => {
    const { store, dir } = freshStore();
    const file = writeInput(dir, 'mols.csv', 'id,smiles,weights,meta.source\nx,CCO,"{""C"":12}",lab\ny,CC,,\n');
    const p0 = posts();
    const { batch, resumed } = await openModelBatch({ store, client, modelId: 'descriptors', file, settings: settings(2), mode: 'sync', baseUrl: null });
    expect(resumed).toBe(false);
    expect(batch).toMatchObject({ name: 'descriptors-mols', kind: 'models', totalItems: 2 });
    expect((await store.modelBatch(batch.id))).toMatchObject({ modelId: 'descriptors', mode: 'sync', description: { id: 'descriptors', version: 'sim-1' } });
    expect((await store.modelRun(batch.id, 'x'))).toMatchObject({ inputs: { smiles: 'CCO', weights: { C: 12 } }, idempotencyKey: null, status: null });
    expect((await store.getItem(batch.id, 'x'))).toMatchObject({ state: 'queued', line: 2, meta: { source: 'lab' } });
    expect(posts()).toBe(p0);
    await store.close();
  });

  it('refuses a file with any bad row: nothing recorded, nothing sent, every problem listed', async () => {
    const { store, dir } = freshStore();
    const file = writeInput(dir, 'bad.csv', 'sequence,recycles\nMKV,two\n,3\nAAA,1\n');
    const p0 = posts();
    const err = await openModelBatch({ store, client, modelId: 'fold', file, settings: settings(2), mode: null, baseUrl: null }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toBe(`${file}:2: recycles: expected an integer, got "two"\n${file}:3: sequence: required input missing (string)`);
    expect((await store.listBatches())).toEqual([]);
    expect(posts()).toBe(p0);
    await store.close();
  });

  it('finds the batch again by name, and refuses a changed file, another model, or an agent batch', async () => {
    const { store, dir } = freshStore();
    const file = writeInput(dir, 'seqs.jsonl', '{"sequence":"MKV"}\n');
    const o = { store, client, modelId: 'fold', file, settings: settings(2), mode: null, baseUrl: null } as const;
    const first = await openModelBatch(o);
    const again = await openModelBatch({ ...o, mode: 'async' });
    expect(again).toMatchObject({ resumed: true, batch: { id: first.batch.id } });
    expect((await store.modelBatch(first.batch.id))?.mode).toBe('async');
    await expect(openModelBatch({ ...o, modelId: 'echo', name: 'fold-seqs' })).rejects.toThrow('runs model fold, not echo');
    writeFileSync(file, '{"sequence":"MKVL"}\n');
    await expect(openModelBatch(o)).rejects.toThrow(/changed since batch "fold-seqs"/);
    await (await store.beginBatchLoad({ id: 'agent', name: 'agent', kind: 'runs', sourcePath: file, sourceSha256: 'x', baseUrl: null, settings: settings(1), policy: null })).commit([]);
    await expect(openModelBatch({ ...o, name: 'agent' })).rejects.toThrow('batch of agent runs');
    await store.close();
  });

  it('names batches after the model and the file', () => {
    expect(defaultModelBatchName('fold', '/x/proteins.v2.csv')).toBe('fold-proteins.v2');
  });
});
