import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, ServiceClient } from '../../src/api/index.js';
import type { ModelBatchEvent } from '../../src/models/index.js';
import { runModelSession } from '../../src/models/model-session.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { freshStore, settings, simClient, writeInput } from './support/helpers.js';

describe('runModelSession', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ modelJobMs: 50 });
  });
  afterAll(async () => sim.close());

  it('records a models batch, runs it to the end, writes the results file; run again it resumes and sends nothing', async () => {
    const { store, dir } = freshStore();
    const file = writeInput(dir, 'e.csv', 'id,text\nr1,hello\nr2,world\n');
    const client = simClient(sim);
    const output = join(dir, 'results.jsonl');
    const opened: boolean[] = [];
    const events: ModelBatchEvent['type'][] = [];
    const o = { store, service: client, modelId: 'echo', file, settings: settings(2), mode: null, output, onOpened: (_: unknown, resumed: boolean) => opened.push(resumed) };
    const r = await runModelSession({ ...o, onEvent: (e) => events.push(e.type as ModelBatchEvent['type']) });
    expect(r).toMatchObject({ resumed: false, run: { interrupted: false, fatal: null }, status: { counts: { completed: 2 } } });
    expect(r.batch.name).toBe('echo-e');
    expect(events[0]).toBe('start');
    expect(events.at(-1)).toBe('end');
    const rows = readFileSync(output, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; status: string });
    expect(rows.map((x) => [x.id, x.status])).toEqual([['r1', 'succeeded'], ['r2', 'succeeded']]);
    const before = sim.counters().modelRunsAdmitted;
    expect((await runModelSession(o)).resumed).toBe(true);
    expect(sim.counters().modelRunsAdmitted).toBe(before);
    expect(opened).toEqual([false, true]);
    await client.close();
    await store.close();
  });

  it('a refused key records nothing', async () => {
    const { store, dir } = freshStore();
    const file = writeInput(dir, 'e.csv', 'id,text\nr1,hello\n');
    const bad = new ServiceClient({ baseUrl: sim.url, apiKey: 'nope' });
    const r = runModelSession({ store, service: async () => ({ client: bad, check: async () => void (await bad.listThreads()) }), modelId: 'echo', file, settings: settings(2), mode: null });
    await expect(r).rejects.toThrow(AuthError);
    expect(await store.listBatches()).toEqual([]);
    await bad.close();
    await store.close();
  });
});
