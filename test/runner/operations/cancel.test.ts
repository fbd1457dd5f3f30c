import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchRunner, loadBatch } from '../../../src/runner/index.js';
import { cancelBatch } from '../../../src/runner/operations/cancel.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore } from '../../../src/store/index.js';
import { tempDir } from '../../support/cli.js';
import { testClient, testSettings } from '../../support/in-process.js';

describe('cancelBatch', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
  });
  afterAll(async () => sim.close());

  /** Five long questions; a worker sends two and leaves them in flight (its leases end as it leaves). */
  async function twoInFlight(tag: string) {
    const dir = tempDir();
    const questions = join(dir, 'q.csv');
    writeFileSync(questions, `id,question\n${Array.from({ length: 5 }, (_, i) => `c${i},Long ${tag} ${i} @duration=20s`).join('\n')}\n`);
    const store = await openStore(join(dir, 'resq.db'));
    const { batch } = await loadBatch({ store, questions, settings: testSettings(2, 'poll'), policy: null, baseUrl: sim.url });
    const client = testClient(sim);
    let running = 0;
    const runner = new BatchRunner({
      store,
      client,
      batch,
      policy: null,
      onEvent: (e) => {
        if (e.type === 'item' && e.state === 'running' && ++running === 2) runner.stop();
      },
    });
    expect((await runner.run()).interrupted).toBe(true);
    return { store, batch, client };
  }

  it('ends queued items, cancels the runs in flight at the service and ends items no live worker holds', async () => {
    const { store, batch, client } = await twoInFlight(`a${process.pid}`);
    let closed = 0;
    const report = await cancelBatch(store, batch, { connect: async () => ({ client, close: async () => void closed++ }) });
    expect(report).toMatchObject({ batch: batch.name, queued: 3, left: [], reason: null });
    expect(report.cancelled).toHaveLength(2);
    expect(closed).toBe(1);
    for (const id of report.cancelled) expect(['cancelling', 'cancelled']).toContain((await client.getRun(id)).status);
    expect(await store.itemCounts(batch.id)).toMatchObject({ cancelled: 5, queued: 0, running: 0 });
    await client.close();
    await store.close();
  });

  it('opens no service when nothing is in flight', async () => {
    const dir = tempDir();
    const questions = join(dir, 'q.csv');
    writeFileSync(questions, 'id,question\na,one\nb,two\n');
    const store = await openStore(join(dir, 'resq.db'));
    const { batch } = await loadBatch({ store, questions, settings: testSettings(2), policy: null, baseUrl: sim.url });
    const report = await cancelBatch(store, batch, { connect: () => Promise.reject(new Error('must not connect')) });
    expect(report).toEqual({ batch: batch.name, queued: 2, cancelled: [], left: [], reason: null });
    await store.close();
  });

  it('leaves runs to finish when the service has no cancel route, or no service is given, and says why', async () => {
    const { store, batch, client } = await twoInFlight(`b${process.pid}`);
    const unsupported = await cancelBatch(store, batch, { connect: async () => ({ client, close: async () => {} }), route: '/runs/{id}/stop' });
    expect(unsupported.left).toHaveLength(2);
    expect(unsupported.reason).toMatch(/does not support cancelling runs at POST \/runs\/\{id\}\/stop \(HTTP 404\)/);
    const none = await cancelBatch(store, batch);
    expect(none).toMatchObject({ queued: 0, cancelled: [], reason: 'no service to cancel them at' });
    expect(none.left).toHaveLength(2);
    expect(await store.itemCounts(batch.id)).toMatchObject({ cancelled: 3, running: 2 });
    await client.close();
    await store.close();
  });
});
