import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBatchStatus, readItemView, waitGroups, waitReason, forPersonCount, forPersonBehindThreads, type WaitContext } from '../../src/read/index.js';
import { sleep, type Clock } from '../../src/clock.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { BatchRecord } from '../../src/store/index.js';
import type { ThreadWaits } from '../../src/store/port.js';
import { tempDir } from '../support/cli.js';
import { snap } from '../store/snapshot.js';

// Why a queued item waits (issue 38): one answer, read once, for status, show, the page and the exit summary.

const live: WaitContext = { cancelled: false, liveWorkers: 1, inFlight: 1, cap: 4 };

describe('waitReason', () => {
  it('puts the thread first: an item behind a held item of its thread waits for a person even with slots free or the batch cancelled', () => {
    expect(waitReason(live, { behindState: 'held' })).toBe('thread-held');
    expect(waitReason({ ...live, cancelled: true }, { behindState: 'held' })).toBe('thread-held');
    expect(waitReason(live, { behindState: 'running' })).toBe('thread-running');
    expect(waitReason(live, { behindState: 'waiting' })).toBe('thread-running');
    expect(waitReason(live, { behindState: 'queued' })).toBe('thread-queued');
  });

  it('else says the batch cancelled, --limit or no worker, the cap full, or ready', () => {
    expect(waitReason({ ...live, cancelled: true }, null)).toBe('cancelled');
    expect(waitReason({ ...live, liveWorkers: 0 }, null)).toBe('no-worker');
    expect(waitReason({ ...live, liveWorkers: 0, limit: 2 }, null)).toBe('limit');
    expect(waitReason({ ...live, inFlight: 4 }, null)).toBe('cap');
    expect(waitReason(live, null)).toBe('ready');
  });
});

describe('waitGroups', () => {
  const threads: ThreadWaits = {
    byState: { held: 7, running: 1 },
    first: [
      { id: 'q302', threadKey: 'T-ünï', behindId: 'q301', behindState: 'held' },
      { id: 'q303', threadKey: 'T-ünï', behindId: 'q301', behindState: 'held' },
      { id: 'q305', threadKey: 'u', behindId: 'q304', behindState: 'running' },
      ...['a', 'b', 'c', 'd', 'e'].map((k) => ({ id: `z${k}`, threadKey: k, behindId: `y${k}`, behindState: 'held' as const })),
    ],
  };
  const firstQueued = ['q302', 'q303', 'q305', 'q306', 'q307', 'za'].map((id) => ({ id, threadKey: null }));

  it('counts each reason, names the first few with the item they wait behind, and groups the rest by the batch reason', () => {
    const g = waitGroups(10, firstQueued, threads, { ...live, inFlight: 4 });
    expect(g.map((x) => [x.reason, x.count, x.forPerson])).toEqual([
      ['thread-held', 7, true],
      ['thread-running', 1, false],
      ['cap', 2, false],
    ]);
    expect(g[0]!.text).toBe('7 queued behind held items of their thread: q302, q303 wait for q301 (held) in thread T-ünï; za waits for ya (held) in thread a; zb waits for yb (held) in thread b; zc waits for yc (held) in thread c and 2 more');
    expect(g[1]!.text).toBe('1 queued behind running items of their thread: q305 waits for q304 (running) in thread u');
    expect(g[2]!.text).toBe('2 queued behind the cap (4 in flight of 4): q306, q307');
    expect(forPersonCount(g)).toBe(7);
    expect(forPersonBehindThreads(threads)).toBe(7);
  });

  it('says --limit, no worker and a cancelled batch for the items not behind their thread, and nothing when none is queued', () => {
    expect(waitGroups(10, firstQueued, threads, { ...live, liveWorkers: 0, limit: 3 })[2]!.text).toBe('2 queued left by --limit 3: q306, q307');
    expect(waitGroups(10, firstQueued, threads, { ...live, liveWorkers: 0 })[2]).toMatchObject({ reason: 'no-worker', forPerson: true });
    expect(waitGroups(10, firstQueued, threads, { ...live, cancelled: true })[2]).toMatchObject({ reason: 'cancelled', count: 2, forPerson: true });
    expect(waitGroups(0, [], { byState: {}, first: [] }, live)).toEqual([]);
  });
});

