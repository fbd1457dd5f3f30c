import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseService, overrideNote } from '../src/service-choice.js';
import { startSim, type Sim } from '../src/sim/index.js';
import { openStore } from '../src/store/index.js';
import { tempDir } from './support/cli.js';
import { runInProcess } from './support/in-process-cli.js';
import { serveChild } from './web/support/serve-child.js';

const urlBatch = (baseUrl: string | null) => ({ settings: { service: 'url' as const }, baseUrl });
const simBatch = { settings: { service: 'sim' as const }, baseUrl: null };

describe('chooseService: one rule', () => {
  it('--base-url, then RESQ_BASE_URL, then the batch\'s stored URL', () => {
    expect(chooseService({ baseUrl: 'http://f/api/v1', envBaseUrl: 'http://e/api/v1', batches: [urlBatch('http://s/api/v1')] })).toMatchObject({ baseUrl: 'http://f/api/v1', from: 'flag' });
    const env = chooseService({ envBaseUrl: 'http://e/api/v1', batches: [urlBatch('http://s/api/v1')] });
    expect(env).toMatchObject({ sim: false, baseUrl: 'http://e/api/v1', from: 'env', overrides: 'http://s/api/v1' });
    expect(overrideNote(env)).toBe("RESQ_BASE_URL (http://e/api/v1) is used, not the batch's stored base URL (http://s/api/v1)");
    expect(chooseService({ envBaseUrl: 'http://s/api/v1/', batches: [urlBatch('http://s/api/v1')] }).overrides).toBeNull();
    expect(chooseService({ batches: [urlBatch('http://s/api/v1')] })).toMatchObject({ baseUrl: 'http://s/api/v1', from: 'stored' });
    expect(chooseService({})).toMatchObject({ sim: false, baseUrl: null, from: 'none' });
  });

  it('--sim, or a batch that ran on the simulator unless --base-url is given; --sim false is a choice too', () => {
    expect(chooseService({ sim: true, baseUrl: 'http://f/api/v1' })).toMatchObject({ sim: true, baseUrl: null, from: 'sim' });
    expect(chooseService({ envBaseUrl: 'http://e/api/v1', batches: [simBatch] })).toMatchObject({ sim: true, from: 'sim' });
    expect(chooseService({ baseUrl: 'http://f/api/v1', batches: [simBatch] })).toMatchObject({ sim: false, from: 'flag' });
    expect(chooseService({ sim: false, envBaseUrl: 'http://e/api/v1', batches: [simBatch] })).toMatchObject({ sim: false, from: 'env' });
  });

  it('several batches with different stored URLs name none; a new batch\'s pipeline URL counts as its stored one', () => {
    expect(chooseService({ batches: [urlBatch('http://a/api/v1'), urlBatch('http://b/api/v1')] }).from).toBe('none');
    expect(chooseService({ batches: [urlBatch('http://a/api/v1'), urlBatch('http://a/api/v1')] }).baseUrl).toBe('http://a/api/v1');
    expect(chooseService({ batches: [urlBatch(null)], planned: 'http://p/api/v1' })).toMatchObject({ baseUrl: 'http://p/api/v1', from: 'stored' });
  });
});

/**
 * Every command and the page follow the rule with RESQ_BASE_URL set: each batch's stored URL
 * is a simulator that is gone (anything sent there fails), RESQ_BASE_URL the one that runs.
 */
