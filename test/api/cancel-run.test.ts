import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CancelUnsupportedError, ServiceClient } from '../../src/api/index.js';
import { InputError } from '../../src/errors.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { sendJson, startTestServer, type TestServer } from './helpers/test-server.js';

describe('ServiceClient.cancelRun', () => {
  let sim: Sim;
  let client: ServiceClient;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
    client = new ServiceClient({ baseUrl: sim.url, apiKey: sim.keys[0] ?? '' });
  });
  afterAll(async () => {
    await client.close();
    await sim.close();
  });

  it('cancels a running run on the simulator: cancelling, then cancelled', async () => {
    const run = await client.createRun({ input: 'cancel me @duration=5s' }, { idempotencyKey: 'cancel-test-1' });
    const r = await client.cancelRun(run.id);
    expect(r.status).toBe('cancelling');
    const done = await client.followRun(run.id);
    expect(done.status).toBe('cancelled');
  });

  it('refuses a route template without {id}', async () => {
    await expect(client.cancelRun('x', { route: '/runs/cancel' })).rejects.toBeInstanceOf(InputError);
  });

  describe('on a service without that route', () => {
    let server: TestServer;
    let plain: ServiceClient;
    beforeAll(async () => {
      server = await startTestServer((req, res) => {
        if (req.url?.endsWith('/stop')) return sendJson(res, 200, { id: 'r1', status: 'cancelling', thread_id: 't' });
        sendJson(res, req.url?.includes('/cancel') ? 405 : 404, { error: { code: 'nope', message: 'no such route' } });
      });
      plain = new ServiceClient({ baseUrl: server.baseUrl, apiKey: 'k', retry: { maxAttempts: 1 } });
    });
    afterAll(async () => {
      await plain?.close();
      await server.close();
    });

    it('says plainly that the service does not support cancelling (405)', async () => {
      const err = await plain.cancelRun('r1').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CancelUnsupportedError);
      expect((err as CancelUnsupportedError).message).toMatch(/does not support cancelling runs at POST \/runs\/\{id\}\/cancel \(HTTP 405\)/);
    });

    it('uses a configured route template', async () => {
      expect((await plain.cancelRun('r1', { route: '/runs/{id}/stop' })).status).toBe('cancelling');
      expect(server.requests.at(-1)).toMatchObject({ method: 'POST', url: expect.stringContaining('/api/v1/runs/r1/stop') });
      const err = await plain.cancelRun('r1', { route: '/jobs/{id}' }).catch((e: unknown) => e);
      expect((err as CancelUnsupportedError).status).toBe(404);
    });
  });
});
