import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { call, createRun, finish } from './helpers.js';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ defaultDurationMs: 10 });
});
afterAll(() => sim.close());

async function ctl(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sim.origin}/_sim/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('/_sim control surface', () => {
  it('GET /_sim/counters gives the counters without auth', async () => {
    await finish(sim, (await createRun(sim, 'counted')).id);
    const r = await ctl('GET', 'counters');
    expect(r.status).toBe(200);
    expect(r.body).toEqual(sim.counters());
    expect(r.body.runsAdmitted).toBe(1);
    expect(r.body.admissionsByInput).toEqual({ counted: 1 });
  });

  it('POST /_sim/faults sets faults; GET reads; DELETE clears; bad fields are 400', async () => {
    const set = await ctl('POST', 'faults', { rate429: 1, routes: ['GET /threads'] });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ rate429: 1, routes: ['GET /threads'], error5xxBefore: 0 });
    expect(sim.faults.get().rate429).toBe(1);
    expect((await call(sim, 'GET', '/threads')).status).toBe(429);
    expect((await ctl('GET', 'faults')).body.rate429).toBe(1);
    expect((await ctl('DELETE', 'faults')).body.rate429).toBe(0);
    expect((await call(sim, 'GET', '/threads')).status).toBe(200);
    const bad = await ctl('POST', 'faults', { rate429: 'lots', sseEndAfterEvents: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/rate429/);
    expect(bad.body.error.message).toMatch(/sseEndAfterEvents/);
  });

  it('POST /_sim/clock moves the clock', async () => {
    const before = sim.clock.now();
    const r = await ctl('POST', 'clock', { advanceMs: 3_600_000 });
    expect(r.status).toBe(200);
    expect(Date.parse(r.body.now)).toBeGreaterThanOrEqual(before + 3_600_000);
    const run = await createRun(sim, 'in the future');
    expect(Date.parse(run.created_at)).toBeGreaterThan(Date.now() + 3_500_000);
    expect((await ctl('POST', 'clock', { advanceMs: -5 })).status).toBe(400);
    expect((await ctl('GET', 'clock')).status).toBe(200);
    await finish(sim, run.id);
  });

  it('POST /_sim/reset zeroes the counters', async () => {
    const r = await ctl('POST', 'reset');
    expect(r.status).toBe(200);
    expect(r.body.runsAdmitted).toBe(0);
    expect(sim.counters().requestsByRoute).toEqual({});
  });

  it('answers 404 for unknown controls and 405 for wrong methods', async () => {
    expect((await ctl('GET', 'nope')).status).toBe(404);
    expect((await ctl('POST', 'counters')).status).toBe(405);
  });
});
