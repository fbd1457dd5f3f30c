import { afterEach, describe, expect, it } from 'vitest';
import { InputError, OverBudgetError } from '../../src/errors.js';
import { decide } from '../../src/policy/decide.js';
import type { Policy } from '../../src/policy/schema.js';
import type { Store } from '../../src/store/port.js';
import type { NewBatch, PauseOutcome } from '../../src/store/shapes.js';
import type { BatchSettings, ItemRecord, NotifySettings } from '../../src/store/types.js';
import { snap } from './snapshot.js';

/**
 * Budget groups (NewBatch.spendsWith), written against `Store` only: a batch and its agent
 * judge's companion batch spend one budget. Every budget check in the store (markPaused,
 * redecideHeld, answerHeld) counts what both approved, from either side; approvedCost stays
 * each batch's own, budgetSpent is the group's.
 */

const NOW = 1_700_000_000_000;
const BUDGET = 10;
const POLICY: Policy = { confirm_scope: { approve_max_cost: 100, batch_budget: BUDGET, otherwise: 'hold' } };
const SETTINGS: BatchSettings = { concurrency: 2, follow: 'sse', download: { enabled: false, concurrency: 1, out: null }, pipelineFile: null, service: 'sim' };

const newBatch = (id: string, spendsWith?: string): NewBatch => ({
  id, name: `batch-${id}`, kind: 'runs', sourcePath: `/data/${id}.csv`, sourceSha256: 'x', baseUrl: null, settings: SETTINGS, policy: POLICY,
  ...(spendsWith === undefined ? {} : { spendsWith }),
});

/** A paused run asking to approve a plan of `cost`. */
const planOf = (runId: string, cost: number) => snap(runId, { status: 'requires_action', requiredAction: { type: 'tool', tool: 'confirm_scope', input: { cost } } } as never);

/** What the engine makes of a confirm_scope pause of `cost` given the spend the store hands it: the policy decides. */
const byPolicy = (runId: string, cost: number, seen: number[] = []) => (spent: number): PauseOutcome => {
  seen.push(spent);
  const d = decide(POLICY, { tool: 'confirm_scope', input: { cost } }, { approvedCost: spent });
  if (d.kind === 'hold') return { kind: 'hold', reason: d.reason };
  return { kind: 'answer', nextKey: `k-${runId}`, decision: { runId, tool: 'confirm_scope', input: { cost }, answer: d.answer, by: 'policy', reason: d.reason, cost: d.cost } };
};

