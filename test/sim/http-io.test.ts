import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { call } from './helpers.js';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ defaultDurationMs: 10 });
});
afterAll(() => sim.close());

describe('request bodies', () => {
  it('answers 413 payload_too_large to a body over 1 MiB, and the connection serves on', async () => {
    const r = await call(sim, 'POST', '/runs', { body: { input: 'x'.repeat(1_200_000) } });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('payload_too_large');
    expect((await call(sim, 'GET', '/threads')).status).toBe(200);
  });

  it('answers 400 to a body that is not JSON, and reads an empty body as none', async () => {
    const bad = await fetch(`${sim.url}/runs`, { method: 'POST', headers: { authorization: 'Bearer sim-key-alice', 'content-type': 'application/json' }, body: '{nope' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.code).toBe('invalid_request');
    const empty = await call(sim, 'POST', '/runs', {});
    expect(empty.status).toBe(400);
  });
});
