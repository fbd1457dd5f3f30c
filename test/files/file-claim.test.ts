import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/api/index.js';
import { systemClock } from '../../src/clock.js';
import { FileClaims } from '../../src/files/file-claim.js';
import { Downloader, filesStatus, pullFiles } from '../../src/files/index.js';
import { processStart } from '../../src/local-process.js';
import type { BatchRecord, FileHolder } from '../../src/store/index.js';
import { finishedRun, finishItems, listFiles, newBatch, newEnv, runItems, type Env } from './helpers.js';

let env: Env;
afterEach(async () => {
  await env?.close();
});

/** The pid of a process of this host that has ended (a real child, waited for). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

const LEASE = { leaseMs: 60_000 };
const fast = { retry: { baseDelayMs: 1, maxDelayMs: 5 } };

describe('FileClaims: a file is claimed before it is fetched, a dead holder of this host taken over at once', () => {
  async function oneFile(): Promise<BatchRecord> {
    env = await newEnv();
    const batch = await newBatch(env.store, 'claims', { a: 'q' });
    await finishItems(env.store, batch, { a: finishedRun('r-a', [{ id: 'f1', url: `${env.sim.url}/files/f1`, name: 'f1.md' }]) });
    return batch;
  }

  it('takes over at once a claim whose holder\'s process on this host is gone (ended, or its pid now another process), by its token', async () => {
    const batch = await oneFile();
    const claims = new FileClaims({ store: env.store, host: hostname() });
    const dead: FileHolder = { owner: 'dead', host: hostname(), pid: await deadPid(), pidStart: null };
    expect(await env.store.claimFile(batch.id, 'f1', dead, LEASE)).toEqual({ owner: 'dead', fence: 1 });
    const held = (await claims.take(batch.id, 'f1'))!;
    expect(held.claim).toEqual({ owner: claims.holder.owner, fence: 2 });
    await held.end();
    // This process's pid, started otherwise: the holder was a process whose pid this one was given.
    const reused: FileHolder = { owner: 'reused', host: hostname(), pid: process.pid, pidStart: 'another-boot:1' };
    expect(await env.store.claimFile(batch.id, 'f1', reused, LEASE)).not.toBeNull();
    const again = (await claims.take(batch.id, 'f1'))!;
    expect(again.claim.fence).toBe(4);
    await again.end();
  });

  it('leaves a claim to a live holder of this host, and to any holder of another host (its lease decides)', async () => {
    const batch = await oneFile();
    const claims = new FileClaims({ store: env.store, host: hostname() });
    const live: FileHolder = { owner: 'live', host: hostname(), pid: process.pid, pidStart: processStart(process.pid) };
    const c = (await env.store.claimFile(batch.id, 'f1', live, LEASE))!;
    expect(await claims.take(batch.id, 'f1')).toBeNull();
    await env.store.releaseFileClaim(batch.id, 'f1', c);
    const far: FileHolder = { owner: 'far', host: 'elsewhere', pid: await deadPid(), pidStart: null };
    expect(await env.store.claimFile(batch.id, 'f1', far, LEASE)).not.toBeNull();
    expect(await claims.take(batch.id, 'f1')).toBeNull();
    expect(await env.store.fileClaimHolder(batch.id, 'f1')).toMatchObject({ owner: 'far', fence: 2 });
  });
});

describe('a holder that lost its claim (stalled past its lease, taken over)', () => {
  /**
   * Downloader A (host `box-a`) claims the batch's one file and stalls before fetching it (its
   * client held at a gate, as a frozen process); B, on `takerHost`, finds A's lease run out (its
   * clock a minute ahead), takes the file over and records it; then A goes on.
   */
  async function stalledThenTaken(takerHost: string): Promise<{ batch: BatchRecord; outA: string; outB: string; summary: { downloaded: number } }> {
    env = await newEnv();
    const batch = await newBatch(env.store, 'stall', { a: 'q @files=md' });
    await runItems(env, batch);
    let reached!: () => void;
    const atGate = new Promise<void>((r) => (reached = r));
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const stalled: Pick<ServiceClient, 'openFile'> = {
      openFile: async (url, o) => {
        reached();
        await gate;
        return env.client.openFile(url, o);
      },
    };
    const outA = join(env.dir, 'out-a');
    const outB = join(env.dir, 'out-b');
    const a = new Downloader({ store: env.store, client: stalled, outDir: outA, host: 'box-a', ...fast });
    a.kick(batch);
    await atGate;
    const ahead = { now: () => systemClock.now() + 61_000, sleep: systemClock.sleep.bind(systemClock) };
    const b = new Downloader({ store: env.store, client: env.client, outDir: outB, host: takerHost, clock: ahead, ...fast });
    b.kick(batch);
    expect(await b.drain()).toMatchObject({ downloaded: 1 });
    open();
    return { batch, outA, outB, summary: await a.drain() };
  }

  it('stops its download as soon as a renewal finds its claim taken over: the file is fetched once in all', async () => {
    env = await newEnv();
    const batch = await newBatch(env.store, 'stop', { a: 'q @files=md' });
    await runItems(env, batch);
    let reached!: () => void;
    const atGate = new Promise<void>((r) => (reached = r));
    // Stalled before its request until its own download is stopped (a hang otherwise: the test times out).
    const stalled: Pick<ServiceClient, 'openFile'> = {
      openFile: async (url, o) => {
        reached();
        await new Promise<void>((r) => (o?.signal?.aborted ? r() : o?.signal?.addEventListener('abort', () => r(), { once: true })));
        return env.client.openFile(url, o);
      },
    };
    // A short lease, renewed every few milliseconds while the file is held.
    const a = new Downloader({ store: env.store, client: stalled, outDir: join(env.dir, 'out-a'), host: 'box-a', fileLeaseMs: 30, ...fast });
    a.kick(batch);
    await atGate;
    const ahead = { now: () => systemClock.now() + 61_000, sleep: systemClock.sleep.bind(systemClock) };
    const b = new Downloader({ store: env.store, client: env.client, outDir: join(env.dir, 'out-b'), host: 'box-b', clock: ahead, ...fast });
    b.kick(batch);
    expect(await b.drain()).toMatchObject({ downloaded: 1 });
    expect(await a.drain()).toMatchObject({ downloaded: 0, failed: 0, problems: [] });
    const [file] = await env.store.filesForBatch(batch.id);
    expect(file).toMatchObject({ status: 'downloaded', host: 'box-b' });
    expect(env.sim.counters().fileFetches).toEqual({ [file!.id]: 1 });
    expect(await env.store.fileCopies(batch.id)).toEqual([]);
    expect(listFiles(join(env.dir, 'out-a'))).toEqual([]);
  });

  it('on another host: the taker\'s record stands, the loser\'s bytes are its host\'s copy, which files status and files pull see', async () => {
    const { batch, outA, outB, summary } = await stalledThenTaken('box-b');
    expect(summary.downloaded).toBe(1);
    const [file] = await env.store.filesForBatch(batch.id);
    expect(file).toMatchObject({ status: 'downloaded', host: 'box-b' });
    expect(file!.path!.startsWith(outB)).toBe(true);
    const copies = await env.store.fileCopies(batch.id);
    expect(copies.map((c) => [c.fileId, c.host, c.sha256])).toEqual([[file!.id, 'box-a', file!.sha256]]);
    expect(copies[0]!.path.startsWith(outA)).toBe(true);
    // The stall is the fault: the file was fetched twice, and both copies are on record.
    expect(env.sim.counters().fileFetches).toEqual({ [file!.id]: 2 });

    const status = await filesStatus(env.store, batch, new Date(), undefined, 'box-c');
    expect(status.hosts).toEqual({ 'box-a': 1, 'box-b': 1 });
    expect(status.notHere).toBe(1);
    // box-a has its copy: nothing to fetch; box-c has none: it fetches its own.
    expect(await pullFiles({ store: env.store, client: env.client, batches: [batch], outDir: outA, host: 'box-a', ...fast })).toMatchObject({ downloaded: 0, skipped: 1, fromOtherHosts: {} });
    expect(await pullFiles({ store: env.store, client: env.client, batches: [batch], outDir: join(env.dir, 'out-c'), host: 'box-c', ...fast })).toMatchObject({ downloaded: 1, fromOtherHosts: { 'box-b': 1 } });
  });

  it('on the taker\'s host: its duplicate is not recorded and removed, the taker\'s file left alone', async () => {
    const { batch, outA, outB, summary } = await stalledThenTaken('box-a');
    expect(summary.downloaded).toBe(0);
    expect(await env.store.fileCopies(batch.id)).toEqual([]);
    const [file] = await env.store.filesForBatch(batch.id);
    // The loser did fetch and write it (the stall's cost); what it wrote is gone again.
    expect(env.sim.counters().fileFetches).toEqual({ [file!.id]: 2 });
    expect(file).toMatchObject({ status: 'downloaded', host: 'box-a' });
    expect(listFiles(outA)).toEqual([]);
    expect(listFiles(outB)).toHaveLength(1);
  });
});
