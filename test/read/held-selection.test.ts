import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHeldFilter, heldMatches, parseWhere, selectHeld } from '../../src/read/held-selection.js';
import { InputError } from '../../src/errors.js';
import { answerWaiting } from '../support/answer-waiting.js';
import { BatchRunner, loadBatch } from '../../src/runner/index.js';
import { startSim, type Sim } from '../../src/sim/index.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../support/cli.js';
import { testClient, testSettings } from '../support/in-process.js';

const item = { id: 'q7', tool: 'confirm_scope', cost: 120, holdReason: 'cost 120 is over approve_max_cost 50', question: 'Plan the Survey', meta: { lab: 'north', n: 3, ok: true } };

describe('heldMatches, parseWhere, checkHeldFilter', () => {
  it('keeps an item only when every condition holds', () => {
    expect(heldMatches({}, item)).toBe(true);
    expect(heldMatches({ tool: 'confirm_scope', minCost: 120, maxCost: 120 }, item)).toBe(true);
    expect(heldMatches({ maxCost: 119 }, item)).toBe(false);
    expect(heldMatches({ minCost: 121 }, item)).toBe(false);
    expect(heldMatches({ tool: 'ask_choice' }, item)).toBe(false);
    // A cost bound leaves out a pause that names no cost.
    expect(heldMatches({ maxCost: 1000 }, { ...item, cost: null })).toBe(false);
    expect(heldMatches({ where: [{ key: 'meta.lab', value: 'north' }, { key: 'meta.n', value: '3' }, { key: 'meta.ok', value: 'true' }] }, item)).toBe(true);
    expect(heldMatches({ where: [{ key: 'meta.lab', value: 'North' }] }, item)).toBe(false);
    expect(heldMatches({ where: [{ key: 'meta.missing', value: '' }] }, item)).toBe(false);
    for (const text of ['Q7', 'survey', 'APPROVE_MAX']) expect(heldMatches({ text }, item), text).toBe(true);
    expect(heldMatches({ text: 'south' }, item)).toBe(false);
  });

  it('reads meta.KEY=VALUE (the value may hold =) and refuses anything else in one line', () => {
    expect(parseWhere('meta.lab=a=b')).toEqual({ key: 'meta.lab', value: 'a=b' });
    expect(parseWhere('meta.lab=')).toEqual({ key: 'meta.lab', value: '' });
    for (const bad of ['lab=north', 'meta.=x', 'meta.lab']) expect(() => parseWhere(bad), bad).toThrow(InputError);
    expect(() => checkHeldFilter({ minCost: -1 })).toThrow('--min-cost: give a number of 0 or more');
    expect(() => checkHeldFilter({ maxCost: Number.NaN })).toThrow('--max-cost: give a number of 0 or more');
    expect(() => checkHeldFilter({ minCost: 5, maxCost: 4 })).toThrow('--min-cost 5 is more than --max-cost 4: no item can match');
    expect(() => checkHeldFilter({ where: [{ key: 'lab', value: 'x' }] })).toThrow(InputError);
    expect(() => checkHeldFilter({ tool: ' ' })).toThrow(InputError);
  });
});

describe('selectHeld over a real batch', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 5 });
  });
  afterAll(async () => sim.close());

  it('walks every held item page by page (more than one page), with each pause\'s tool, input and cost, in file order; names ids not held', async () => {
    const dir = tempDir();
    const questions = join(dir, 'q.csv');
    const rows = Array.from({ length: 230 }, (_, i) => `p${i},plan @confirm=${i},${i % 2 ? 'odd' : 'even'}`);
    writeFileSync(questions, ['id,question,kind', ...rows, 'pick,pick @choice,odd', 'done,plain,odd'].join('\n'));
    const store = await openStore(join(dir, 'resq.db'));
    const { batch } = await loadBatch({ store, questions, settings: testSettings(16), policy: null, baseUrl: sim.url });
    const client = testClient(sim);
    await new BatchRunner({ store, client, batch, policy: null }).run();
    await client.close();

    const all = await selectHeld(store, batch);
    expect(all.items).toHaveLength(231);
    expect(all.items.map((i) => i.id)).toEqual([...Array.from({ length: 230 }, (_, i) => `p${i}`), 'pick']);
    expect(all.totalCost).toBe((229 * 230) / 2);
    expect(all.items[5]).toMatchObject({ id: 'p5', tool: 'confirm_scope', cost: 5, input: { cost: 5 }, meta: { kind: 'odd' }, runId: expect.any(String) });
    expect(all.items.at(-1)).toMatchObject({ id: 'pick', tool: 'ask_choice', cost: null });

    const some = await selectHeld(store, batch, { minCost: 200, where: [{ key: 'meta.kind', value: 'odd' }] });
    expect(some.items.map((i) => i.id)).toEqual(Array.from({ length: 15 }, (_, i) => `p${201 + 2 * i}`));

    await answerWaiting(store, batch, 'p3', { kind: 'approve' }, { person: 'ana' });
    const named = await selectHeld(store, batch, { ids: ['p2', 'p3', 'done', 'nope', 'p4'], maxCost: 2 });
    expect(named.items.map((i) => i.id)).toEqual(['p2']);
    // p4 is held (the cost bound leaves it out): only those not held are named.
    expect(named.notHeld).toEqual(['p3', 'done', 'nope']);
    await store.close();
  }, 60_000);
});