describe('RESQ_BASE_URL before the stored URL, in run, resume, cancel, files pull and the page\'s cancel', () => {
  let live: Sim;
  let gone: string;
  let dir: string;
  let db: string;
  let env: Record<string, string>;

  /** Points a batch's stored URL at the simulator that is gone. */
  async function storeGoneUrl(name: string): Promise<void> {
    const store = await openStore(db);
    const b = (await store.findBatch(name))!;
    await store.updateBatchSettings(b.id, b.settings, b.policy, gone);
    await store.close();
  }

  /** Runs a batch whose one question runs for a minute, and stops the worker once its run is recorded running: the run stays in flight at the live simulator. */
  async function inFlight(name: string): Promise<void> {
    const q = join(dir, `${name}.csv`);
    writeFileSync(q, `id,question\nlong,think long @duration=60s\n`);
    const store = await openStore(db);
    const r = await runInProcess(['run', q, '--db', db, '--batch', name, '--no-download'], env, {
      onIo: (io) => {
        const t = setInterval(() => {
          void store.findBatch(name).then(async (b) => {
            if (b && (await store.itemCounts(b.id)).running === 1 && t.hasRef()) {
              clearInterval(t);
              t.unref();
              io.stop('SIGINT');
            }
          });
        }, 10);
      },
    });
    await store.close();
    expect(r.code).toBe(130);
    await storeGoneUrl(name);
  }

  beforeAll(async () => {
    live = await startSim({ defaultDurationMs: 10 });
    const dead = await startSim();
    gone = dead.url;
    await dead.close();
    dir = tempDir();
    db = join(dir, 'r.db');
    env = { RESQ_BASE_URL: live.url, RESQ_API_KEY: live.keys[0]! };
  });
  afterAll(async () => live.close());

  it('run and resume send to RESQ_BASE_URL and say it is used instead of the stored URL', async () => {
    const q = join(dir, 'q.csv');
    writeFileSync(q, 'id,question\na,one\nb,two\nc,three\n');
    expect((await runInProcess(['run', q, '--db', db, '--batch', 'rr', '--limit', '1'], env)).code).toBe(0);
    await storeGoneUrl('rr');
    const admitted = live.counters().runsAdmitted;
    const run = await runInProcess(['run', q, '--db', db, '--batch', 'rr', '--limit', '1'], env);
    expect(run.code).toBe(0);
    expect(run.stderr + run.stdout).toContain(`RESQ_BASE_URL (${live.url}) is used, not the batch's stored base URL (${gone})`);
    expect(live.counters().runsAdmitted).toBe(admitted + 1);
    const resume = await runInProcess(['resume', 'rr', '--db', db], env);
    expect(resume.code).toBe(0);
    expect(resume.stderr + resume.stdout).toContain(`RESQ_BASE_URL (${live.url}) is used`);
    expect(resume.stdout).toContain('3 completed');
    expect(live.counters().runsAdmitted).toBe(admitted + 2);
  });

  it('cancel cancels the runs in flight at RESQ_BASE_URL', async () => {
    await inFlight('cc');
    const cancels = live.counters().requestsByRoute['POST /runs/:id/cancel'] ?? 0;
    const r = await runInProcess(['cancel', 'cc', '--db', db], env);
    expect(r.stdout).toContain('1 run in flight cancelled at the service');
    expect(r.code).toBe(0);
    expect(live.counters().requestsByRoute['POST /runs/:id/cancel']).toBe(cancels + 1);
  });

  it('files pull fetches from RESQ_BASE_URL', async () => {
    const q = join(dir, 'f.csv');
    writeFileSync(q, 'id,question\nf,a table @files=csv\n');
    expect((await runInProcess(['run', q, '--db', db, '--batch', 'ff', '--no-download'], env)).code).toBe(0);
    await storeGoneUrl('ff');
    const r = await runInProcess(['files', 'pull', 'ff', '--db', db, '--out', join(dir, 'out')], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/1 downloaded|downloaded 1/);
  });

  it("the page's cancel, in a server started with RESQ_BASE_URL, cancels at it", async () => {
    await inFlight('pc');
    const cancels = live.counters().requestsByRoute['POST /runs/:id/cancel'] ?? 0;
    const s = await serveChild(['--db', db, '--port', '0'], env);
    try {
      const r = await fetch(`${s.origin}/api/batches/pc/cancel`, { method: 'POST', headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json' }, body: '{}' });
      expect(await r.json()).toEqual({ queued: 0, cancelled: 1, left: 0, reason: null });
      expect(live.counters().requestsByRoute['POST /runs/:id/cancel']).toBe(cancels + 1);
    } finally {
      await s.stop();
    }
  });
});
