import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type BatchStore } from '../../src/store/index.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { sharedPgServer, type SharedPg } from '../support/pg-shared.js';
import { storeContract } from './contract.js';
import { countsContract } from './counts-contract.js';
import { fileClaimsContract } from './file-claims-contract.js';
import { threadWaitsContract } from './thread-waits-contract.js';
import { outboxContract } from './outbox-contract.js';
import { webSessionsContract } from './web-sessions-contract.js';
import { forecastsContract } from './forecasts-contract.js';
import { scoresContract } from './scores-contract.js';
import { budgetGroupContract } from './budget-group-contract.js';
import { pgWriteBarrier } from './write-barrier.js';
import { migratedTemplate } from '../support/pg-template.js';

/**
 * The store contract on the PostgreSQL adapter: a real server, a fresh database per test, each a
 * copy of one migrated once (postgres-migrations.test.ts migrates empty ones).
 */
let pg: SharedPg;
let n = 0;
let template: string;
beforeAll(async () => {
  pg = await sharedPgServer();
  template = await migratedTemplate(pg, 'contract_template');
}, 120_000);
afterAll(async () => pg?.stop());

storeContract('postgres', async () => PostgresStore.open(await pg.createDatabase(`contract_${n++}`, template)));
/** The URL each store was opened on, for the barrier's own connection. */
const urls = new WeakMap<object, string>();
const opened = async (): Promise<PostgresStore> => {
  const url = await pg.createDatabase(`contract_${n++}`, template);
  const store = await PostgresStore.open(url);
  urls.set(store, url);
  return store;
};
const barrier = pgWriteBarrier((store) => urls.get(store)!);
countsContract('postgres', opened, barrier);
threadWaitsContract('postgres', opened);
outboxContract('postgres', opened, barrier);
fileClaimsContract('postgres', opened, pgWriteBarrier((store) => urls.get(store)!, 'files'));
webSessionsContract('postgres', async () => pg.createDatabase(`contract_${n++}`, template), async (url) => PostgresStore.open(url));
forecastsContract('postgres', async () => PostgresStore.open(await pg.createDatabase(`contract_${n++}`, template)));
scoresContract('postgres', async () => PostgresStore.open(await pg.createDatabase(`contract_${n++}`, template)));
budgetGroupContract('postgres', async () => PostgresStore.open(await pg.createDatabase(`contract_${n++}`, template)));

// openStore on a postgres:// URL hands back the PostgreSQL adapter with every role (the
// contract checks the members), the answers listener included; a role-typed view of it works.
it('openStore gives the PostgreSQL adapter, answers listener included, usable through one role', async () => {
  const store = await openStore(await pg.createDatabase('port_roles'));
  try {
    expect(store).toBeInstanceOf(PostgresStore);
    expect(typeof store.onAnswered).toBe('function');
    const batches: BatchStore = store;
    expect(await batches.findBatch('no-such-batch')).toBeNull();
  } finally {
    await store.close();
  }
}, 60_000);


// Build point 2 of issue 32: every time the adapter writes (a batch's, an item's, a run's, a
// decision's, a file's) is its clock's, not the wall clock's: a store opened with a clock of
// its own writes that clock's times only.
it('every time the PostgreSQL adapter writes comes from its clock', async () => {
  let now = Date.parse('2001-02-03T04:05:06.000Z');
  const at = (): string => new Date(now).toISOString();
  const store = await PostgresStore.open(await pg.createDatabase('clock_writes'), { clock: { now: () => now, sleep: async () => {} } });
  try {
    const loader = await store.beginBatchLoad({
      id: 'b1', name: 'clocked', kind: 'runs', sourcePath: '/q.csv', sourceSha256: 'abc', baseUrl: null,
      settings: { concurrency: 2 } as never, policy: null,
    });
    for (const [seq, id] of ['a', 'b'].entries()) await loader.add({ id, seq, line: seq + 2, question: `q ${id}`, threadKey: null, meta: {} });
    await loader.commit([], 'abc');
    const loadedAt = at();
    expect((await store.findBatch('b1'))!.createdAt).toBe(loadedAt);
    expect((await store.getItem('b1', 'a'))!.updatedAt).toBe(loadedAt);

    now += 1000;
    const w = await store.registerWorker('b1', { host: 'h', pid: 1 });
    const claimed = await store.claimItems('b1', { workerId: w.id, leaseMs: 60_000, max: 2, cap: 2, afterSeq: -1 });
    const [a, b] = claimed.items;
    expect(claimed.items.map((i) => [i.startedAt, i.updatedAt, i.leaseUntil])).toEqual([[at(), at(), now + 60_000], [at(), at(), now + 60_000]]);

    now += 1000;
    const admitted = await store.markAdmitted(a!, { id: 'r1', status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: a!.pendingKey! });
    expect(admitted.updatedAt).toBe(at());
    expect((await store.getRun('r1'))!.createdAt).toBe(at());

    now += 1000;
    const paused = await store.markPaused(admitted, snapOf('r1', 'requires_action'), () => ({
      kind: 'answer', nextKey: 'k1',
      decision: { runId: 'r1', tool: 'confirm_scope', input: {}, answer: { ok: true }, by: 'policy', reason: 'test', cost: 1 },
    }));
    expect(paused.item.updatedAt).toBe(at());
    expect((await store.getRun('r1'))!.finishedAt).toBe(at());
    expect((await store.decisionsForItem('b1', 'a'))[0]!.decidedAt).toBe(at());

    now += 1000;
    const done = await store.markFinished(paused.item, snapOf('r1', 'completed'), 'completed');
    expect([done.finishedAt, done.updatedAt]).toEqual([at(), at()]);
    const failed = await store.markError('b1', 'b', 'boom', null, b);
    expect([failed!.finishedAt, failed!.updatedAt]).toEqual([at(), at()]);

    now += 1000;
    expect(await store.requeue('b1', ['b'], ['error'])).toEqual(['b']);
    expect((await store.getItem('b1', 'b'))!.updatedAt).toBe(at());
    await store.updateBatchSettings('b1', { concurrency: 3 } as never, null, null);
    expect((await store.findBatch('b1'))!.updatedAt).toBe(at());
  } finally {
    await store.close();
  }
}, 60_000);

function snapOf(id: string, status: string) {
  return {
    id, status, threadId: null, createdAt: '2001-01-01T00:00:00.000Z',
    requiredAction: status === 'requires_action' ? { type: 'tool', tool: 'confirm_scope', input: {} } : null,
    output: { text: `answer of ${id}`, tool_results: [] }, files: [],
  } as never;
}
