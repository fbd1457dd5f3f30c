import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILED_LISTED, type BatchStatus, type ItemView } from '../../../src/read/index.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { collect, spawnCli, tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';

/** 13 items that fail at the service and 2 that complete, in file order. */
const FAILING = Array.from({ length: 13 }, (_, i) => `f${String(i + 1).padStart(2, '0')}`);

describe('resq status and the run summary: failed items named with why', () => {
  let sim: Sim;
  let db: string;
  let run: Awaited<ReturnType<typeof runInProcess>>;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    writeFileSync(q, ['id,question', 'ok1,fine', ...FAILING.map((id) => `${id},breaks @fail`), 'ok2,fine too'].join('\n'));
    db = join(dir, 'r.db');
    run = await runInProcess(['run', q, '--db', db, '--batch', 'st', '--no-download', '--concurrency', '4'], { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url });
  });
  afterAll(async () => sim.close());

  it('the run summary lists the first failed items with the service\'s code and message, then the count and the command for all', () => {
    expect(run.code).toBe(1);
    const out = run.stdout + run.stderr;
    expect(out).toContain('failed or errored: 13');
    expect(out).toContain('  f01 (failed): agent_error: simulated failure (@fail)');
    expect(out).toContain(`  f${FAILED_LISTED} (failed): agent_error`);
    expect(out).not.toContain(`  f${FAILED_LISTED + 1} (failed)`);
    expect(out).toContain(`  … and 3 more; all of them: resq export st --failed --db ${db}`);
  });

  it('resq status says the same', async () => {
    const r = await runInProcess(['status', 'st', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('failed or errored: 13');
    expect(r.stdout).toContain('  f01 (failed): agent_error: simulated failure (@fail)');
    expect(r.stdout).toContain('  … and 3 more; all of them: resq export st --failed');
  });

  it('resq status --json carries the listed failed items and their total', async () => {
    const r = await runInProcess(['status', 'st', '--db', db, '--json']);
    const s = JSON.parse(r.stdout) as { failed: { id: string }[]; failedTotal: number; counts: { failed: number } };
    expect(s.failedTotal).toBe(13);
    expect(s.counts.failed).toBe(13);
    expect(s.failed.map((f) => f.id)).toEqual(FAILING.slice(0, FAILED_LISTED));
    expect(s.failed[0]).toEqual({ id: 'f01', question: 'breaks @fail', status: 'failed', errorCode: 'agent_error', error: 'simulated failure (@fail)' });
  });

  it('the command it names lists every one of them', async () => {
    const r = await runInProcess(['export', 'st', '--failed', '--db', db]);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string; error_code: string });
    expect(rows.map((x) => x.id)).toEqual(FAILING);
    expect(new Set(rows.map((x) => x.error_code))).toEqual(new Set(['agent_error']));
  });

  it('resq show gives the failure in full on the item and its run', async () => {
    const r = await runInProcess(['show', 'st', 'f01', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('error (agent_error): simulated failure (@fail)');
    expect(r.stdout).toMatch(/step 0: failed in [\d.]+ s\n {4}failed \(agent_error\): simulated failure \(@fail\)/);
    const json = JSON.parse((await runInProcess(['show', 'st', 'f01', '--db', db, '--json'])).stdout) as { item: { errorCode: string }; runs: { errorCode: string; error: string }[] };
    expect(json.item.errorCode).toBe('agent_error');
    expect(json.runs[0]).toMatchObject({ errorCode: 'agent_error', error: 'simulated failure (@fail)' });
  });

  it('a batch with nothing failed lists nothing', async () => {
    const dir = tempDir();
    const q = join(dir, 'ok.csv');
    writeFileSync(q, 'id,question\na,fine\n');
    const okDb = join(dir, 'ok.db');
    const r = await runInProcess(['run', q, '--db', okDb, '--no-download'], { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('failed or errored');
    const s = JSON.parse((await runInProcess(['status', '--db', okDb, '--json'])).stdout) as { failed: unknown[]; failedTotal: number };
    expect(s).toMatchObject({ failed: [], failedTotal: 0 });
  });
});

describe('resq status: a worker of this host killed with SIGKILL', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
  });
  afterAll(async () => sim.close());

  interface StatusWorker {
    pid: number;
    host: string;
    gone: boolean;
    items: number;
  }
  const statusOf = async (db: string) => JSON.parse((await runInProcess(['status', 'k', '--db', db, '--json'])).stdout) as { workers: StatusWorker[] };

  it('is shown gone at once, not live with a fresh heartbeat, although its lease has ten minutes to run', async () => {
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    writeFileSync(q, ['id,question', ...Array.from({ length: 4 }, (_, i) => `k${i},Long question ${i} @duration=60s`)].join('\n'));
    const db = join(dir, 'r.db');
    const env = { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url, RESQ_LEASE_MS: '600000' };
    const worker = spawnCli(['run', q, '--db', db, '--batch', 'k', '--no-download', '--concurrency', '2', '--json'], env);
    const ended = collect(worker);
    try {
      // Until the worker holds its items.
      for (const end = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
        if (Date.now() > end) throw new Error('the worker never claimed its items');
        const s = await statusOf(db).catch(() => null);
        if (s?.workers[0]?.items === 2) break;
      }
      const live = await statusOf(db);
      expect(live.workers).toEqual([expect.objectContaining({ pid: worker.pid, host: hostname(), gone: false, items: 2 })]);
      expect((await runInProcess(['status', 'k', '--db', db])).stdout).toContain('workers: 1 live\n');
    } finally {
      worker.kill('SIGKILL');
    }
    expect((await ended).signal).toBe('SIGKILL');
    const s = await statusOf(db);
    expect(s.workers).toEqual([expect.objectContaining({ pid: worker.pid, gone: true, items: 2 })]);
    const text = (await runInProcess(['status', 'k', '--db', db])).stdout;
    expect(text).toContain('workers: 0 live, 1 gone');
    expect(text).toContain(`  pid ${worker.pid} on ${hostname()}: gone (its process ended), 2 items claimed, free for the other workers to take`);
    expect(text).not.toMatch(/heartbeat [\d.]+ s ago/);
    // resq batches counts it out of the live workers.
    const line = JSON.parse((await runInProcess(['batches', '--db', db, '--json'])).stdout) as { workers: number };
    expect(line.workers).toBe(0);
  }, 60_000);
});

