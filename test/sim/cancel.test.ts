import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { BOB, call, createRun, finish } from './helpers.js';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ defaultDurationMs: 20 });
});
afterAll(() => sim.close());

describe('POST /runs/{id}/cancel', () => {
  it('moves a running run to cancelling, then cancelled, and stops its work', async () => {
    const run = await createRun(sim, 'long one @duration=5s');
    const r = await call(sim, 'POST', `/runs/${run.id}/cancel`, { body: {} });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: run.id, status: 'cancelling' });
    const again = await call(sim, 'POST', `/runs/${run.id}/cancel`, { body: {} });
    expect(again.body.status).toBe('cancelling');
    const done = await finish(sim, run.id);
    expect(done.status).toBe('cancelled');
    const read = await call(sim, 'GET', `/runs/${run.id}`);
    expect(read.body.status).toBe('cancelled');
    // The thread is free again: a new run on it is admitted.
    const next = await call(sim, 'POST', '/runs', { body: { input: 'next', thread_id: run.thread_id } });
    expect(next.status).toBe(200);
  });

  it('answers 409 run_finished for a finished run and 404 for another account\'s run', async () => {
    const run = await createRun(sim, 'short');
    await finish(sim, run.id);
    const r = await call(sim, 'POST', `/runs/${run.id}/cancel`, { body: {} });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('run_finished');
    const other = await createRun(sim, 'bob cannot cancel this @duration=2s');
    expect((await call(sim, 'POST', `/runs/${other.id}/cancel`, { key: BOB, body: {} })).status).toBe(404);
  });
});