describe('the status and item view of a batch whose thread waits for a held item (real SQLite)', () => {
  const dir = tempDir();
  const NOW = Date.parse('2026-11-01T00:00:00.000Z');
  // The store's clock moves 50 ms at each reading, so every run has a length: on the real
  // clock a warm process admitted and finished a run within one millisecond, and runs with no
  // length give no rate. The reads look from a second after the last write (AT).
  let tick = NOW;
  const clock: Clock = { now: () => (tick += 50), sleep };
  let AT = 0;
  let store: SqliteStore;
  let batch: BatchRecord;
  beforeAll(async () => {
    store = SqliteStore.open(join(dir, 'w.db'), { clock });
    const loader = await store.beginBatchLoad({
      id: 'bw', name: 'myset', kind: 'runs', sourcePath: '/q.csv', sourceSha256: 'sha', baseUrl: 'http://svc/api/v1', policy: null,
      settings: { concurrency: 4, follow: 'sse', download: { enabled: false, concurrency: 2, out: null }, pipelineFile: null, service: 'sim' },
    });
    const rows: [string, string | null][] = [['a', null], ['b', null], ['q301', 'T-ünï'], ['q302', 'T-ünï'], ['q303', 'T-ünï']];
    for (const [i, [id, threadKey]] of rows.entries()) await loader.add({ id, seq: i, line: i + 2, question: `${id}?`, threadKey: threadKey!, meta: {} });
    await loader.flush();
    await loader.commit([]);
    // A live worker (another host: never taken for a gone process of this one) ran a and b and holds q301.
    const wk = (await store.registerWorker('bw', { host: 'elsewhere', pid: 1 }, NOW)).id;
    const c = await store.claimItems('bw', { workerId: wk, leaseMs: 600_000, max: 3, cap: 4, afterSeq: -1, takeOver: [] }, NOW);
    for (const it of c.items) {
      const run = await store.markAdmitted(it, { id: `r-${it.id}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: it.pendingKey! });
      if (it.id === 'q301') await store.markPaused(run, snap('r-q301', { status: 'requires_action', requiredAction: { tool: 'confirm_scope', input: { cost: 5 } } }), () => ({ kind: 'hold', reason: 'a person decides' }));
      else await store.markFinished(run, snap(`r-${it.id}`, { createdAt: new Date(NOW - 2000).toISOString() }), 'completed');
    }
    batch = (await store.findBatch('bw'))!;
    AT = tick + 1000;
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('status counts the two behind q301 and names them; the ETA leaves them out and says how many', async () => {
    const s = await readBatchStatus(store, batch, { nowMs: AT });
    expect(s.liveWorkers).toBe(1);
    expect(s.ratePerS).not.toBeNull();
    expect(s.unfinished).toBe(2);
    expect(s.waiting).toEqual([
      {
        reason: 'thread-held',
        count: 2,
        forPerson: true,
        first: [
          { id: 'q302', threadKey: 'T-ünï', behindId: 'q301', behindState: 'held' },
          { id: 'q303', threadKey: 'T-ünï', behindId: 'q301', behindState: 'held' },
        ],
        text: '2 queued behind held items of their thread: q302, q303 wait for q301 (held) in thread T-ünï',
      },
    ]);
    // Every item left waits for a person: no time can be said — neither 0 (it is not done) nor
    // the time two items that cannot start would take.
    expect(s.etaLeavesOut).toBe(2);
    expect(s.etaS).toBeNull();
  });

  it('the item view of q302 names its thread and q301, with the command that shows it; an item not queued has no wait', async () => {
    const v = await readItemView(store, batch, 'q302', { nowMs: AT, hint: { db: 'x.db' } });
    expect(v.wait).toEqual({
      id: 'q302', threadKey: 'T-ünï', behindId: 'q301', behindState: 'held', reason: 'thread-held', forPerson: true,
      text: 'waits behind q301 (held) in its thread T-ünï: it starts once a person answers q301 and it ends (see resq show myset q301 --db x.db)',
    });
    expect((await readItemView(store, batch, 'q301', { nowMs: AT })).wait).toBeNull();
  });
});
