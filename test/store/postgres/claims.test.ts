import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import type { NewBatch } from '../../../src/store/shapes.js';
import { sharedPgServer, type SharedPg } from '../../support/pg-shared.js';
import { snap } from '../snapshot.js';

const B = 'pcb';
const BATCH: NewBatch = {
  id: B, name: 'claims', kind: 'runs', sourcePath: '/q.csv', sourceSha256: 'sha', baseUrl: 'http://svc/api/v1',
  settings: { concurrency: 4, follow: 'sse', download: { enabled: false, concurrency: 2, out: null }, pipelineFile: null, service: 'sim' }, policy: null,
};

let server: SharedPg;
beforeAll(async () => {
  server = await sharedPgServer();
}, 120_000);
afterAll(async () => server?.stop());

/**
 * A fresh database with the batch's four items (i0 and i1 one thread when `threaded`), its store
 * and a plain client on it; `body` runs with both, which are closed after.
 */
async function withBatch(db: string, threaded: boolean, body: (store: PostgresStore, c: pg.Client) => Promise<void>): Promise<void> {
  const url = await server.createDatabase(db);
  const store = await PostgresStore.open(url);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const loader = await store.beginBatchLoad(BATCH);
    for (let i = 0; i < 4; i++) await loader.add({ id: `i${i}`, seq: i, line: i + 2, question: `q${i}?`, threadKey: threaded && i < 2 ? 't' : null, meta: {} });
    await loader.flush();
    await loader.commit([]);
    await body(store, c);
  } finally {
    await c.end();
    await store.close();
  }
}

describe('PostgreSQL claims', () => {
  it('a claim writes the flight alone: the item rows not written at all (same row versions), the queued readers leave them out, the end lands the start on the row', async () => {
    await withBatch('claims_writes_flight', true, async (store, c) => {
      // A row's version (ctid, xmin) changes with any write of it, whatever it writes.
      const versions = async (): Promise<unknown[]> => (await c.query('SELECT id, ctid::text, xmin::text, state FROM items ORDER BY seq')).rows;
      const before = await versions();
      const w = (await store.registerWorker(B, { host: 'h', pid: 1 })).id;
      const got = await store.claimItems(B, { workerId: w, leaseMs: 60_000, max: 4, cap: 4, afterSeq: -1 });
      expect(got.items.map((i) => [i.id, i.state])).toEqual([['i0', 'submitting'], ['i2', 'submitting'], ['i3', 'submitting']]);
      expect(await versions()).toEqual(before);
      const i0 = (await store.getItem(B, 'i0'))!;
      expect(i0).toMatchObject({ state: 'submitting', owner: w, fence: 1, startedAt: got.items[0]!.startedAt, pendingKey: got.items[0]!.pendingKey });
      expect(i0.startedAt).not.toBeNull();
      expect(await store.itemCounts(B)).toMatchObject({ queued: 1, submitting: 3 });
      expect((await store.listItems(B, { states: ['queued'] })).map((i) => i.id)).toEqual(['i1']);
      expect((await store.listItems(B, { states: ['submitting'] })).map((i) => i.id)).toEqual(['i0', 'i2', 'i3']);
      expect(await store.claimItems(B, { workerId: w, leaseMs: 60_000, max: 4, cap: 8, afterSeq: -1 })).toMatchObject({ items: [] });
      expect(await store.claimNextInThread(B, 't', 0, { workerId: w, leaseMs: 60_000, cap: 8 })).toBeNull();
      expect(await store.cancelBatch(B)).toBe(1);
      const ran = await store.markAdmitted(got.items[0]!, { id: 'r0', status: 'running', threadId: 'th', step: 0, parentRunId: null, idempotencyKey: got.items[0]!.pendingKey! });
      expect(await store.markFinished(ran, snap('r0'), 'completed')).toMatchObject({ state: 'completed', startedAt: i0.startedAt, fence: 1 });
      expect((await c.query("SELECT state, started_at, fence::int FROM items WHERE id = 'i0'")).rows).toEqual([{ state: 'completed', started_at: i0.startedAt, fence: 1 }]);
      expect(await store.itemCounts(B)).toMatchObject({ queued: 0, submitting: 2, completed: 1, cancelled: 1 });
    });
  });

  it('a takeover that could not write one of its flights takes none: the claim fails whole, every flight still the dead worker\'s', async () => {
    await withBatch('claims_takeover_whole', false, async (store, c) => {
      const w1 = (await store.registerWorker(B, { host: 'h', pid: 1 })).id;
      const w2 = (await store.registerWorker(B, { host: 'h', pid: 2 })).id;
      const now = Date.now();
      await store.claimItems(B, { workerId: w1, leaseMs: 1_000, max: 4, cap: 4, afterSeq: -1 }, now);
      // The fault: i2's flight refuses the takeover's write (the statement goes on, that row unwritten).
      const key = Number((await c.query("SELECT key FROM items WHERE id = 'i2'")).rows[0].key);
      await c.query('CREATE FUNCTION keep_i2() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$');
      await c.query(`CREATE TRIGGER keep_i2 BEFORE UPDATE OF owner ON flights FOR EACH ROW WHEN (old.item_key = ${key}) EXECUTE FUNCTION keep_i2()`);
      const owners = async (): Promise<unknown[]> => (await c.query('SELECT owner, fence::int FROM flights ORDER BY item_key')).rows;
      const before = await owners();
      expect(before).toHaveLength(4);
      await expect(store.claimItems(B, { workerId: w2, leaseMs: 60_000, max: 4, cap: 4, afterSeq: 3 }, now + 2_000)).rejects.toThrow('takeover wrote 3 of 4 flights');
      expect(await owners()).toEqual(before);
      await c.query('DROP TRIGGER keep_i2 ON flights');
      expect((await store.claimItems(B, { workerId: w2, leaseMs: 60_000, max: 4, cap: 4, afterSeq: 3 }, now + 2_000)).items.map((i) => i.owner)).toEqual([w2, w2, w2, w2]);
    });
  });
});
