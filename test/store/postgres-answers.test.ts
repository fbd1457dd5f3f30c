import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchSettings } from '../../src/store/types.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { sharedPgServer, type SharedPg } from '../support/pg-shared.js';

// LISTEN/NOTIFY of the PostgreSQL adapter: a person's answer given on another connection
// (another machine's `resq answer`) wakes the listeners of that batch, and the listening
// connection neither keeps the store from closing nor crashes the process when it breaks.

const settings: BatchSettings = { concurrency: 2, follow: 'sse', download: { enabled: false, concurrency: 1, out: null }, pipelineFile: null, service: 'url' };
/** A person's answer to item `id`'s paused run (one decision per paused run). */
const decision = (id: string) => ({ runId: `r-${id}`, tool: 'x', input: {}, answer: { approved: true }, by: 'person' as const, reason: null, cost: 0 });

let server: SharedPg;
let n = 0;
beforeAll(async () => {
  server = await sharedPgServer();
}, 120_000);
afterAll(async () => server?.stop());

/** A store on a fresh database with batch b1 whose items are all held. */
async function heldBatch(items: number): Promise<{ url: string; store: PostgresStore }> {
  const url = await server.createDatabase(`answers_${n++}`);
  const store = await PostgresStore.open(url);
  const loader = await store.beginBatchLoad({ id: 'b1', name: 'b1', kind: 'runs', sourcePath: '/q', sourceSha256: 'x', baseUrl: null, settings, policy: null });
  for (let i = 0; i < items; i++) await loader.add({ id: `q${i}`, seq: i, line: i + 2, question: 'q', threadKey: null, meta: {} });
  await loader.commit([]);
  const lease = { workerId: 'w', leaseMs: 60_000 };
  for (const it of (await store.claimItems('b1', { ...lease, max: items, cap: items, afterSeq: -1 })).items) {
    const running = await store.markAdmitted(it, { id: `r-${it.id}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: it.pendingKey! });
    const paused = { id: `r-${it.id}`, status: 'requires_action', threadId: null, createdAt: null, requiredAction: { tool: 'x', input: {} }, output: null, files: [] };
    await store.markPaused(running, paused, () => ({ kind: 'hold', reason: 'a person decides' }));
  }
  return { url, store };
}

/** Resolves when `cb` has been called `times` times. */
function calls(times: number): { cb: () => void; done: Promise<void>; count: () => number } {
  let k = 0;
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  return { cb: () => ++k >= times && resolve(), done, count: () => k };
}

describe('PostgreSQL: answers announced with LISTEN/NOTIFY', () => {
  it('an answer from another connection wakes the listeners of its batch, once each, and no other', async () => {
    const { url, store } = await heldBatch(1);
    const other = await PostgresStore.open(url);
    try {
      const mine = calls(1);
      const also = calls(1);
      const elsewhere = calls(1);
      store.onAnswered('b1', mine.cb);
      store.onAnswered('b1', also.cb);
      store.onAnswered('b2', elsewhere.cb);
      await store.listening();
      await other.answerHeld('b1', 'q0', decision('q0'), 'k1');
      await Promise.all([mine.done, also.done]);
      expect([mine.count(), also.count(), elsewhere.count()]).toEqual([1, 1, 0]);
    } finally {
      await other.close();
      await store.close();
    }
  });

  it('several subscriptions made at once share one connection: close() ends it (it used to wait forever)', async () => {
    const { url, store } = await heldBatch(1);
    const stops = [store.onAnswered('b1', () => {}), store.onAnswered('b1', () => {}), store.onAnswered('b2', () => {})];
    await store.listening();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const listeners = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'resq-listen' AND datname = current_database()`);
      expect(listeners.rows[0].n, 'connections listening').toBe(1);
    } finally {
      await admin.end();
    }
    stops[0]!();
    const closed = await Promise.race([store.close().then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open after 10 s'), 10_000))]);
    expect(closed).toBe('closed');
  });

  it('a broken listening connection is replaced, with no unhandled error, and answers are heard again', async () => {
    const { url, store } = await heldBatch(2);
    const other = await PostgresStore.open(url);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const heard = calls(1);
      store.onAnswered('b1', heard.cb);
      await store.listening();
      const killed = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'resq-listen' AND datname = current_database()");
      expect(killed.rowCount).toBe(1);
      // Lost while no connection listens: the runner's poll would find it.
      await other.answerHeld('b1', 'q0', decision('q0'), 'k1');
      // The listener comes back after a pause; announce until it hears.
      const deadline = Date.now() + 20_000;
      while (heard.count() === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        await admin.query("SELECT pg_notify('resq_answered', 'b1')");
      }
      expect(heard.count()).toBeGreaterThanOrEqual(1);
      // And a real answer is heard on the new connection.
      const again = calls(1);
      store.onAnswered('b1', again.cb);
      await other.answerHeld('b1', 'q1', decision('q1'), 'k2');
      await again.done;
    } finally {
      await admin.end();
      await other.close();
      await store.close();
    }
  });
});
