import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePolicy } from '../../../src/config/index.js';
import { AlreadyAnsweredError, InputError, OverBudgetError, PauseMovedError } from '../../../src/errors.js';
import { answerFor, answerHeldItem, pauseWaiting } from '../../../src/runner/operations/answer.js';
import { answerHeldItems, answerListedPauses } from '../../../src/runner/operations/answer-bulk.js';
import { BatchRunner, loadBatch } from '../../../src/runner/index.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore } from '../../../src/store/index.js';
import { tempDir } from '../../support/cli.js';
import { testClient, testSettings } from '../../support/in-process.js';
import { answerWaiting } from '../../support/answer-waiting.js';

const choice = { question: 'which?', options: [{ id: 'a' }, { id: 'b' }], allowMultiple: false };

describe('answerFor', () => {
  it('approves and declines confirm_scope, counting the cost only when approved', () => {
    expect(answerFor('confirm_scope', { cost: 12 }, { kind: 'approve' })).toEqual({ answer: { approved: true }, cost: 12 });
    expect(answerFor('confirm_scope', { cost: 12 }, { kind: 'decline' })).toEqual({ answer: { approved: false }, cost: 0 });
  });
  it('answers request_quality_image', () => {
    expect(answerFor('request_quality_image', {}, { kind: 'approve' }).answer).toEqual({ approved: true });
  });
  it('chooses offered options with a note, or declines', () => {
    expect(answerFor('ask_choice', choice, { kind: 'choose', ids: ['b'], note: 'n' }).answer).toEqual({
      decision: 'chosen',
      chosen: ['b'],
      note: 'n',
    });
    expect(answerFor('ask_choice', choice, { kind: 'decline' }).answer).toEqual({ decision: 'declined' });
  });
  it('refuses options not offered, several without allowMultiple, and approve for a choice', () => {
    expect(() => answerFor('ask_choice', choice, { kind: 'choose', ids: ['z'] })).toThrow(InputError);
    expect(() => answerFor('ask_choice', choice, { kind: 'choose', ids: ['a', 'b'] })).toThrow(/only one/);
    expect(() => answerFor('ask_choice', choice, { kind: 'approve' })).toThrow(/--choose/);
    expect(() => answerFor('confirm_scope', {}, { kind: 'choose', ids: ['a'] })).toThrow(/--approve or --decline/);
  });
  it('refuses an option id given twice, even where several are allowed, naming it once', () => {
    const multi = { ...choice, allowMultiple: true };
    expect(() => answerFor('ask_choice', multi, { kind: 'choose', ids: ['a', 'a'] })).toThrow(new InputError('--choose: a given more than once: name each option once'));
    expect(() => answerFor('ask_choice', multi, { kind: 'choose', ids: ['a', 'b', 'a', 'b', 'a'] })).toThrow(/--choose: a, b given more than once/);
  });
  it('names each offered id once when the service repeats one', () => {
    const repeated = { options: [{ id: 'a' }, { id: 'a' }, { id: 'b' }] };
    expect(() => answerFor('ask_choice', repeated, { kind: 'choose', ids: ['z'] })).toThrow('--choose: z not offered (offered: a, b)');
    expect(answerFor('ask_choice', repeated, { kind: 'choose', ids: ['a'] }).answer).toEqual({ decision: 'chosen', chosen: ['a'] });
  });
  it('records no untrusted cost for an approved plan (1e308, -140, text): 0', () => {
    for (const cost of [1e308, -140, 'about 30 credits']) expect(answerFor('confirm_scope', { cost }, { kind: 'approve' })).toEqual({ answer: { approved: true }, cost: 0 });
  });
  it('accepts several options when allowMultiple', () => {
    expect(answerFor('ask_choice', { ...choice, allowMultiple: true }, { kind: 'choose', ids: ['a', 'b'] }).answer).toEqual({
      decision: 'chosen',
      chosen: ['a', 'b'],
    });
  });
});

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ defaultDurationMs: 10 });
});
afterAll(async () => sim.close());

/** `csv` loaded with `policy` (none: every pause held) and run to its end; `run` runs it again (answers recorded meanwhile sent). */
async function ranBatch(csv: string, policy: Record<string, unknown> | null = null) {
  const dir = tempDir();
  const questions = join(dir, 'q.csv');
  writeFileSync(questions, csv);
  const store = await openStore(join(dir, 'resq.db'));
  const pol = policy === null ? null : parsePolicy(policy, 'policy.yaml');
  const { batch } = await loadBatch({ store, questions, settings: testSettings(4), policy: pol, baseUrl: sim.url });
  const run = async () => {
    const client = testClient(sim);
    await new BatchRunner({ store, client, batch, policy: pol }).run();
    await client.close();
  };
  await run();
  return { store, batch, run };
}

