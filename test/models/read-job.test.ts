import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/api/index.js';
import { systemClock } from '../../src/clock.js';
import { PollPlan } from '../../src/models/poll-plan.js';
import { readJob } from '../../src/models/read-job.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { virtualClock } from '../support/virtual-clock.js';
import { FAST_POLL, simClient } from './support/helpers.js';

describe('readJob against the simulator', () => {
  let sim: Sim;
  let client: ServiceClient;
  beforeAll(async () => {
    sim = await startSim({ modelJobMs: 120 });
    client = simClient(sim);
  });
  afterEach(() => sim.faults.clear());
  afterAll(async () => {
    await client.close();
    await sim.close();
  });

  const start = async () => (await client.runModel('fold', { inputs: { sequence: 'MKV' } })).run;
  const base = (plan = new PollPlan(FAST_POLL)) => ({ client, plan, signal: new AbortController().signal, maxFailures: 3, clock: systemClock });

  it('reads on its poll URL until the job finishes, and teaches the plan its length', async () => {
    const run = await start();
    const plan = new PollPlan(FAST_POLL);
    // Its own clock, moved by its sleeps: the length it learns is the one that clock measured.
    const clock = virtualClock();
    const admittedAt = clock.now();
    const r = await readJob({ ...base(plan), clock, id: run.id, pollUrl: run.poll_url, admittedAt });
    expect(r).toMatchObject({ kind: 'finished', run: { status: 'succeeded', credits: 11 } });
    expect(r.reads).toBeGreaterThan(0);
    expect(clock.now()).toBeGreaterThan(admittedAt);
    expect(plan.estimateMs).toBe(clock.now() - admittedAt);
  });

  it('says gone for a run the service does not know', async () => {
    const r = await readJob({ ...base(), id: 'mrun_nope', pollUrl: null, admittedAt: null });
    expect(r).toMatchObject({ kind: 'gone', reads: 0, message: expect.stringContaining('model run mrun_nope is not known') });
  });

  it('tries failing reads again, then gives up for now', async () => {
    const run = await start();
    sim.faults.set({ error5xxBefore: 1, routes: ['GET /model-runs/:id'] });
    const r = await readJob({ ...base(), id: run.id, pollUrl: null, admittedAt: null });
    expect(r).toMatchObject({ kind: 'unreadable', reads: 0, message: expect.stringContaining('could not be read') });
  });

  it('stops when its signal aborts, leaving the job to the service', async () => {
    const run = await start();
    const stop = new AbortController();
    const pending = readJob({ ...base(new PollPlan({ minFirstMs: 5000, intervalMs: 5000 })), signal: stop.signal, id: run.id, pollUrl: null, admittedAt: Date.now() });
    stop.abort();
    expect(await pending).toEqual({ kind: 'stopped', reads: 0 });
  });

  it('reads by id when the poll URL is on another origin (the key stays home)', async () => {
    const run = await start();
    const r = await readJob({ ...base(), id: run.id, pollUrl: 'https://elsewhere.example/api/v1/model-runs/x', admittedAt: null });
    expect(r.kind).toBe('finished');
  });
});
