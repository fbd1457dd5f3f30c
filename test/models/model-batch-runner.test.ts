import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/index.js';
import { Downloader } from '../../src/files/index.js';
import { ModelBatchRunner, type ModelBatchEvent, type ModelBatchOptions } from '../../src/models/index.js';
import { openModelBatch } from '../../src/models/load-model-batch.js';
import { DEFAULT_RETRY_LATER_MS } from '../../src/runner/scheduler.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import type { Clock } from '../../src/clock.js';
import type { Store } from '../../src/store/index.js';
import { FAST_POLL, freshStore, settings, simClient, writeInput } from './support/helpers.js';

describe('ModelBatchRunner against the simulator', () => {
  let sim: Sim;
  let client: ServiceClient;
  const stores: Store[] = [];
  beforeAll(async () => {
    sim = await startSim({ modelJobMs: 100 });
    client = simClient(sim);
  });
  afterEach(() => sim.faults.clear());
  afterAll(async () => {
    for (const s of stores) await s.close();
    await client.close();
    await sim.close();
  });

  async function load(model: string, name: string, text: string, concurrency = 4) {
    const { store, dir } = freshStore();
    stores.push(store);
    const file = writeInput(dir, name, text);
    const { batch } = await openModelBatch({ store, client, modelId: model, file, settings: settings(concurrency), mode: null, baseUrl: sim.url });
    const events: ModelBatchEvent[] = [];
    const run = (over: Partial<ModelBatchOptions> = {}) =>
      new ModelBatchRunner({ store, client, batch, poll: FAST_POLL, retryLaterMs: [10, 10, 10], onEvent: (e) => events.push(e), ...over });
    return { store, dir, batch, events, run };
  }

  function admissions(): number {
    return sim.counters().modelRunsAdmitted;
  }

  it('runs a fast model inline, keeps a failing row with its error, and sums credits', async () => {
    const { store, batch, run } = await load('descriptors', 'd.csv', 'id,smiles,include_3d\nm1,CCO,yes\nm2,INVALID,no\nm3,c1ccccc1,\n');
    const result = await run().run();
    expect(result).toMatchObject({ interrupted: false, stalled: 0, fatal: null, unknown: [], credits: { spent: 5, unreported: 0 } });
    expect(result.counts).toMatchObject({ completed: 2, failed: 1 });
    const m2 = (await store.modelRun(batch.id, 'm2'));
    expect(m2).toMatchObject({ status: 'failed', error: "could not parse SMILES 'INVALID'", httpStatus: 200, polls: 0, credits: 0 });
    expect((await store.modelRun(batch.id, 'm1'))).toMatchObject({ inputs: { smiles: 'CCO', include_3d: true }, outputs: { mw: expect.any(Number) }, credits: 3 });
    expect((await store.getItem(batch.id, 'm2'))).toMatchObject({ state: 'failed', error: "could not parse SMILES 'INVALID'" });
  });

  it('lowers the cap when the service throttles model-run creates (429), with no wiring by the caller', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => `t${i},hello ${i}`).join('\n');
    const { events, run } = await load('echo', 'e.csv', `id,text\n${rows}\n`, 8);
    sim.faults.set({ rate429: 0.5, retryAfterSeconds: 0, routes: ['POST /models/:id/runs'] });
    const result = await run().run();
    expect(result.counts.completed).toBe(12);
    const caps = events.flatMap((e) => (e.type === 'cap' ? [e] : []));
    expect(caps[0]).toMatchObject({ cap: 4, reason: expect.stringContaining('429') });
  });

  it('submits async jobs under the cap, reads them to the end, records and downloads file outputs', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => `s${i},${'MKVL'.repeat(i + 1)},${i % 3}`).join('\n');
    const { store, dir, batch, events, run } = await load('fold', 'f.csv', `id,sequence,recycles\n${rows}\n`, 3);
    const before = admissions();
    const downloader = new Downloader({ store, client, outDir: join(dir, 'out') });
    const result = await run({ onFiles: () => downloader.kick(batch) }).run();
    await downloader.drain();
    expect(result.counts.completed).toBe(12);
    expect(admissions() - before).toBe(12);
    let inFlight = 0;
    let peak = 0;
    for (const e of events) {
      if (e.type !== 'item') continue;
      if (e.state === 'running') peak = Math.max(peak, ++inFlight);
      if (e.state === 'completed' || e.state === 'failed') inFlight--;
    }
    const progress = events.filter((e) => e.type === 'progress');
    expect(progress.at(-1)).toMatchObject({ counts: (await store.itemCounts(batch.id)), credits: 132 });
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThan(1);
    const s3 = (await store.modelRun(batch.id, 's3'));
    expect(s3).toMatchObject({ httpStatus: 202, status: 'succeeded', pollUrl: expect.stringContaining('/model-runs/'), credits: 11 });
    expect(s3?.polls).toBeGreaterThan(0);
    const files = (await store.filesForItem(batch.id, 's3'));
    expect(files).toEqual([expect.objectContaining({ role: 'structure', tool: 'fold', name: 'fold.pdb', status: 'downloaded', runId: s3?.modelRunId })]);
    expect(existsSync(files[0]!.path!)).toBe(true);
    expect(readFileSync(files[0]!.path!, 'utf8')).toContain('ATOM');
  });

  it('leaves rows whose create request failed after the side effect unknown, and re-sends them only when told, with the same key', async () => {
    const { store, batch, run } = await load('fold', 'u.csv', 'sequence\nAAAA\nCCCC\nDDDD\n');
    const before = admissions();
    sim.faults.set({ error5xxAfter: 1, routes: ['POST /models/:id/runs'] });
    const first = await run().run();
    expect(first.unknown.sort()).toEqual(['1', '2', '3']);
    expect(first.counts.submitting).toBe(3);
    expect(admissions() - before).toBe(3);
    sim.faults.clear();
    const posts = () => sim.counters().requestsByRoute['POST /models/:id/runs'] ?? 0;
    const p0 = posts();
    const second = await run().run();
    expect(posts()).toBe(p0);
    expect(second.unknown).toHaveLength(3);
    const third = await run({ resubmitUnknown: true }).run();
    expect(third.counts.completed).toBe(3);
    expect(posts()).toBe(p0 + 3);
    expect(admissions() - before).toBe(3);
    const keys = await Promise.all(['1', '2', '3'].map(async (id) => (await store.modelRun(batch.id, id))?.idempotencyKey ?? ''));
    for (const k of keys) expect(sim.counters().modelRunsByKey[k]).toBe(1);
    expect((await store.modelRun(batch.id, '1'))?.submits).toBe(2);
  });

  it('sends again a row the service throttled (429: it did not act), once', async () => {
    const { run } = await load('echo', 't.csv', 'text\nhello\n');
    const before = admissions();
    sim.faults.set({ rate429: 1, retryAfterSeconds: 0, routes: ['POST /models/:id/runs'] });
    const r = await run({ onEvent: (e) => e.type === 'retry-later' && sim.faults.clear() }).run();
    expect(r.counts.completed).toBe(1);
    expect(admissions() - before).toBe(1);
  });

  it("sends a throttled row again on the scheduler's retry-later schedule, as agent runs are, then leaves it for later", async () => {
    const { run } = await load('echo', 'later.csv', 'text\nhello\n');
    sim.faults.set({ rate429: 1, retryAfterSeconds: 0, routes: ['POST /models/:id/runs'] });
    // Virtual time: the waits between sends move this clock instead of taking minutes.
    let t = 1_000_000;
    const clock: Clock = { now: () => t, sleep: (ms) => new Promise((resolve) => ((t += ms), setImmediate(resolve))) };
    const events: ModelBatchEvent[] = [];
    const r = await run({ retryLaterMs: undefined, clock, onEvent: (e) => events.push(e) }).run();
    expect(events.flatMap((e) => (e.type === 'retry-later' ? [e.delayMs] : []))).toEqual([...DEFAULT_RETRY_LATER_MS]);
    expect(events.some((e) => e.type === 'warning' && /gave up for now/.test(e.message))).toBe(true);
    expect(r.stalled).toBe(1);
  });

  it('ends a row the service refuses (HTTP 400) in error, with the message', async () => {
    const { store, batch, run } = await load('fold', 'e.jsonl', '{"id":"x","sequence":"MK","template":{"id":"file_1"}}\n{"id":"y","sequence":"MK"}\n');
    const r = await run().run();
    expect(r.counts).toMatchObject({ error: 1, completed: 1 });
    expect((await store.getItem(batch.id, 'x'))?.error).toMatch(/HTTP 400 POST \/models\/fold\/runs.*template/);
  });

  it('stops on a bad key (fatal) without marking rows', async () => {
    const { run } = await load('echo', 'k.csv', 'text\na\nb\n');
    const bad = new ServiceClient({ baseUrl: sim.url, apiKey: 'wrong-key', retry: { maxAttempts: 1 } });
    const r = await run({ client: bad }).run();
    await bad.close();
    expect(r.fatal?.message).toMatch(/HTTP 401/);
    expect(r.counts).toMatchObject({ error: 0, submitting: 0, queued: 2 });
  });

  it('stops reading when asked and a new runner picks the running jobs up without sending them again', async () => {
    const { batch, store, run } = await load('fold', 's.csv', 'sequence\nAAA\nCCC\nDDD\nEEE\n', 2);
    const before = admissions();
    const r1 = run();
    const stopped = r1.run();
    await new Promise<void>((resolve) => {
      const t = setInterval(() => {
        void store.itemCounts(batch.id).then((c) => {
          if (c.running < 1) return;
          clearInterval(t);
          resolve();
        });
      }, 5);
    });
    r1.stop();
    const first = await stopped;
    expect(first.fatal?.stack ?? null).toBeNull();
    expect(first.interrupted).toBe(true);
    expect(first.counts.completed).toBeLessThan(4);
    const second = await run().run();
    expect(second.counts.completed).toBe(4);
    expect(admissions() - before).toBe(4);
  });
});
