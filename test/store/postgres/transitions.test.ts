import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import type { NewBatch, PauseOutcome } from '../../../src/store/shapes.js';
import type { ItemRecord } from '../../../src/store/types.js';
import { sharedPgServer, type SharedPg } from '../../support/pg-shared.js';
import { snap } from '../snapshot.js';

// The PostgreSQL adapter's transitions under concurrency: decisions on a batch and on a batch
// that spends with it (an agent judge's companion batch) take one lock, the group leader's row.

const BUDGET = 10;
const batch = (id: string, spendsWith?: string): NewBatch => ({
  id, name: id, kind: 'runs', sourcePath: '/q.csv', sourceSha256: 'sha', baseUrl: null, policy: null,
  settings: { concurrency: 2, follow: 'sse', download: { enabled: false, concurrency: 1, out: null }, pipelineFile: null, service: 'sim' },
  ...(spendsWith === undefined ? {} : { spendsWith }),
});

let server: SharedPg;
beforeAll(async () => {
  server = await sharedPgServer();
}, 120_000);
afterAll(async () => server?.stop());

/** Item `a` of `batchId` claimed and running run `r-<batchId>`. */
async function running(store: PostgresStore, batchId: string): Promise<ItemRecord> {
  const w = (await store.registerWorker(batchId, { host: 'h', pid: 1 })).id;
  const it = (await store.claimItems(batchId, { workerId: w, leaseMs: 60_000, max: 1, cap: 1, afterSeq: -1 })).items[0]!;
  return store.markAdmitted(it, { id: `r-${batchId}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: it.pendingKey! });
}

/** A plan of `cost` approved when the spend the store hands over leaves room for it in BUDGET, else held. */
const withinBudget = (runId: string, cost: number, seen: number[]) => (spent: number): PauseOutcome => {
  seen.push(spent);
  if (spent + cost > BUDGET) return { kind: 'hold', reason: 'over budget' };
  return { kind: 'answer', nextKey: `k-${runId}`, decision: { runId, tool: 'confirm_scope', input: { cost }, answer: { approved: true }, by: 'policy', reason: 'fits', cost } };
};

describe('PostgreSQL transitions: a budget group decides under one lock', () => {
  it('a decision on the parent and one on its judge at once wait on the leader\'s row, and never both spend the last of the budget', async () => {
    const url = await server.createDatabase('transitions_budget_group_race');
    // Two stores: two machines' workers, one on the parent, one on the judge.
    const [one, two] = [await PostgresStore.open(url), await PostgresStore.open(url)];
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      for (const [id, spendsWith] of [['P', undefined], ['J', 'P']] as const) {
        const loader = await one.beginBatchLoad(batch(id, spendsWith));
        await loader.add({ id: 'a', seq: 0, line: 2, question: 'q', threadKey: null, meta: {} });
        await loader.commit([]);
      }
      const [p, j] = [await running(one, 'P'), await running(two, 'J')];
      // The leader's row held from another connection: both decisions must queue behind it.
      await admin.query('BEGIN');
      await admin.query("SELECT 1 FROM batches WHERE id = 'P' FOR NO KEY UPDATE");
      const seen: number[] = [];
      let settled = 0;
      const decisions = [
        one.markPaused(p, snap('r-P', { status: 'requires_action' }), withinBudget('r-P', 6, seen)),
        two.markPaused(j, snap('r-J', { status: 'requires_action' }), withinBudget('r-J', 6, seen)),
      ].map((d) => d.finally(() => settled++));
      const waiting = async (): Promise<number> =>
        (await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")).rows[0]!.n;
      let both = false;
      for (let i = 0; i < 200 && !both; i++) {
        both = (await waiting()) >= 2;
        if (!both) await new Promise((r) => setTimeout(r, 50));
      }
      expect(both, 'the parent\'s and the judge\'s decisions both wait on the leader\'s row').toBe(true);
      expect(settled).toBe(0);
      await admin.query('COMMIT');
      const outcomes = (await Promise.all(decisions)).map((d) => d.outcome.kind).sort();
      expect(outcomes).toEqual(['answer', 'hold']);
      // The second to decide saw the first's spend, whichever it was.
      expect(seen).toEqual([0, 6]);
      expect(await one.budgetSpent('P')).toBe(6);
      expect((await one.approvedCost('P')) + (await one.approvedCost('J'))).toBe(6);
    } finally {
      await admin.end().catch(() => {});
      await one.close();
      await two.close();
    }
  });

  it("a person's spending answer on the judge, held to no budget, waits for the leader's row before it locks the judge's: every writer locks the two in one order", async () => {
    const url = await server.createDatabase('transitions_budget_group_order');
    const store = await PostgresStore.open(url);
    const admin = new pg.Client({ connectionString: url });
    const probe = new pg.Client({ connectionString: url });
    await Promise.all([admin.connect(), probe.connect()]);
    try {
      const notify = { urls: ['http://127.0.0.1:9/hook'], format: 'json' as const, includeQuestion: false, pageUrl: null, digestMs: 300_000, remindMs: null, stalledMs: null };
      for (const [id, spendsWith] of [['P', undefined], ['J', 'P']] as const) {
        const b = batch(id, spendsWith);
        // The parent told of its budget: the budget trigger reads (and locks) its row.
        const loader = await store.beginBatchLoad(id === 'P' ? { ...b, settings: { ...b.settings, notify }, policy: { confirm_scope: { approve_max_cost: 0, batch_budget: BUDGET } } } : b);
        await loader.add({ id: 'a', seq: 0, line: 2, question: 'q', threadKey: null, meta: {} });
        await loader.commit([]);
      }
      const j = await running(store, 'J');
      await store.markPaused(j, snap('r-J', { status: 'requires_action' }), () => ({ kind: 'hold', reason: 'a person decides' }));
      await admin.query('BEGIN');
      await admin.query("SELECT 1 FROM batches WHERE id = 'P' FOR NO KEY UPDATE");
      const answered = store.answerHeld('J', 'a', { runId: 'r-J', tool: 'confirm_scope', input: { cost: 4 }, answer: { approved: true }, by: 'person', reason: null, cost: 4 }, 'k');
      const waiting = async (): Promise<number> =>
        (await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")).rows[0]!.n;
      let waits = false;
      for (let i = 0; i < 200 && !waits; i++) {
        waits = (await waiting()) >= 1;
        if (!waits) await new Promise((r) => setTimeout(r, 50));
      }
      expect(waits, "the answer waits for the leader's row").toBe(true);
      // Waiting, it holds no lock on the judge's row: a lock of it is granted at once.
      await probe.query('BEGIN');
      await expect(probe.query("SELECT 1 FROM batches WHERE id = 'J' FOR NO KEY UPDATE NOWAIT")).resolves.toMatchObject({ rowCount: 1 });
      await probe.query('ROLLBACK');
      await admin.query('COMMIT');
      expect(await answered).toEqual({ overBudget: false });
      expect(await store.budgetSpent('P')).toBe(4);
    } finally {
      await Promise.all([admin.end().catch(() => {}), probe.end().catch(() => {})]);
      await store.close();
    }
  });
});
