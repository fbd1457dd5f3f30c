import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthError } from '../../src/api/index.js';
import { loadPolicyFile } from '../../src/config/index.js';
import { runBatchSession, type SessionEvent, type SessionPlan } from '../../src/runner/session.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore, type BatchSettings } from '../../src/store/index.js';
import { fixtureItems, writeFixture } from '../support/batch-fixture.js';
import { tempDir } from '../support/cli.js';
import { testClient } from '../support/in-process.js';

function settings(out: string, concurrency = 8): BatchSettings {
  return { concurrency, follow: 'sse', download: { enabled: true, concurrency: 2, out }, pipelineFile: null, service: 'url' };
}

describe('runBatchSession', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
  });
  beforeEach(() => sim.faults.clear());
  afterAll(async () => sim.close());

  it('runs a whole batch with pauses, files and a 429 storm: cap lowered, files on disk, the summary returned — no CLI', async () => {
    const dir = tempDir();
    const { questions, policy: policyFile } = writeFixture(dir, fixtureItems('20ms', 3));
    const store = await openStore(join(dir, 'resq.db'));
    const client = testClient(sim, { retry: { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 30 } });
    sim.faults.set({ rate429: 0.3, retryAfterSeconds: 0, routes: ['POST /runs'] });
    const events: SessionEvent[] = [];
    const policy = await loadPolicyFile(policyFile);
    const r = await runBatchSession({
      store,
      source: { questions, name: 'storm', settings: settings(join(dir, 'out')), policy, baseUrl: sim.url },
      service: client,
      retryLaterMs: [10, 20, 40],
      onEvent: (e) => events.push(e),
    });
    expect(r.existed).toBe(false);
    expect(r.run).toMatchObject({ interrupted: false, fatal: null, stalled: 0 });
    expect(r.status.counts).toMatchObject({ completed: 27, failed: 3, held: 0, queued: 0 });
    expect(events.some((e) => e.type === 'cap' && /429/.test(e.reason))).toBe(true);
    expect(r.files?.downloaded).toBeGreaterThan(0);
    expect(r.files?.problems).toEqual([]);
    expect(r.status.files.pending).toBe(0);
    const [file] = await store.filesForBatch(r.batch.id, ['downloaded']);
    expect(file?.path && existsSync(file.path)).toBe(true);
    expect(file?.path?.startsWith(join(dir, 'out'))).toBe(true);
    await client.close();
    await store.close();
  });

  it('a refused key leaves nothing behind: no batch recorded, no settings changed', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'q.csv'), 'id,question\na,one\n');
    const store = await openStore(join(dir, 'resq.db'));
    const bad = testClient(sim, { apiKey: 'not-a-key' });
    const plans: SessionPlan[] = [];
    const source = { questions: join(dir, 'q.csv'), settings: settings(join(dir, 'out')), policy: null, baseUrl: sim.url };
    const refused = runBatchSession({
      store,
      source,
      service: async (plan) => {
        plans.push(plan);
        return { client: bad, check: async () => void (await bad.listThreads()) };
      },
    });
    await expect(refused).rejects.toThrow(AuthError);
    expect(plans).toEqual([{ batch: null, name: 'q', settings: source.settings, baseUrl: sim.url }]);
    expect(await store.listBatches()).toEqual([]);

    // A dry run asks the service nothing and records the batch; a later refused run changes none of its settings.
    const dry = await runBatchSession({ store, source, service: () => Promise.reject(new Error('not called')), dryRun: true });
    expect(dry).toMatchObject({ run: null, files: null, existed: false });
    const again = runBatchSession({
      store,
      batch: 'q',
      overrides: { concurrency: 3 },
      service: async () => ({ client: bad, check: async () => void (await bad.listThreads()) }),
    });
    await expect(again).rejects.toThrow(AuthError);
    expect((await store.findBatch('q'))?.settings.concurrency).toBe(8);
    await bad.close();
    await store.close();
  });

  it('records overrides once the run got going, keeps a worker\'s own out folder off the batch, and stops on an AbortSignal', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'q.csv'), `id,question\n${Array.from({ length: 4 }, (_, i) => `s${i},slow ${i} @duration=5s @files=md`).join('\n')}\n`);
    const store = await openStore(join(dir, 'resq.db'));
    const client = testClient(sim);
    const source = { questions: join(dir, 'q.csv'), settings: settings(join(dir, 'out'), 2), policy: null, baseUrl: sim.url };
    await runBatchSession({ store, source, service: client, dryRun: true });
    const stop = new AbortController();
    const notices: string[] = [];
    const r = await runBatchSession({
      store,
      source,
      overrides: { concurrency: 4 },
      out: join(dir, 'mine'),
      service: client,
      signal: stop.signal,
      onEvent: (e) => {
        if (e.type === 'notice') notices.push(e.message);
        if (e.type === 'item' && e.state === 'running') stop.abort();
      },
    });
    expect(r.existed).toBe(true);
    expect(r.changes).toEqual(['concurrency: 2 → 4']);
    expect(notices).toEqual(['resuming batch q (4 items)', 'concurrency: 2 → 4']);
    expect(r.run?.interrupted).toBe(true);
    const stored = await store.findBatch('q');
    expect(stored?.settings).toMatchObject({ concurrency: 4, download: { out: join(dir, 'out') } });
    await client.close();
    await store.close();
  });
});
