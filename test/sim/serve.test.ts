import { describe, expect, it } from 'vitest';
import { serveSim } from '../../src/sim/index.js';

describe('serveSim', () => {
  it('serves until its signal aborts', async () => {
    const ac = new AbortController();
    const sim = await serveSim({ port: 0, signal: ac.signal });
    const ok = await fetch(`${sim.url}/threads`, { headers: { authorization: 'Bearer sim-key-alice' } });
    expect(ok.status).toBe(200);
    ac.abort();
    await sim.close();
    await expect(fetch(`${sim.url}/threads`)).rejects.toThrow();
  });
});
