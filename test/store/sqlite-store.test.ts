import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LeaseLostError } from '../../src/errors.js';
import type { BatchSettings, ItemRecord, RunSnapshot, Store } from '../../src/store/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';
import type { Clock } from '../../src/clock.js';

/** The SQLite adapter through the store port (the raw handle only for what the port does not show). */

const settings: BatchSettings = {
  concurrency: 4,
  follow: 'sse',
  download: { enabled: false, concurrency: 2, out: null },
  pipelineFile: null,
  service: 'url',
};

const lease = { workerId: 'w1', leaseMs: 60_000 };

async function newStore(clock?: Clock): Promise<SqliteStore> {
  const store = SqliteStore.open(':memory:', clock ? { clock } : {});
  const loader = await store.beginBatchLoad({
    id: 'b1',
    name: 'batch-one',
    kind: 'runs',
    sourcePath: '/q.csv',
    sourceSha256: 'abc',
    baseUrl: 'http://x/api/v1',
    settings,
    policy: null,
  });
  await loader.add({ id: 'a', seq: 0, line: 2, question: 'first?', threadKey: 't', meta: { topic: 'x' } });
  await loader.add({ id: 'b', seq: 1, line: 3, question: 'second?', threadKey: 't', meta: {} });
  await loader.add({ id: 'c', seq: 2, line: 4, question: 'third?', threadKey: null, meta: {} });
  await loader.commit([]);
  return store;
}

async function item(store: Store, id: string): Promise<ItemRecord> {
  const it = await store.getItem('b1', id);
  if (!it) throw new Error('missing');
  return it;
}

/** Claims the queued items the batch hands out (one at a time per thread: a and c). */
async function claim(store: Store): Promise<ItemRecord[]> {
  return (await store.claimItems('b1', { ...lease, max: 10, cap: 10, afterSeq: -1 })).items;
}

function snap(over: Partial<RunSnapshot> = {}): RunSnapshot {
  return {
    id: 'r1',
    status: 'completed',
    threadId: 'th1',
    createdAt: '2026-01-01T00:00:00.000Z',
    requiredAction: null,
    output: { text: 'answer', tool_results: [] },
    files: [{ id: 'f1', url: 'http://x/api/v1/files/f1', role: 'report', name: 'r.md', tool: 'write_report' }],
    ...over,
  };
}