describe('why queued items wait: the exit summary, resq status and resq show (issue 38)', () => {
  // q302 and q303 wait behind q301, held, in thread `T-ünï`; another worker carries a long run
  // meanwhile, so the first worker's summary gives an ETA (it must leave the two out).
  let sim: Sim;
  let db: string;
  let other: ReturnType<typeof spawnCli>;
  let run: Awaited<ReturnType<typeof runInProcess>>;
  const hostile = 'z\u0007a';
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
    const dir = tempDir();
    const q = join(dir, 'q.csv');
    db = join(dir, 'r.db');
    const env = { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url };
    writeFileSync(q, 'id,question,thread\nslow,Long @duration=120s,\n');
    other = spawnCli(['run', q, '--db', db, '--batch', 'myset', '--no-download'], env);
    for (const end = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() > end) throw new Error('the other worker never started its run');
      const s = await runInProcess(['status', 'myset', '--db', db, '--json']).catch(() => null);
      if (s?.code === 0 && (JSON.parse(s.stdout) as { inFlight: number }).inFlight === 1) break;
    }
    writeFileSync(
      q,
      ['id,question,thread', 'slow,Long @duration=120s,', 'a1,quick,', 'a2,quick too,', 'q301,Plan it @confirm=5,T-ünï', 'q302,Then this,T-ünï', 'q303,And this,T-ünï', `${hostile},Plan @confirm=7,x\u001b[31my`, 'z2,after,x\u001b[31my'].join('\n'),
    );
    run = await runInProcess(['run', q, '--db', db, '--batch', 'myset', '--no-download', '--append', '--no-wait'], env);
  }, 60_000);
  afterAll(async () => {
    other?.kill('SIGKILL');
    await sim?.close();
  });

  it('the exit summary of the worker that leaves says why the queued items wait and leaves them out of its ETA', () => {
    const out = run.stdout;
    expect(out, run.stderr).toContain('3 queued behind held items of their thread: q302, q303 wait for q301 (held) in thread T-ünï; z2 waits for z\\x07a (held) in thread x\\x1b[31my\n');
    expect(out).toMatch(/, ETA (\d+ s|—); ETA leaves out 3 items waiting for a person\n/);
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('resq status says the same, and --json gives a count per reason with the first ones named', async () => {
    const text = (await runInProcess(['status', 'myset', '--db', db])).stdout;
    expect(text).toContain('3 queued behind held items of their thread: q302, q303 wait for q301 (held) in thread T-ünï;');
    expect(text).toContain('ETA leaves out 3 items waiting for a person');
    const s = JSON.parse((await runInProcess(['status', 'myset', '--db', db, '--json'])).stdout) as BatchStatus;
    expect(s.etaLeavesOut).toBe(3);
    expect(s.waiting.map((g) => [g.reason, g.count, g.forPerson])).toEqual([['thread-held', 3, true]]);
    expect(s.waiting[0]!.first).toEqual([
      { id: 'q302', threadKey: 'T-ünï', behindId: 'q301', behindState: 'held' },
      { id: 'q303', threadKey: 'T-ünï', behindId: 'q301', behindState: 'held' },
      { id: 'z2', threadKey: 'x\u001b[31my', behindId: hostile, behindState: 'held' },
    ]);
  });

  it('a worker that leaves by its --limit says which items it left queued for that', async () => {
    const dir = tempDir();
    const q = join(dir, 'l.csv');
    writeFileSync(q, 'id,question\nl1,one\nl2,two\nl3,three\n');
    const r = await runInProcess(['run', q, '--db', join(dir, 'l.db'), '--batch', 'lim', '--no-download', '--limit', '1'], { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('\n2 queued left by --limit 1: l2, l3\n');
  });

  it('resq show names the thread and the item it waits behind, with the command that shows that one', async () => {
    const r = await runInProcess(['show', 'myset', 'q302', '--db', db]);
    expect(r.stdout).toContain(`why queued: waits behind q301 (held) in its thread T-ünï: it starts once a person answers q301 and it ends (see resq show myset q301 --db ${db})`);
    const z = (await runInProcess(['show', 'myset', 'z2', '--db', db])).stdout;
    expect(z).toContain('why queued: waits behind z\\x07a (held) in its thread x\\x1b[31my');
    expect(z).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    const v = JSON.parse((await runInProcess(['show', 'myset', 'q302', '--db', db, '--json'])).stdout) as ItemView;
    expect(v.wait).toMatchObject({ reason: 'thread-held', threadKey: 'T-ünï', behindId: 'q301', behindState: 'held' });
  });
});
