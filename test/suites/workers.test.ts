import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRows, type ExportRow } from '../../src/runner/index.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { fixtureItems, writeFixture } from '../support/batch-fixture.js';
import { expectBatchWhole } from '../support/expect-batch.js';
import { collect, runCliChild, spawnCli, tempDir, type CliResult } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { connectedTo } from '../support/peer-sockets.js';

// Several processes on one batch: real CLI children on one SQLite file, the simulator over
// HTTP, real SIGKILL and SIGSTOP. Every question must reach the service once, the batch's
// cap must hold across workers, and no item may end in `error` because of the database.

const LEASE_MS = '1500';

async function exported(db: string, name: string): Promise<ExportRow[]> {
  const store = SqliteStore.open(db);
  try {
    const batch = await store.findBatch(name);
    if (!batch) throw new Error(`no batch ${name}`);
    const rows: ExportRow[] = [];
    for await (const r of exportRows(store, batch)) rows.push(r);
    return rows;
  } finally {
    await store.close();
  }
}


function expectNoDatabaseErrors(results: CliResult[]): void {
  for (const r of results) {
    expect(r.stderr).not.toContain('internal error');
    expect(r.stderr).not.toMatch(/database is locked|SQLITE_BUSY|already exists/);
  }
}

/** Waits until `pred` holds for a child's accumulated stdout. */
function whenOutput(child: ReturnType<typeof spawnCli>, pred: (out: string) => boolean): Promise<void> {
  let out = '';
  return new Promise((resolve) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (pred(out)) resolve();
    });
    child.on('close', () => resolve());
  });
}

const countLines = (type: string) => (out: string): number => out.split('\n').filter((l) => l.includes(`"type":"${type}"`)).length;

/**
 * A barrier for processes said to run at once: every request to the simulator goes through a
 * proxy that holds it (black-holed) until each child has one there — a process has its
 * database open and its batch loaded before its first request, and waits on that request's
 * answer — so none gets anything done before all of them are running. `through` is the
 * simulator's URL by the proxy; `reached` says whether the barrier was reached — every child
 * itself connected there (by its pid, as one process may open several connections), all alive
 * (bounded: children run one after the other never reach it) — and lets the requests through
 * either way.
 */
async function simBarrier(sim: Sim): Promise<{ through: string; reached(children: ChildProcess[]): Promise<boolean>; close(): Promise<void> }> {
  const proxy = await startTcpProxy(Number(new URL(sim.url).port));
  proxy.blackhole();
  const through = new URL(sim.url);
  through.port = String(proxy.port);
  return {
    through: through.href.replace(/\/$/, ''),
    async reached(children) {
      const alive = () => children.every((c) => c.exitCode === null && c.signalCode === null);
      const each = () => children.every((c) => c.pid !== undefined && connectedTo(c.pid, proxy.port));
      const ok = await proxy.until((c) => c.accepted >= children.length && c.heldChunks >= children.length && each(), 60_000).then(alive, () => false);
      proxy.heal();
      return ok;
    },
    close: () => proxy.close(),
  };
}

