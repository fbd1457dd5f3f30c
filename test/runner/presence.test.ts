import { join } from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { processStart } from '../../src/local-process.js';
import { Presence } from '../../src/runner/presence.js';
import type { BatchRecord, Store } from '../../src/store/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';

let store: Store | null = null;
let children: ChildProcess[] = [];
afterEach(async () => {
  await store?.close();
  store = null;
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children = [];
});

/** A long-running program of this host that is not resq (killed after the test). */
async function sleeper(): Promise<ChildProcess> {
  const c = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(c);
  await new Promise((r) => c.once('spawn', r));
  return c;
}

async function batch(s: Store): Promise<BatchRecord> {
  const settings = { concurrency: 2, follow: 'poll' as const, download: { enabled: false, concurrency: 1, out: null }, pipelineFile: null, service: 'url' as const };
  const l = await s.beginBatchLoad({ id: 'b', name: 'b', kind: 'runs', sourcePath: 'q', sourceSha256: 'x', baseUrl: null, settings, policy: null });
  await l.add({ id: 'a', seq: 0, line: 2, question: 'q', threadKey: null, meta: {} });
  await l.commit([], 'x');
  return (await s.findBatch('b'))!;
}

describe('Presence', () => {
  it('a worker of this host whose process is gone gives its items up at once; a live one or another host keeps them', async () => {
    store = SqliteStore.open(join(tempDir(), 'r.db'));
    const b = await batch(store);
    const t = 1_000_000;
    // A pid that surely ended: a child that ran and exited.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const gone = await store.registerWorker(b.id, { host: 'here', pid: dead }, t);
    await store.claimItems(b.id, { workerId: gone.id, leaseMs: 60_000, max: 1, cap: 2, afterSeq: -1 }, t);
    await store.registerWorker(b.id, { host: 'elsewhere', pid: dead }, t);
    await store.registerWorker(b.id, { host: 'here', pid: process.ppid }, t);
    const me = new Presence({ store, batch: b, host: 'here', pid: process.pid, leaseMs: 60_000 });
    const others = await me.register(t + 1);
    expect(others.map((w) => w.host).sort()).toEqual(['elsewhere', 'here']);
    expect(others.find((w) => w.host === 'here')?.pid).toBe(process.ppid);
    // Its item is free to take over now, long before its lease would end.
    const item = await store.getItem(b.id, 'a');
    expect(item?.owner).toBeNull();
    const claim = await store.claimItems(b.id, { ...me.lease, max: 1, cap: 2, afterSeq: -1 }, t + 2);
    expect(claim.items.map((i) => i.id)).toEqual(['a']);
    expect((await me.beat(t + 3)).workers).toBe(3);
    expect((await me.busyOthers(t + 3)).length).toBe(0);
  });

  it.runIf(process.platform === 'linux')('a worker whose pid another program has now (another start identity) is gone: its items are free at once', async () => {
    store = SqliteStore.open(join(tempDir(), 'r.db'));
    const b = await batch(store);
    const t = 1_000_000;
    const other = await sleeper();
    const real = processStart(other.pid!)!;
    // A worker that had this pid before the `sleep` got it: it started at another time.
    const before = `${real.split(':')[0]}:${Number(real.split(':')[1]) + 7}`;
    const ghost = await store.registerWorker(b.id, { host: 'here', pid: other.pid!, pidStart: before }, t);
    expect(ghost.pidStart).toBe(before);
    await store.claimItems(b.id, { workerId: ghost.id, leaseMs: 600_000, max: 1, cap: 2, afterSeq: -1 }, t);
    // The `sleep` itself, registered as a worker with its own identity, is alive.
    await store.registerWorker(b.id, { host: 'here', pid: other.pid!, pidStart: real }, t);
    const me = new Presence({ store, batch: b, host: 'here', pid: process.pid, leaseMs: 600_000 });
    const others = await me.register(t + 1);
    expect(others.map((w) => [w.pid, w.pidStart])).toEqual([[other.pid, real]]);
    expect(me.worker.pidStart).toBe(processStart(process.pid));
    expect((await store.getItem(b.id, 'a'))?.owner).toBeNull();
    expect((await store.claimItems(b.id, { ...me.lease, max: 1, cap: 2, afterSeq: -1 }, t + 2)).items.map((i) => i.id)).toEqual(['a']);
  });

  it.runIf(process.platform === 'linux')('a worker of this host killed after this one joined is given up on the regular census, long before its lease ends', async () => {
    store = SqliteStore.open(join(tempDir(), 'r.db'));
    const b = await batch(store);
    const t = 1_000_000;
    const me = new Presence({ store, batch: b, host: 'here', pid: process.pid, leaseMs: 600_000 });
    const victim = await sleeper();
    const w = await store.registerWorker(b.id, { host: 'here', pid: victim.pid!, pidStart: processStart(victim.pid!) }, t);
    await store.claimItems(b.id, { workerId: w.id, leaseMs: 600_000, max: 1, cap: 2, afterSeq: -1 }, t);
    expect(await me.register(t + 1)).toHaveLength(1);
    expect(await me.census(t + 2)).toEqual({ workers: 2, reaped: 0 });
    const exited = new Promise((r) => victim.once('exit', r));
    victim.kill('SIGKILL');
    await exited;
    // One second later, not 600.
    expect(await me.census(t + 1_000)).toEqual({ workers: 1, reaped: 1 });
    expect((await store.getItem(b.id, 'a'))?.owner).toBeNull();
    expect(await store.liveWorkers(b.id, 600_000, t + 1_000)).toEqual([expect.objectContaining({ id: me.worker.id })]);
    expect((await me.beat(t + 2_000)).reaped).toBe(0);
  });
});
