import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { BOB, call } from './helpers.js';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ modelJobMs: 30 });
});
afterAll(() => sim.close());

async function poll(url: string): Promise<any> {
  const res = await fetch(url, { headers: { authorization: 'Bearer sim-key-alice' } });
  return res.json();
}

async function pollUntilDone(url: string): Promise<any> {
  for (;;) {
    const run = await poll(url);
    if (run.status !== 'running') return run;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('GET /models/{id}', () => {
  it('describes inputs and outputs with types', async () => {
    const r = await call(sim, 'GET', '/models/fold');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 'fold', name: expect.any(String), gpu: true, page_url: `${sim.origin}/models/fold` });
    expect(r.body.inputs).toContainEqual({ name: 'sequence', type: 'string', required: true, description: expect.any(String) });
    expect(r.body.inputs).toContainEqual(expect.objectContaining({ name: 'recycles', type: 'integer', required: false, default: 3 }));
    expect(r.body.outputs.map((o: any) => [o.name, o.type])).toEqual([['meanPlddt', 'number'], ['structure', 'file']]);
    expect(r.body.page_url.split('/').at(-1)).toBe('fold');
    const echo = await call(sim, 'GET', '/models/echo');
    expect(echo.body.gpu).toBe(false);
    expect((await call(sim, 'GET', '/models/nope')).status).toBe(404);
    expect((await call(sim, 'GET', '/models/toString')).status).toBe(404);
  });
});

describe('POST /models/{id}/runs', () => {
  it('runs a fast model inline with 200', async () => {
    const r = await call(sim, 'POST', '/models/echo/runs', { body: { inputs: { text: 'hi', repeat: 3, shout: true } } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'succeeded', outputs: { text: 'HI HI HI' }, error: null, credits: 1, poll_url: null, page_url: `${sim.origin}/models/echo` });
    const d = await call(sim, 'POST', '/models/descriptors/runs', { body: { inputs: { smiles: 'CCO' } } });
    expect(d.body.status).toBe('succeeded');
    expect(d.body.outputs.mw).toBeCloseTo(46.07 - 6 * 1.008, 0);
    expect(typeof d.body.outputs.logp).toBe('number');
  });

  it('reports a failed model run with an error string', async () => {
    const r = await call(sim, 'POST', '/models/descriptors/runs', { body: { inputs: { smiles: 'INVALID' } } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'failed', outputs: null, error: expect.stringContaining('INVALID') });
    expect(Number.isInteger(r.body.credits)).toBe(true);
  });

  it('runs a GPU model as a job: 202, poll_url, then the result with a file', async () => {
    const r = await call(sim, 'POST', '/models/fold/runs', { body: { inputs: { sequence: 'MKTAYIAKQR' } } });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ status: 'running', outputs: null, error: null, credits: null });
    expect(r.body.poll_url).toBe(`${sim.url}/model-runs/${r.body.id}`);
    const done = await pollUntilDone(r.body.poll_url);
    expect(done.status).toBe('succeeded');
    expect(Number.isInteger(done.credits)).toBe(true);
    expect(done.outputs.structure).toMatchObject({ role: 'structure', name: 'fold.pdb', url: `${sim.url}/files/${done.outputs.structure.id}` });
    const file = await fetch(done.outputs.structure.url, { headers: { authorization: 'Bearer sim-key-alice' } });
    expect(file.headers.get('content-type')).toBe('chemical/x-pdb');
    expect((await file.text()).match(/^ATOM/gm)).toHaveLength(10);
    expect((await call(sim, 'GET', `/model-runs/${r.body.id}`, { key: BOB })).status).toBe(404);
  });

  it('forces a job with mode async, and waits for a GPU job with mode sync', async () => {
    const a = await call(sim, 'POST', '/models/echo/runs', { body: { inputs: { text: 'later' }, mode: 'async' } });
    expect(a.status).toBe(202);
    expect((await pollUntilDone(a.body.poll_url)).outputs).toEqual({ text: 'later' });
    const s = await call(sim, 'POST', '/models/fold/runs', { body: { inputs: { sequence: 'ACDE' }, mode: 'sync' } });
    expect(s.status).toBe(200);
    expect(s.body.status).toBe('succeeded');
    expect(s.body.poll_url).toBeNull();
  });

  it('ends fold with failed for bad letters and cancelled for CANCEL', async () => {
    const bad = await call(sim, 'POST', '/models/fold/runs', { body: { inputs: { sequence: 'AC1' }, mode: 'sync' } });
    expect(bad.body).toMatchObject({ status: 'failed', error: expect.any(String) });
    const c = await call(sim, 'POST', '/models/fold/runs', { body: { inputs: { sequence: 'CANCEL' } } });
    expect((await pollUntilDone(c.body.poll_url)).status).toBe('cancelled');
  });

  it('validates inputs with 400 naming the input', async () => {
    const cases: [unknown, RegExp][] = [
      [{ inputs: {} }, /text/],
      [{ inputs: { text: 5 } }, /text.*string/],
      [{ inputs: { text: 'a', repeat: 1.5 } }, /repeat.*integer/],
      [{ inputs: { text: 'a', shout: 'yes' } }, /shout.*boolean/],
      [{ inputs: { text: 'a', extra: 1 } }, /extra/],
      [{ inputs: { text: 'a' }, mode: 'later' }, /mode/],
      [{}, /inputs/],
    ];
    for (const [body, msg] of cases) {
      const r = await call(sim, 'POST', '/models/echo/runs', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
      expect(r.body.error.message).toMatch(msg);
    }
    const w = await call(sim, 'POST', '/models/descriptors/runs', { body: { inputs: { smiles: 'C', weights: [] } } });
    expect(w.body.error.message).toMatch(/weights.*object/);
    const t = await call(sim, 'POST', '/models/fold/runs', { body: { inputs: { sequence: 'A', temperature: 'hot' } } });
    expect(t.body.error.message).toMatch(/temperature.*number/);
  });

  it('replays an Idempotency-Key to the same model run', async () => {
    sim.resetCounters();
    const a = await call(sim, 'POST', '/models/fold/runs', { body: { inputs: { sequence: 'AAAA' } }, headers: { 'idempotency-key': 'm-1' } });
    const b = await call(sim, 'POST', '/models/fold/runs', { body: { inputs: { sequence: 'AAAA' } }, headers: { 'idempotency-key': 'm-1' } });
    expect(b.body.id).toBe(a.body.id);
    expect(sim.counters().modelRunsAdmitted).toBe(1);
    expect(sim.counters().modelRunsByKey['m-1']).toBe(1);
    await pollUntilDone(a.body.poll_url);
    const c = await call(sim, 'POST', '/models/fold/runs', { body: { inputs: { sequence: 'AAAA' } }, headers: { 'idempotency-key': 'm-1' } });
    expect(c.status).toBe(200);
    expect(c.body.status).toBe('succeeded');
  });

  it('is 404 for an unknown model or model run', async () => {
    expect((await call(sim, 'POST', '/models/nope/runs', { body: { inputs: {} } })).status).toBe(404);
    expect((await call(sim, 'GET', '/model-runs/nope')).status).toBe(404);
  });
});