export function budgetGroupContract(name: string, open: () => Promise<Store>): void {
  describe(`budget groups: a batch and its judge spend one budget (${name})`, () => {
    const opened: Store[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    /** A store with parent batch P and judge batch J (spending with P), each with items a and b. */
    async function group(): Promise<Store> {
      const s = await open();
      opened.push(s);
      for (const [id, spendsWith] of [['P', undefined], ['J', 'P']] as const) {
        const loader = await s.beginBatchLoad(newBatch(id, spendsWith));
        for (const [seq, item] of ['a', 'b'].entries()) await loader.add({ id: item, seq, line: seq + 2, question: `q ${item}`, threadKey: null, meta: {} });
        await loader.commit([]);
      }
      return s;
    }

    /** Item `itemId` of `batchId` claimed and running run `runId`. */
    async function running(s: Store, batchId: string, itemId: string): Promise<ItemRecord> {
      const w = (await s.registerWorker(batchId, { host: 'h', pid: 1 }, NOW)).id;
      const it = (await s.getItem(batchId, itemId))!;
      const claimed = (await s.claimItems(batchId, { workerId: w, leaseMs: 60_000, max: 1, cap: 10, afterSeq: it.seq - 1, takeOver: [] }, NOW)).items[0]!;
      expect(claimed.id).toBe(itemId);
      return s.markAdmitted(claimed, { id: `r-${batchId}-${itemId}`, status: 'running', threadId: null, step: 0, parentRunId: null, idempotencyKey: claimed.pendingKey! });
    }

    /** Item `itemId` of `batchId` paused on a plan of `cost` and decided by the policy; the outcome's kind. */
    async function pause(s: Store, batchId: string, itemId: string, cost: number, seen?: number[]): Promise<PauseOutcome['kind']> {
      const run = `r-${batchId}-${itemId}`;
      return (await s.markPaused(await running(s, batchId, itemId), planOf(run, cost), byPolicy(run, cost, seen))).outcome.kind;
    }

    it("a judge's decision that would take the group past the budget is held, though the judge itself spent nothing", async () => {
      const s = await group();
      expect(await pause(s, 'P', 'a', 6)).toBe('answer');
      const seen: number[] = [];
      expect(await pause(s, 'J', 'a', 5, seen)).toBe('hold');
      expect(seen).toEqual([6]);
      expect((await s.getItem('J', 'a'))!.state).toBe('held');
      expect(await s.decisionsForItem('J', 'a')).toEqual([]);
      // Within what is left: approved.
      expect(await pause(s, 'J', 'b', 4)).toBe('answer');
      expect([await s.approvedCost('P'), await s.approvedCost('J')]).toEqual([6, 4]);
      expect([await s.budgetSpent('P'), await s.budgetSpent('J')]).toEqual([10, 10]);
    });

    it("the parent's decision counts what its judge approved: past the budget together, held", async () => {
      const s = await group();
      expect(await pause(s, 'J', 'a', 6)).toBe('answer');
      const seen: number[] = [];
      expect(await pause(s, 'P', 'a', 5, seen)).toBe('hold');
      expect(seen).toEqual([6]);
      expect([await s.approvedCost('P'), await s.approvedCost('J')]).toEqual([0, 6]);
      expect([await s.budgetSpent('P'), await s.budgetSpent('J')]).toEqual([6, 6]);
    });

    it("a person's answer on the judge is held to the group's budget: past it unconfirmed, OverBudgetError naming the group's spend", async () => {
      const s = await group();
      expect(await pause(s, 'P', 'a', 6)).toBe('answer');
      const j = await running(s, 'J', 'a');
      await s.markPaused(j, planOf('r-J-a', 5), () => ({ kind: 'hold', reason: 'a person decides' }));
      const d = { runId: 'r-J-a', tool: 'confirm_scope', input: { cost: 5 }, answer: { approved: true }, by: 'person' as const, person: 'ann', reason: null, cost: 5 };
      const refused = await s.answerHeld('J', 'a', d, 'k', { budget: BUDGET, allowOver: false }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(OverBudgetError);
      expect(refused).toMatchObject({ approved: 6, cost: 5, budget: BUDGET });
      expect(await s.decisionsForItem('J', 'a')).toEqual([]);
      expect(await s.answerHeld('J', 'a', d, 'k', { budget: BUDGET, allowOver: true })).toEqual({ overBudget: true });
      expect([await s.approvedCost('J'), await s.budgetSpent('P')]).toEqual([5, 11]);
    });

    it("redecideHeld on the parent counts what the judge approved", async () => {
      const s = await group();
      const p = await running(s, 'P', 'a');
      await s.markPaused(p, planOf('r-P-a', 5), () => ({ kind: 'hold', reason: 'a person decides' }));
      expect(await pause(s, 'J', 'a', 6)).toBe('answer');
      const seen: number[] = [];
      expect((await s.redecideHeld('P', 'a', byPolicy('r-P-a', 5, seen))).kind).toBe('hold');
      expect(seen).toEqual([6]);
      expect((await s.getItem('P', 'a'))!.state).toBe('held');
    });

    it("budget.reached counts the group's spend against the parent's budget and is told to the parent, each share once", async () => {
      const s = await open();
      opened.push(s);
      const notify: NotifySettings = { urls: ['http://127.0.0.1:9/hook'], format: 'json', includeQuestion: false, pageUrl: null, digestMs: 300_000, remindMs: null, stalledMs: null };
      for (const [id, spendsWith, settings] of [['P', undefined, { ...SETTINGS, notify }], ['J', 'P', SETTINGS]] as const) {
        const loader = await s.beginBatchLoad({ ...newBatch(id, spendsWith), settings });
        for (const [seq, item] of ['a', 'b', 'c'].entries()) await loader.add({ id: item, seq, line: seq + 2, question: `q ${item}`, threadKey: null, meta: {} });
        await loader.commit([]);
      }
      const reached = async (batchId: string) =>
        (await s.claimOutbox('s1', { leaseMs: 30_000, limit: 50, batchIds: [batchId] }, NOW)).filter((e) => e.type === 'budget.reached').map((e) => e.data);
      expect(await pause(s, 'P', 'a', 3)).toBe('answer');
      expect(await reached('P')).toEqual([]);
      // The judge's 5 takes the group to 8 of 10: the parent is told, though its own spend is 3.
      expect(await pause(s, 'J', 'a', 5)).toBe('answer');
      expect(await reached('P')).toEqual([{ share: 80, budget: BUDGET, approved: 8 }]);
      expect(await reached('J')).toEqual([]);
      // A person's answer on the judge, with no budget held to, past it: 100%, once.
      const j = await running(s, 'J', 'b');
      await s.markPaused(j, planOf('r-J-b', 4), () => ({ kind: 'hold', reason: 'a person decides' }));
      await s.answerHeld('J', 'b', { runId: 'r-J-b', tool: 'confirm_scope', input: { cost: 4 }, answer: { approved: true }, by: 'person', reason: null, cost: 4 }, 'k');
      expect(await reached('P')).toEqual([{ share: 100, budget: BUDGET, approved: 12 }]);
      // Past it again: each share told once.
      const p = await running(s, 'P', 'b');
      await s.markPaused(p, planOf('r-P-b', 1), () => ({ kind: 'hold', reason: 'a person decides' }));
      await s.answerHeld('P', 'b', { runId: 'r-P-b', tool: 'confirm_scope', input: { cost: 1 }, answer: { approved: true }, by: 'person', reason: null, cost: 1 }, 'k');
      expect(await reached('P')).toEqual([]);
      expect(await s.budgetSpent('P')).toBe(13);
    });

    it('a batch of its own is in no group; one loaded to spend with a member spends with the leader; an unknown one loads nothing', async () => {
      const s = await group();
      const own = await s.beginBatchLoad(newBatch('O'));
      await own.commit([]);
      const third = await s.beginBatchLoad(newBatch('K', 'J'));
      await third.commit([]);
      expect(await pause(s, 'P', 'a', 3)).toBe('answer');
      expect(await pause(s, 'J', 'a', 2)).toBe('answer');
      expect(await s.budgetSpent('O')).toBe(0);
      expect([await s.budgetSpent('P'), await s.budgetSpent('J'), await s.budgetSpent('K')]).toEqual([5, 5, 5]);
      await expect(s.beginBatchLoad(newBatch('X', 'no-such-batch'))).rejects.toThrow(InputError);
      expect(await s.findBatch('X')).toBeNull();
      expect(await s.budgetSpent('no-such-batch')).toBe(0);
    });
  });
}
