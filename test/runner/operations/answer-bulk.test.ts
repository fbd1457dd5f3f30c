import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePolicy } from '../../../src/config/index.js';
import { InputError, OverBudgetError } from '../../../src/errors.js';
import { answerWaiting } from '../../support/answer-waiting.js';
import { answerHeldItems } from '../../../src/runner/operations/answer-bulk.js';
import { BatchRunner, loadBatch } from '../../../src/runner/index.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore, type BatchRecord, type Store } from '../../../src/store/index.js';
import { PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { tempDir } from '../../support/cli.js';
import { testClient, testSettings } from '../../support/in-process.js';
import { pgAvailable } from '../../support/pg-server.js';
import { sharedPgServer } from '../../support/pg-shared.js';
import { spendWith } from '../../support/spending-with.js';

describe('answerHeldItems: one decision per selected held item', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
  });
  afterAll(async () => sim.close());

  /** Plans over 50 held by the policy; `twice` pauses again on a choice once its plan is answered. */
  async function heldBatch(): Promise<{ store: Store; batch: BatchRecord; run: () => Promise<void> }> {
    const dir = tempDir();
    const questions = join(dir, 'q.csv');
    writeFileSync(questions, 'id,question,lab\nok,plan @confirm=5,x\na,plan @confirm=60,x\nb,plan @confirm=70,y\nc,plan @confirm=80,x\ntwice,plan @confirm=90 @choice,x\npick,pick @choice,x\nplain,plain question,z\n');
    const store = await openStore(join(dir, 'resq.db'));
    const policy = parsePolicy({ confirm_scope: { approve_max_cost: 50 } }, 'policy.yaml');
    const { batch } = await loadBatch({ store, questions, settings: testSettings(4), policy, baseUrl: sim.url });
    const run = async () => {
      const client = testClient(sim);
      await new BatchRunner({ store, client, batch, policy }).run();
      await client.close();
    };
    await run();
    return { store, batch, run };
  }

  it('answers each selected item with the name and note; an item answered by another person meanwhile is skipped and named', async () => {
    const { store, batch } = await heldBatch();
    const r = await answerHeldItems(store, batch, { tool: 'confirm_scope', minCost: 60, maxCost: 80 }, { kind: 'approve', note: 'fine' }, {
      person: 'alice',
      // Between Alice's selection and her answers, Bob answers `b` on his own.
      onSelected: async (items) => {
        expect(items.map((i) => i.id)).toEqual(['a', 'b', 'c']);
        await answerWaiting(store, batch, 'b', { kind: 'decline' }, { person: 'bob' });
      },
    });
    expect(r.answered.map((a) => [a.id, a.cost, a.answer])).toEqual([['a', 60, { approved: true }], ['c', 80, { approved: true }]]);
    expect(r.skipped).toEqual([{ id: 'b', reason: expect.stringMatching(/^already answered by bob at \S+ \(now waiting\)$/), by: 'bob', at: expect.any(String) }]);
    expect(r.totalCost).toBe(140);
    for (const [id, who, answer] of [['a', 'alice', { approved: true }], ['b', 'bob', { approved: false }], ['c', 'alice', { approved: true }]] as const) {
      const d = await store.decisionsForItem(batch.id, id);
      expect(d, id).toHaveLength(1);
      expect(d[0], id).toMatchObject({ by: 'person', person: who, answer });
    }
    expect((await store.decisionsForItem(batch.id, 'a'))[0]).toMatchObject({ reason: 'fine', cost: 60 });
    await store.close();
  });

  it('never answers a pause nobody selected: an item that paused again since its selection is skipped, naming who decided the pause seen', async () => {
    const { store, batch, run } = await heldBatch();
    const r = await answerHeldItems(store, batch, { ids: ['twice'] }, { kind: 'decline' }, {
      person: 'alice',
      onSelected: async () => {
        await answerWaiting(store, batch, 'twice', { kind: 'approve' }, { person: 'bob' });
        await run();
        expect((await store.getItem(batch.id, 'twice'))?.state).toBe('held');
      },
    });
    expect(r.answered).toEqual([]);
    expect(r.skipped).toMatchObject([{ id: 'twice', by: 'bob', reason: 'twice paused again since you saw it (confirm_scope cost 90 → ask_choice): nothing recorded' }]);
    expect((await store.decisionsForItem(batch.id, 'twice')).map((d) => [d.tool, d.person])).toEqual([['confirm_scope', 'bob']]);
    await store.close();
  });

  it('names each named item that is not held as a single answer to it would: answered (by whom), ended, or no such item', async () => {
    const { store, batch } = await heldBatch();
    const ids = ['ok', 'plain', 'nope'];
    const r = await answerHeldItems(store, batch, { ids }, { kind: 'approve' }, { person: 'alice' });
    expect(r.answered).toEqual([]);
    expect(r.skipped).toMatchObject([
      { id: 'ok', by: 'the policy', reason: expect.stringMatching(/^already answered by the policy at \S+ \(now completed\)$/) },
      { id: 'plain', by: null, at: null },
      { id: 'nope', by: null, at: null },
    ]);
    for (const id of ['plain', 'nope']) {
      const single = await answerWaiting(store, batch, id, { kind: 'approve' }).catch((e: Error) => e.message);
      expect(r.skipped.find((s) => s.id === id)?.reason, id).toBe(single);
    }
    await store.close();
  });

  it('records nothing when the answer does not fit every selected pause, and filters by meta and text', async () => {
    const { store, batch } = await heldBatch();
    await expect(answerHeldItems(store, batch, { where: [{ key: 'meta.lab', value: 'x' }] }, { kind: 'approve' })).rejects.toThrow(/does not fit 1 of the 4 selected item\(s\): pick \(ask_choice/);
    await expect(answerHeldItems(store, batch, { minCost: 9, maxCost: 1 }, { kind: 'approve' })).rejects.toThrow(InputError);
    for (const id of ['a', 'b', 'c', 'twice', 'pick']) expect(await store.decisionsForItem(batch.id, id), id).toEqual([]);
    const r = await answerHeldItems(store, batch, { where: [{ key: 'meta.lab', value: 'x' }], text: 'PICK' }, { kind: 'choose', ids: ['b'] }, { person: 'ana' });
    expect(r.answered.map((a) => [a.id, a.answer])).toEqual([['pick', { decision: 'chosen', chosen: ['b'] }]]);
    await store.close();
  });

  it("holds the approvals to what the batch's budget group spent: its judge batch's approvals count, and nothing is recorded when together they go past it", async () => {
    const dir = tempDir();
    const questions = join(dir, 'q.csv');
    writeFileSync(questions, 'id,question\na,plan @confirm=60\nb,plan @confirm=70\n');
    const store = await openStore(join(dir, 'resq.db'));
    const policy = parsePolicy({ confirm_scope: { approve_max_cost: 0, batch_budget: 150 } }, 'policy.yaml');
    const { batch } = await loadBatch({ store, questions, settings: testSettings(2), policy, baseUrl: sim.url });
    const client = testClient(sim);
    await new BatchRunner({ store, client, batch, policy }).run();
    await client.close();
    // 130 fits the batch's own 0 spent of 150; not with the 50 its judge approved.
    await spendWith(store, batch.id, 50);
    const refused = await answerHeldItems(store, batch, { tool: 'confirm_scope' }, { kind: 'approve' }, { person: 'ana' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OverBudgetError);
    expect(refused).toMatchObject({ approved: 50, cost: 130, budget: 150 });
    for (const id of ['a', 'b']) expect(await store.decisionsForItem(batch.id, id), id).toEqual([]);
    expect([await store.approvedCost(batch.id), await store.budgetSpent(batch.id)]).toEqual([0, 50]);
    await store.close();
  });
});