describe('SqliteStore', () => {
  it('loads a batch in one transaction and rolls back to nothing', async () => {
    const store = await newStore();
    expect((await store.findBatch('batch-one'))?.totalItems).toBe(3);
    const loader = await store.beginBatchLoad({
      id: 'b2',
      name: 'two',
      kind: 'runs',
      sourcePath: '/q',
      sourceSha256: 'x',
      baseUrl: null,
      settings,
      policy: null,
    });
    await loader.add({ id: 'z', seq: 0, line: 2, question: 'q', threadKey: null, meta: {} });
    await loader.rollback();
    expect(await store.findBatch('two')).toBeNull();
    expect(await store.listItems('b2')).toEqual([]);
    // Only batch-one's three rows are left: none of b2's (whatever num it had) outlived the rollback.
    expect(store.db.prepare('SELECT count(*) FROM items').pluck().get()).toBe(3);
    await store.close();
  });

  it('adds rows column by column, refusing taken ids with the line of the first, in one transaction', async () => {
    const store = await newStore();
    const loader = await store.beginBatchLoad({ id: 'b3', name: 'cols', kind: 'runs', sourcePath: '/q', sourceSha256: 'x', baseUrl: null, settings, policy: null });
    const n = 600;
    const ids = Array.from({ length: n }, (_, i) => (i === 300 ? 'r5' : `r${i}`));
    const cols = { ids, lines: ids.map((_, i) => i + 2), questions: ids.map((_, i) => `q${i}`), threads: ids.map(() => null), metas: ids.map((_, i) => JSON.stringify({ i })) };
    await loader.add({ id: 'before', seq: 0, line: 1, question: 'buffered first', threadKey: null, meta: {} });
    const refused = await loader.addColumns(cols, 1);
    expect(refused.map((d) => [d.item.id, d.item.line, d.firstLine])).toEqual([['r5', 302, 7]]);
    expect(await loader.commit([])).toBe(n);
    const stored = await store.listItems('b3');
    expect(stored.map((it) => it.seq)).toEqual([...Array.from({ length: 301 }, (_, i) => i), ...Array.from({ length: n - 301 }, (_, i) => i + 302)]);
    expect(stored[0]).toMatchObject({ id: 'before', question: 'buffered first' });
    expect(stored[1]).toMatchObject({ id: 'r0', line: 2, meta: { i: 0 } });
    await store.close();
  });

  it('a bulk load goes through a rollback journal and puts WAL back, whether it commits or not', async () => {
    const path = join(tempDir(), 'bulk.db');
    const store = SqliteStore.open(path);
    const mode = (): unknown => store.db.pragma('journal_mode', { simple: true });
    const load = async (id: string) => {
      const loader = await store.beginBatchLoad({ id, name: id, kind: 'runs', sourcePath: '/q', sourceSha256: 'x', baseUrl: null, settings, policy: null }, { bulk: true });
      expect(mode()).toBe('delete');
      await loader.add({ id: 'a', seq: 0, line: 2, question: 'q', threadKey: null, meta: {} });
      return loader;
    };
    await (await load('kept')).commit([]);
    expect(mode()).toBe('wal');
    await (await load('dropped')).rollback();
    expect(mode()).toBe('wal');
    expect((await store.listBatches()).map((b) => b.name)).toEqual(['kept']);
    await store.close();
  });

  it('a bulk load beside another open connection goes through the WAL at once (no wait for the busy timeout)', async () => {
    const path = join(tempDir(), 'shared.db');
    const store = SqliteStore.open(path);
    const other = new Database(path);
    other.prepare('SELECT count(*) FROM batches').get();
    // A busy timeout of ~24 days: had the switch waited it out, the test would time out, not pass.
    const forever = 2 ** 31 - 1;
    store.db.pragma(`busy_timeout = ${forever}`);
    const loader = await store.beginBatchLoad({ id: 'b', name: 'b', kind: 'runs', sourcePath: '/q', sourceSha256: 'x', baseUrl: null, settings, policy: null }, { bulk: true });
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    // The busy timeout is back as it was.
    expect(store.db.pragma('busy_timeout', { simple: true })).toBe(forever);
    await loader.add({ id: 'a', seq: 0, line: 2, question: 'q', threadKey: null, meta: {} });
    await loader.commit([]);
    expect(other.prepare('SELECT count(*) FROM items').pluck().get()).toBe(1);
    other.close();
    await store.close();
  });

  it('stores the key when claiming and records the run chain with parent links', async () => {
    const store = await newStore();
    const claimed = await claim(store);
    expect(claimed.map((i) => i.id)).toEqual(['a', 'c']);
    const a0 = await item(store, 'a');
    expect(a0).toMatchObject({ state: 'submitting', owner: 'w1' });
    expect(a0.pendingKey).toEqual(expect.any(String));
    const key0 = a0.pendingKey!;
    await store.markAdmitted(a0, { id: 'r1', status: 'running', threadId: 'th1', step: 0, parentRunId: null, idempotencyKey: key0 });
    expect(await item(store, 'a')).toMatchObject({ state: 'running', runId: 'r1', threadId: 'th1', pendingKey: null });

    const paused = snap({ status: 'requires_action', requiredAction: { tool: 'confirm_scope', input: { cost: 3 } }, files: [] });
    const { outcome } = await store.markPaused(await item(store, 'a'), paused, (approved) => {
      expect(approved).toBe(0);
      return {
        kind: 'answer',
        nextKey: 'key-1',
        decision: { runId: 'r1', tool: 'confirm_scope', input: { cost: 3 }, answer: { approved: true }, by: 'policy', reason: 'cheap', cost: 3 },
      };
    });
    expect(outcome.kind).toBe('answer');
    expect(await item(store, 'a')).toMatchObject({ state: 'waiting', step: 1, pendingKey: 'key-1', pendingAnswer: { approved: true }, owner: 'w1' });
    expect(await store.approvedCost('b1')).toBe(3);

    await store.markAdmitted(await item(store, 'a'), { id: 'r2', status: 'running', threadId: 'th1', step: 1, parentRunId: 'r1', idempotencyKey: 'key-1' });
    await store.markFinished(await item(store, 'a'), snap({ id: 'r2' }), 'completed');
    expect(await item(store, 'a')).toMatchObject({ state: 'completed', text: 'answer', runStatus: 'completed', owner: null, leaseUntil: null });
    expect((await store.runChain('b1', 'a')).map((r) => [r.id, r.parentRunId, r.step, r.idempotencyKey])).toEqual([
      ['r1', null, 0, key0],
      ['r2', 'r1', 1, 'key-1'],
    ]);
    const f = await store.filesForItem('b1', 'a');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ id: 'f1', status: 'pending', expiresAt: '2026-01-31T00:00:00.000Z' });
    await store.close();
  });

  it("keeps the thread's run id for the thread's next item", async () => {
    const store = await newStore();
    await claim(store);
    await store.markAdmitted(await item(store, 'a'), { id: 'r1', status: 'running', threadId: 'th1', step: 0, parentRunId: null, idempotencyKey: 'k' });
    await store.markFinished(await item(store, 'a'), snap(), 'completed');
    const b = await store.claimNextInThread('b1', 't', 0, { ...lease, cap: 10 });
    expect(b).toMatchObject({ id: 'b', state: 'submitting', threadId: 'th1' });
    await store.close();
  });

  it('writes every time from its injected clock: the batch, the item, its runs, decisions and files, the migration', async () => {
    // A clock far from the wall clock: any time the adapter took elsewhere would show.
    let now = Date.parse('2001-02-03T04:05:06.000Z');
    const clock: Clock = { now: () => now, sleep: async () => {} };
    const store = await newStore(clock);
    const at = (ms: number): string => new Date(ms).toISOString();
    const t0 = now;
    const [a] = await claim(store);
    now += 1000;
    const admitted = await store.markAdmitted(a!, { id: 'r1', status: 'running', threadId: 'th1', step: 0, parentRunId: null, idempotencyKey: a!.pendingKey! });
    expect(admitted.updatedAt).toBe(at(t0 + 1000));
    now += 1000;
    await store.markPaused(admitted, snap({ status: 'requires_action', requiredAction: { tool: 'x', input: {} }, files: [] }), () => ({
      kind: 'answer',
      nextKey: 'k1',
      decision: { runId: 'r1', tool: 'x', input: {}, answer: { approved: true }, by: 'policy', reason: 'ok', cost: 0 },
    }));
    now += 1000;
    const waiting = await item(store, 'a');
    const again = await store.markAdmitted(waiting, { id: 'r2', status: 'running', threadId: 'th1', step: 1, parentRunId: 'r1', idempotencyKey: 'k1' });
    now += 1000;
    const done = await store.markFinished(again, snap({ id: 'r2' }), 'completed');
    expect(done).toMatchObject({ state: 'completed', finishedAt: at(t0 + 4000), updatedAt: at(t0 + 4000), startedAt: at(t0) });
    expect(await item(store, 'a')).toEqual(done);
    const db = store.db;
    expect(db.prepare("SELECT created_at, updated_at FROM batches WHERE id = 'b1'").get()).toEqual({ created_at: at(t0), updated_at: at(t0) });
    expect(db.prepare("SELECT id, created_at, finished_at FROM runs WHERE batch_num = (SELECT num FROM batches WHERE id = 'b1') ORDER BY created_at").all()).toEqual([
      { id: 'r1', created_at: at(t0 + 1000), finished_at: at(t0 + 2000) },
      { id: 'r2', created_at: at(t0 + 3000), finished_at: at(t0 + 4000) },
    ]);
    expect(db.prepare('SELECT decided_at FROM decisions').pluck().all()).toEqual([at(t0 + 2000)]);
    expect(db.prepare('SELECT first_seen_at FROM files').pluck().all()).toEqual([at(t0 + 4000)]);
    expect(new Set(db.prepare('SELECT applied_at FROM _migrations').pluck().all())).toEqual(new Set([at(t0)]));
    await store.close();
  });

  it('refuses a transition from a worker whose lease another worker took over', async () => {
    const store = await newStore();
    await claim(store);
    const mine = await item(store, 'c');
    // The same item passed back with the same owner works.
    await store.markAdmitted(mine, { id: 'r9', status: 'running', threadId: 'th9', step: 0, parentRunId: null, idempotencyKey: 'k0' });
    await store.retireWorker('w1');
    const taken = await store.claimItems('b1', { workerId: 'w2', leaseMs: 60_000, max: 10, cap: 10, afterSeq: 2 });
    // Both of w1's items (a submitting, c running) pass to w2.
    expect(taken.items.map((i) => [i.id, i.owner])).toEqual([
      ['a', 'w2'],
      ['c', 'w2'],
    ]);
    await expect(store.markFinished(await item(store, 'c').then((i) => ({ ...i, owner: 'w1' })), snap({ id: 'r9' }), 'completed')).rejects.toThrow(
      LeaseLostError,
    );
    expect(await item(store, 'c')).toMatchObject({ state: 'running', owner: 'w2' });
    await store.close();
  });

  it('holds a pause and takes a person answer once', async () => {
    const store = await newStore();
    await claim(store);
    await store.markAdmitted(await item(store, 'c'), { id: 'r9', status: 'running', threadId: 'th9', step: 0, parentRunId: null, idempotencyKey: 'k0' });
    await store.markPaused(
      await item(store, 'c'),
      snap({ id: 'r9', status: 'requires_action', requiredAction: { tool: 'x', input: {} }, files: [] }),
      () => ({ kind: 'hold', reason: 'unknown tool' }),
    );
    expect(await item(store, 'c')).toMatchObject({ state: 'held', holdReason: 'unknown tool', owner: null });
    const decision = { runId: 'r9', tool: 'x', input: {}, answer: { approved: true }, by: 'person' as const, reason: null, cost: 0 };
    await store.answerHeld('b1', 'c', decision, 'k1');
    expect(await item(store, 'c')).toMatchObject({ state: 'waiting', pendingKey: 'k1' });
    await expect(store.answerHeld('b1', 'c', decision, 'k1')).rejects.toThrow(/not held/);
    expect(await store.decisionsForItem('b1', 'c')).toMatchObject([{ by: 'person', answer: { approved: true } }]);
    await store.close();
  });

  it('knows thread order and counts states', async () => {
    const store = await newStore();
    // b waits behind a, the unfinished item before it in thread t.
    expect((await claim(store)).map((i) => i.id)).toEqual(['a', 'c']);
    expect(await store.claimNextInThread('b1', 't', 0, { ...lease, cap: 10 })).toBeNull();
    await store.markError('b1', 'a', 'HTTP 400');
    expect((await store.claimNextInThread('b1', 't', 0, { ...lease, cap: 10 }))?.id).toBe('b');
    expect(await store.itemCounts('b1')).toMatchObject({ error: 1, submitting: 2, queued: 0 });
    await store.close();
  });

  it('records a file reference once, with expiry from first sight when the run has no time', async () => {
    const store = await newStore();
    await claim(store);
    const a = await item(store, 'a');
    await store.markAdmitted(a, { id: 'r1', status: 'running', threadId: 'th1', step: 0, parentRunId: null, idempotencyKey: 'k' });
    const before = Date.now();
    await store.markPaused(
      await item(store, 'a'),
      snap({ status: 'requires_action', createdAt: null, requiredAction: { tool: 'x', input: {} }, files: [{ id: 'f', url: 'u' }] }),
      () => ({ kind: 'answer', nextKey: 'k1', decision: { runId: 'r1', tool: 'x', input: {}, answer: {}, by: 'policy', reason: null, cost: 0 } }),
    );
    const after = Date.now();
    await store.markAdmitted(await item(store, 'a'), { id: 'r2', status: 'running', threadId: 'th1', step: 1, parentRunId: 'r1', idempotencyKey: 'k1' });
    await store.markFinished(await item(store, 'a'), snap({ id: 'r2', createdAt: '2026-03-01T00:00:00Z', files: [{ id: 'f', url: 'u2' }] }), 'completed');
    const files = await store.filesForItem('b1', 'a');
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ runId: 'r1', url: 'u' });
    const expires = Date.parse(files[0]!.expiresAt);
    const days30 = 30 * 24 * 3600 * 1000;
    expect(expires).toBeGreaterThanOrEqual(before + days30 - 1000);
    expect(expires).toBeLessThanOrEqual(after + days30 + 1000);
    await store.close();
  });
});
