import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlreadyAnsweredError, InputError } from '../../../src/errors.js';
import { answerFor, answerHeldItem } from '../../../src/runner/operations/answer.js';
import { BatchRunner, loadBatch } from '../../../src/runner/index.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore } from '../../../src/store/index.js';
import { tempDir } from '../../support/cli.js';
import { testClient, testSettings } from '../../support/in-process.js';

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

describe('answerHeldItem', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
  });
  afterAll(async () => sim.close());

  /** A batch run to its end with no policy: `plan` and `pick` held, `done` completed. */
  async function heldBatch() {
    const dir = tempDir();
    const questions = join(dir, 'q.csv');
    writeFileSync(questions, 'id,question\nplan,plan @confirm=4\npick,pick @choice\ndone,plain\n');
    const store = await openStore(join(dir, 'resq.db'));
    const { batch } = await loadBatch({ store, questions, settings: testSettings(4), policy: null, baseUrl: sim.url });
    const client = testClient(sim);
    await new BatchRunner({ store, client, batch, policy: null }).run();
    await client.close();
    return { store, batch };
  }

  it('records who answered with the decision and moves the item to waiting with its next key', async () => {
    const { store, batch } = await heldBatch();
    const r = await answerHeldItem(store, batch, 'plan', { kind: 'approve' }, { person: ' alice ' });
    expect(r).toEqual({ batch: batch.name, item: 'plan', tool: 'confirm_scope', answer: { approved: true }, by: 'person', person: 'alice' });
    expect((await store.getItem(batch.id, 'plan'))?.state).toBe('waiting');
    const [d] = await store.decisionsForItem(batch.id, 'plan');
    expect(d).toMatchObject({ by: 'person', person: 'alice', cost: 4, answer: { approved: true } });
    await store.close();
  });

  it('refuses a second answer to the same item with who answered it and when, recording nothing more', async () => {
    const { store, batch } = await heldBatch();
    // Both read the item as held; the store lets one write through.
    const results = await Promise.allSettled([
      answerHeldItem(store, batch, 'pick', { kind: 'choose', ids: ['a'] }, { person: 'alice' }),
      answerHeldItem(store, batch, 'pick', { kind: 'choose', ids: ['b'] }, { person: 'bob' }),
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
    await expect(answerHeldItem(store, batch, 'pick', { kind: 'decline' }, { person: 'carol' })).rejects.toThrow(AlreadyAnsweredError);
    expect(await store.decisionsForItem(batch.id, 'pick')).toHaveLength(1);
    await store.close();
  });

  it('refuses an item that was never held, and an unknown item, as bad input', async () => {
    const { store, batch } = await heldBatch();
    await expect(answerHeldItem(store, batch, 'done', { kind: 'approve' })).rejects.toThrow(/completed, not held/);
    await expect(answerHeldItem(store, batch, 'nope', { kind: 'approve' })).rejects.toThrow(InputError);
    await expect(answerHeldItem(store, batch, 'plan', { kind: 'choose', ids: ['a'] })).rejects.toThrow(InputError);
    expect((await store.getItem(batch.id, 'plan'))?.state).toBe('held');
    await store.close();
  });
});