describe('several workers on one batch', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 100, seed: 11 });
  });
  afterAll(async () => sim.close());

  it('three workers share a batch with pauses, files, a thread and light faults; one is killed and restarted; every item answered once, the cap held', async () => {
    sim.faults.set({ error5xxAfter: 0.02, dropAfter: 0.02, rate429: 0.02, retryAfterSeconds: 0 });
    const dir = tempDir();
    const items = fixtureItems('200ms', 4);
    const { questions, policy } = writeFixture(dir, items);
    const db = join(dir, 'resq.db');
    // bob's account is used by this test alone: its peak of concurrent runs is this batch's.
    const env = { RESQ_API_KEY: 'sim-key-bob', RESQ_LEASE_MS: LEASE_MS };
    const cap = 5;
    const args = ['run', questions, '--db', db, '--batch', 'shared', '--policy', policy, '--base-url', sim.url, '--concurrency', String(cap), '--out', join(dir, 'out'), '--json'];
    const before = sim.counters();
    const victim = spawnCli(args, env);
    const killedDone = collect(victim);
    const results = [collect(spawnCli(args, env))];
    await whenOutput(victim, (o) => countLines('item')(o) >= 4);
    results.push(collect(spawnCli(args, env)));
    await whenOutput(victim, (o) => countLines('item')(o) >= 8);
    victim.kill('SIGKILL');
    const killed = await killedDone;
    expect(killed.signal, `${killed.code} ${killed.stderr} ${killed.stdout.slice(-2000)}`).toBe('SIGKILL');
    const again = collect(spawnCli(args, env));
    const done = await Promise.all([...results, again]);
    expectNoDatabaseErrors(done);
    sim.faults.set({});
    // Whatever was left (a worker may leave before the victim's lease expired): one more pass.
    const last = await runCliChild(args, env);
    expectNoDatabaseErrors([last]);
    expect(last.code).toBe(1); // the @fail items fail, nothing else

    const c = sim.counters();
    for (const it of items) expect(c.admissionsByInput[it.question] ?? 0, it.id).toBe((before.admissionsByInput[it.question] ?? 0) + 1);
    expect(c.respondRuns - before.respondRuns).toBe(items.reduce((n, it) => n + it.pauses, 0));
    expect(c.peakConcurrentRuns.bob).toBeGreaterThan(1);
    expect(c.peakConcurrentRuns.bob).toBeLessThanOrEqual(cap);
    expectBatchWhole(await exported(db, 'shared'), items, sim.ledger());
  }, 180_000);

  it('the same resq run started twice at once: both finish, nothing sent twice, nothing lost', async () => {
    const dir = tempDir();
    const n = 60;
    const questions = join(dir, 'q.csv');
    writeFileSync(questions, `id,question\n${Array.from({ length: n }, (_, i) => `q${i},Twin question ${dir} ${i} @duration=80ms`).join('\n')}\n`);
    const db = join(dir, 'resq.db');
    const barrier = await simBarrier(sim);
    const args = ['run', questions, '--db', db, '--base-url', barrier.through, '--concurrency', '10', '--no-download', '--json'];
    const env = { RESQ_API_KEY: 'sim-key-alice', RESQ_LEASE_MS: LEASE_MS };
    const before = sim.counters();
    const twins = [spawnCli(args, env), spawnCli(args, env)];
    const runs = twins.map((c) => collect(c));
    const overlapped = await barrier.reached(twins);
    const done = await Promise.all(runs);
    await barrier.close();
    expect(overlapped, 'both processes at the service before either got an answer').toBe(true);
    expectNoDatabaseErrors(done);
    for (const r of done) expect(r.code, r.stderr).toBe(0);
    const c = sim.counters();
    for (let i = 0; i < n; i++) {
      const q = `Twin question ${dir} ${i} @duration=80ms`;
      expect(c.admissionsByInput[q] ?? 0).toBe((before.admissionsByInput[q] ?? 0) + 1);
    }
    const rows = await exported(db, 'q');
    expect(rows.filter((r) => r.status === 'completed')).toHaveLength(n);
  }, 120_000);

  it('two batches on one fresh database, both processes started together, both complete', async () => {
    const dir = tempDir();
    const db = join(dir, 'fresh.db');
    const files = ['one', 'two'].map((name) => {
      const f = join(dir, `${name}.jsonl`);
      writeFileSync(f, Array.from({ length: 20 }, (_, i) => JSON.stringify({ id: `${name}${i}`, question: `Batch ${name} ${dir} ${i} @duration=50ms` })).join('\n'));
      return f;
    });
    const env = { RESQ_API_KEY: 'sim-key-alice' };
    const barrier = await simBarrier(sim);
    const children = files.map((f) => spawnCli(['run', f, '--db', db, '--base-url', barrier.through, '--concurrency', '4', '--no-download', '--json'], env));
    const runs = children.map((c) => collect(c));
    const overlapped = await barrier.reached(children);
    const done = await Promise.all(runs);
    await barrier.close();
    expect(overlapped, 'both processes at the service (their database open) before either got an answer').toBe(true);
    expectNoDatabaseErrors(done);
    for (const r of done) expect(r.code, r.stderr).toBe(0);
    for (const name of ['one', 'two']) expect((await exported(db, name)).every((r) => r.status === 'completed')).toBe(true);
  }, 120_000);

  it('a worker stopped with SIGSTOP: its items are taken over after its lease expires, and when continued it doubles nothing', async () => {
    const dir = tempDir();
    const n = 12;
    const questions = join(dir, 'q.csv');
    const q = (i: number) => `Stopped worker ${dir} ${i} @duration=1500ms`;
    writeFileSync(questions, `id,question\n${Array.from({ length: n }, (_, i) => `s${i},${q(i)}`).join('\n')}\n`);
    const db = join(dir, 'resq.db');
    const env = { RESQ_API_KEY: 'sim-key-alice', RESQ_LEASE_MS: LEASE_MS };
    const args = ['run', questions, '--db', db, '--base-url', sim.url, '--concurrency', '4', '--no-download', '--json'];
    const before = sim.counters();
    const sleeper = spawnCli(args, env);
    const sleeperDone = collect(sleeper);
    await whenOutput(sleeper, (o) => countLines('item')(o) >= 4);
    sleeper.kill('SIGSTOP');
    try {
      // The second worker waits out the lease, takes the stopped worker's items over and finishes the batch.
      const other = await runCliChild(args, env);
      expectNoDatabaseErrors([other]);
      expect(other.code, `${other.stderr}\n${other.stdout.slice(-3000)}`).toBe(0);
    } finally {
      sleeper.kill('SIGCONT');
    }
    const woke = await sleeperDone;
    expectNoDatabaseErrors([woke]);
    expect(woke.code, woke.stderr).toBe(0);
    // It found its items claimed by the other worker when it woke (a newer fencing token), and left them to it.
    expect(woke.stdout).toMatch(/item s\d+ was claimed (by worker [^;]+|again and is completed now, held by no worker); token 2, this driver's 1: this worker stopped driving it/);
    const c = sim.counters();
    for (let i = 0; i < n; i++) expect(c.admissionsByInput[q(i)] ?? 0, `s${i}`).toBe((before.admissionsByInput[q(i)] ?? 0) + 1);
    const rows = await exported(db, 'q');
    expect(rows.map((r) => [r.id, r.status, r.run_ids.length])).toEqual(Array.from({ length: n }, (_, i) => [`s${i}`, 'completed', 1]));
  }, 120_000);

  it('a worker killed with SIGKILL on this host: the other worker of the host takes its items at once, while busy, under a ten-minute lease', async () => {
    const dir = tempDir();
    const n = 6;
    const questions = join(dir, 'q.csv');
    const q = (i: number) => `Killed worker ${dir} ${i} @duration=6s`;
    writeFileSync(questions, `id,question\n${Array.from({ length: n }, (_, i) => `k${i},${q(i)}`).join('\n')}\n`);
    const db = join(dir, 'resq.db');
    // A lease that never ends within the test: only the judgement of the dead process frees its items.
    const env = { RESQ_API_KEY: 'sim-key-alice', RESQ_LEASE_MS: '600000' };
    const args = ['run', questions, '--db', db, '--base-url', sim.url, '--concurrency', '4', '--no-download', '--json'];
    const workers = async () =>
      ((JSON.parse((await runInProcess(['status', 'q', '--db', db, '--json'])).stdout) as { workers: { pid: number; items: number; gone: boolean }[] }).workers);
    const until = async (what: string, check: (w: Awaited<ReturnType<typeof workers>>) => boolean, ms: number) => {
      for (const end = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 100))) {
        const w = await workers().catch(() => null);
        if (w && check(w)) return;
        if (Date.now() > end) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(w)}`);
      }
    };
    const before = sim.counters();
    // The victim sends two items (--limit 2), the other worker two more: both hold runs of 6 s.
    const victim = spawnCli([...args, '--limit', '2'], env);
    const victimDone = collect(victim);
    await until('the victim holding 2 items', (w) => w.some((x) => x.pid === victim.pid && x.items === 2), 30_000);
    const other = spawnCli(args, env);
    const otherDone = collect(other);
    await until('the other worker holding 2 items', (w) => w.some((x) => x.pid === other.pid && x.items === 2), 30_000);
    victim.kill('SIGKILL');
    expect((await victimDone).signal).toBe('SIGKILL');
    // Well within its own runs' 6 s: the victim's items are the other worker's now.
    await until("the victim's items taken over", (w) => w.length === 1 && w[0]!.pid === other.pid && w[0]!.items === 4, 4_000);
    const r = await otherDone;
    expectNoDatabaseErrors([r]);
    expect(r.code, `${r.stderr}\n${r.stdout.slice(-3000)}`).toBe(0);
    const c = sim.counters();
    for (let i = 0; i < n; i++) expect(c.admissionsByInput[q(i)] ?? 0, `k${i}`).toBe((before.admissionsByInput[q(i)] ?? 0) + 1);
    const rows = await exported(db, 'q');
    expect(rows.map((x) => [x.id, x.status])).toEqual(Array.from({ length: n }, (_, i) => [`k${i}`, 'completed']));
  }, 120_000);
});