describe.skipIf(!pgAvailable())('answerHeldItems on PostgreSQL: two people deciding the same held items at once', () => {
  it('gives each item exactly one decision; each person\'s skipped items name the other', async () => {
    const server = await sharedPgServer();
    try {
      const url = await server.createDatabase('bulk_race');
      const [mine, theirs] = await Promise.all([PostgresStore.open(url), PostgresStore.open(url)]);
      const loader = await mine.beginBatchLoad({ id: 'b1', name: 'b1', kind: 'runs', sourcePath: '/q', sourceSha256: 'x', baseUrl: null, settings: testSettings(2), policy: null });
      for (let i = 0; i < 40; i++) await loader.add({ id: `q${i}`, seq: i, line: i + 2, question: 'q', threadKey: null, meta: {} });
      await loader.commit([]);
      for (const it of (await mine.claimItems('b1', { workerId: 'w', leaseMs: 60_000, max: 40, cap: 40, afterSeq: -1 })).items) {
        const running = await mine.markAdmitted(it, { id: `r-${it.id}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: it.pendingKey! });
        const paused = { id: `r-${it.id}`, status: 'requires_action', threadId: null, createdAt: null, requiredAction: { tool: 'confirm_scope', input: { cost: 100 + it.seq } }, output: null, files: [] };
        await mine.markPaused(running, paused, () => ({ kind: 'hold', reason: 'a person decides' }));
      }
      const batch = (await mine.findBatch('b1'))!;
      const [ana, bo] = await Promise.all([
        answerHeldItems(mine, batch, { minCost: 100 }, { kind: 'approve' }, { person: 'Ana' }),
        answerHeldItems(theirs, batch, { minCost: 100 }, { kind: 'decline' }, { person: 'Bo' }),
      ]);
      const byId = new Map<string, string>();
      for (const a of ana.answered) byId.set(a.id, 'Ana');
      for (const a of bo.answered) expect(byId.has(a.id), a.id).toBe(false), byId.set(a.id, 'Bo');
      expect(byId.size).toBe(40);
      for (const s of ana.skipped) expect([s.id, s.by]).toEqual([s.id, 'Bo']);
      for (const s of bo.skipped) expect([s.id, s.by]).toEqual([s.id, 'Ana']);
      expect(ana.answered.length + ana.skipped.length).toBe(40);
      expect(bo.answered.length + bo.skipped.length).toBe(40);
      for (let i = 0; i < 40; i++) {
        const d = await mine.decisionsForItem('b1', `q${i}`);
        expect(d.map((x) => x.person), `q${i}`).toEqual([byId.get(`q${i}`)]);
      }
      await Promise.all([mine.close(), theirs.close()]);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