describe('answerHeldItem', () => {
  /** A batch run to its end with no policy: `plan` and `pick` held, `done` completed. */
  const heldBatch = () => ranBatch('id,question\nplan,plan @confirm=4\npick,pick @choice\ndone,plain\n');

  it('records who answered with the decision and moves the item to waiting with its next key', async () => {
    const { store, batch } = await heldBatch();
    const { runId } = await pauseWaiting(store, batch, 'plan');
    const r = await answerHeldItem(store, batch, 'plan', { kind: 'approve' }, { person: ' alice ', runId });
    expect(r).toEqual({ batch: batch.name, item: 'plan', tool: 'confirm_scope', runId, cost: 4, overBudget: false, answer: { approved: true }, by: 'person', person: 'alice' });
    expect((await store.getItem(batch.id, 'plan'))?.state).toBe('waiting');
    const [d] = await store.decisionsForItem(batch.id, 'plan');
    expect(d).toMatchObject({ by: 'person', person: 'alice', cost: 4, answer: { approved: true } });
    await store.close();
  });

  it('refuses a second answer to the same item with who answered it and when, recording nothing more', async () => {
    const { store, batch } = await heldBatch();
    // Both read the item as held; the store lets one write through.
    const results = await Promise.allSettled([
      answerWaiting(store, batch, 'pick', { kind: 'choose', ids: ['a'] }, { person: 'alice' }),
      answerWaiting(store, batch, 'pick', { kind: 'choose', ids: ['b'] }, { person: 'bob' }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const decisions = await store.decisionsForItem(batch.id, 'pick');
    expect(decisions).toHaveLength(1);
    const err = lost[0] as AlreadyAnsweredError;
    expect(err).toBeInstanceOf(AlreadyAnsweredError);
    expect(err.code).toBe('RESQ_ALREADY_ANSWERED');
    expect(err.person).toBe(decisions[0]!.person);
    expect(err.answeredAt).toBe(decisions[0]!.decidedAt);
    expect(err.message).toContain(`already answered by ${decisions[0]!.person} at ${decisions[0]!.decidedAt}`);

    // Later, one at a time: the same refusal.
    const seen = decisions[0]!.runId;
    await expect(answerHeldItem(store, batch, 'pick', { kind: 'decline' }, { person: 'carol', runId: seen })).rejects.toThrow(AlreadyAnsweredError);
    expect(await store.decisionsForItem(batch.id, 'pick')).toHaveLength(1);
    await store.close();
  });

  it('refuses an item that was never held, and an unknown item, as bad input', async () => {
    const { store, batch } = await heldBatch();
    await expect(answerWaiting(store, batch, 'done', { kind: 'approve' })).rejects.toThrow(/completed, not held/);
    await expect(answerWaiting(store, batch, 'nope', { kind: 'approve' })).rejects.toThrow(InputError);
    await expect(answerWaiting(store, batch, 'plan', { kind: 'choose', ids: ['a'] })).rejects.toThrow(InputError);
    expect((await store.getItem(batch.id, 'plan'))?.state).toBe('held');
    await store.close();
  });
});

describe('a decision is for the pause the person saw', () => {
  /** `t1` pauses on a plan costing 1, then (once answered) on one costing 99,999; `other` on a plan costing 5. */
  const twoPauses = () => ranBatch('id,question\nt1,plan @confirm=1 @confirm=99999\nother,plan @confirm=5\n');

  it('t1 paused at cost 1, approved by B, paused again at 99,999: A\'s approval of the pause A saw is refused and nothing is recorded', async () => {
    const { store, batch, run } = await twoPauses();
    // A and B both look at t1's pause.
    const seenByA = await pauseWaiting(store, batch, 't1');
    expect(seenByA.cost).toBe(1);
    await answerHeldItem(store, batch, 't1', { kind: 'approve' }, { person: 'B', runId: seenByA.runId });
    await run();
    const now = await pauseWaiting(store, batch, 't1');
    expect(now.runId).not.toBe(seenByA.runId);
    expect(now.cost).toBe(99_999);

    const refused = await answerHeldItem(store, batch, 't1', { kind: 'approve' }, { person: 'A', runId: seenByA.runId }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PauseMovedError);
    expect((refused as PauseMovedError).message).toBe('t1 paused again since you saw it (cost 1 → 99,999): nothing recorded');
    expect((refused as PauseMovedError).now).toEqual({ runId: now.runId, tool: 'confirm_scope', cost: 99_999 });
    // Nothing recorded: B's decision alone, on the pause B saw; the new pause still waits for a person.
    const decisions = await store.decisionsForItem(batch.id, 't1');
    expect(decisions.map((d) => [d.runId, d.person, d.cost])).toEqual([[seenByA.runId, 'B', 1]]);
    const item = await store.getItem(batch.id, 't1');
    expect([item?.state, item?.runId]).toEqual(['held', now.runId]);
    expect(await store.approvedCost(batch.id)).toBe(1);
    await store.close();
  });

  it('a bulk answer records the pause listed when the person confirmed: an item that paused again since is skipped and said, the others answered', async () => {
    const { store, batch, run } = await twoPauses();
    const listed = [
      { id: 't1', runId: (await pauseWaiting(store, batch, 't1')).runId },
      { id: 'other', runId: (await pauseWaiting(store, batch, 'other')).runId },
    ];
    await answerHeldItem(store, batch, 't1', { kind: 'approve' }, { person: 'B', runId: listed[0]!.runId });
    await run();
    const r = await answerListedPauses(store, batch, listed, { kind: 'approve' }, { person: 'A' });
    expect(r.answered.map((a) => [a.id, a.runId, a.cost])).toEqual([['other', listed[1]!.runId, 5]]);
    expect(r.skipped).toMatchObject([{ id: 't1', reason: 't1 paused again since you saw it (cost 1 → 99,999): nothing recorded', by: 'B' }]);
    expect(r.spent).toBe(5);
    expect((await store.decisionsForItem(batch.id, 't1')).map((d) => d.person)).toEqual(['B']);
    expect((await store.getItem(batch.id, 't1'))?.state).toBe('held');
    await store.close();
  });

  it('refuses an answer that names no pause, or a run that is not a pause of the item, recording nothing', async () => {
    const { store, batch } = await twoPauses();
    const other = await pauseWaiting(store, batch, 'other');
    await expect(answerHeldItem(store, batch, 't1', { kind: 'approve' }, { person: 'A', runId: '' })).rejects.toThrow(/name the pause of "t1"/);
    await expect(answerHeldItem(store, batch, 't1', { kind: 'approve' }, { person: 'A', runId: other.runId })).rejects.toThrow(`run "${other.runId}" is no pause of item "t1"`);
    expect(await store.decisionsForItem(batch.id, 't1')).toEqual([]);
    await store.close();
  });
});

describe('people and the budget', () => {
  /** Plans of 100, 88 and 40 held for a person (the policy approves none), under batch_budget 150. */
  const budgeted = () => ranBatch('id,question\na,plan @confirm=100\nb,plan @confirm=88\nc,plan @confirm=40\n', { confirm_scope: { approve_max_cost: 0, batch_budget: 150 } });

  it('refuses an approval that takes the batch past batch_budget, naming the totals, unless the person confirms; the decision records that it went over', async () => {
    const { store, batch } = await budgeted();
    const a = await answerWaiting(store, batch, 'a', { kind: 'approve' }, { person: 'ana' });
    expect(a.overBudget).toBe(false);
    const refused = await answerWaiting(store, batch, 'b', { kind: 'approve' }, { person: 'ana' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OverBudgetError);
    expect((refused as Error).message).toBe("approving b (cost 88) takes the batch's approved cost to 188 of its budget 150 (125%): nothing recorded");
    expect(await store.decisionsForItem(batch.id, 'b')).toEqual([]);
    expect(await store.approvedCost(batch.id)).toBe(100);
    // A decline spends nothing: never over.
    expect((await answerWaiting(store, batch, 'c', { kind: 'decline' }, { person: 'ana' })).overBudget).toBe(false);
    const b = await answerWaiting(store, batch, 'b', { kind: 'approve' }, { person: 'ana', overBudget: true });
    expect([b.overBudget, b.cost]).toEqual([true, 88]);
    expect((await store.decisionsForItem(batch.id, 'b')).map((d) => d.overBudget)).toEqual([true]);
    expect((await store.decisionsForItem(batch.id, 'a')).map((d) => d.overBudget)).toEqual([false]);
    expect(await store.approvedCost(batch.id)).toBe(188);
    await store.close();
  });

  it('a bulk approval past the budget is refused whole (nothing recorded) unless confirmed, then records which went over', async () => {
    const { store, batch } = await budgeted();
    await expect(answerHeldItems(store, batch, {}, { kind: 'approve' }, { person: 'bo' })).rejects.toThrow(
      "approving 3 held item(s) (cost 228) takes the batch's approved cost to 228 of its budget 150 (152%): nothing recorded",
    );
    expect(await store.approvedCost(batch.id)).toBe(0);
    for (const id of ['a', 'b', 'c']) expect((await store.getItem(batch.id, id))?.state).toBe('held');
    const r = await answerHeldItems(store, batch, {}, { kind: 'approve' }, { person: 'bo', overBudget: true });
    expect(r.answered.map((x) => [x.id, x.overBudget])).toEqual([['a', false], ['b', true], ['c', true]]);
    expect(r.spent).toBe(228);
    await store.close();
  });
});
