import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/config/index.js';
import { type Policy, decide } from '../../src/policy/index.js';

const policy = (value: unknown): Policy => parsePolicy(value, 'p.yaml');
const at = (approvedCost: number) => ({ approvedCost });

describe('decide without a policy', () => {
  it.each([null, undefined])('holds every pause when the policy is %s', (p) => {
    expect(decide(p, { tool: 'confirm_scope', input: { cost: 0 } }, at(0))).toEqual({ kind: 'hold', reason: 'no policy: held for a person' });
  });

  it('holds every pause with an empty policy, each with its reason', () => {
    const empty = policy({});
    expect(decide(empty, { tool: 'confirm_scope', input: {} }, at(0))).toEqual({
      kind: 'hold',
      reason: 'policy has no confirm_scope rule: held for a person',
    });
    expect(decide(empty, { tool: 'ask_choice', input: { options: [{ id: 'a' }] } }, at(0))).toEqual({
      kind: 'hold',
      reason: 'policy has no ask_choice rule: held for a person',
    });
    expect(decide(empty, { tool: 'request_quality_image', input: {} }, at(0))).toEqual({
      kind: 'hold',
      reason: 'policy has no request_quality_image rule: held for a person',
    });
  });
});

describe('decide confirm_scope', () => {
  const budgeted = policy({ confirm_scope: { approve_max_cost: 10, batch_budget: 200, otherwise: 'decline' } });
  const holding = policy({ confirm_scope: { approve_max_cost: 10, batch_budget: 200, otherwise: 'hold' } });
  const unbudgeted = policy({ confirm_scope: { approve_max_cost: 10 } });
  const ask = (input: Record<string, unknown>) => ({ tool: 'confirm_scope', input });

  it('approves a cost within the limit and adds it to the batch', () => {
    expect(decide(budgeted, ask({ cost: 7 }), at(100))).toEqual({
      kind: 'answer',
      answer: { approved: true },
      cost: 7,
      reason: 'cost 7 is within approve_max_cost 10; batch total 107 of 200',
    });
  });

  it('approves a cost exactly at the limit', () => {
    expect(decide(budgeted, ask({ cost: 10 }), at(0))).toMatchObject({ kind: 'answer', answer: { approved: true }, cost: 10 });
  });

  it('counts a missing or null cost as 0', () => {
    expect(decide(budgeted, ask({ objective: 'x', steps: [] }), at(200))).toEqual({
      kind: 'answer',
      answer: { approved: true },
      cost: 0,
      reason: 'cost 0 is within approve_max_cost 10; batch total 200 of 200',
    });
    expect(decide(budgeted, ask({ cost: null }), at(0))).toMatchObject({ kind: 'answer', cost: 0 });
  });

  it('approves when the batch budget is reached exactly', () => {
    expect(decide(budgeted, ask({ cost: 10 }), at(190))).toMatchObject({ kind: 'answer', answer: { approved: true }, cost: 10 });
  });

  it('declines past the batch budget when otherwise is decline', () => {
    expect(decide(budgeted, ask({ cost: 10 }), at(191))).toEqual({
      kind: 'answer',
      answer: { approved: false },
      cost: 0,
      reason: 'cost 10 would bring the batch to 201, over batch_budget 200: declined (the narrow alternative)',
    });
  });

  it('declines a cost over the limit when otherwise is decline', () => {
    expect(decide(budgeted, ask({ cost: 10.5 }), at(0))).toEqual({
      kind: 'answer',
      answer: { approved: false },
      cost: 0,
      reason: 'cost 10.5 is over approve_max_cost 10: declined (the narrow alternative)',
    });
  });

  it('holds over either limit when otherwise is hold', () => {
    expect(decide(holding, ask({ cost: 11 }), at(0))).toEqual({
      kind: 'hold',
      reason: 'cost 11 is over approve_max_cost 10: held for a person',
    });
    expect(decide(holding, ask({ cost: 5 }), at(199))).toEqual({
      kind: 'hold',
      reason: 'cost 5 would bring the batch to 204, over batch_budget 200: held for a person',
    });
  });

  it('holds by default when otherwise is not given', () => {
    expect(decide(unbudgeted, ask({ cost: 11 }), at(0))).toMatchObject({ kind: 'hold' });
  });

  it('has no batch cap without batch_budget', () => {
    expect(decide(unbudgeted, ask({ cost: 10 }), at(1e9))).toEqual({
      kind: 'answer',
      answer: { approved: true },
      cost: 10,
      reason: 'cost 10 is within approve_max_cost 10',
    });
  });

  it.each([
    ['12', '"12" (untrusted: not a number)'],
    ['about 30 credits', '"about 30 credits" (untrusted: not a number)'],
    [-1, '-1 (untrusted: negative)'],
    [-140, '-140 (untrusted: negative)'],
    [Number.NaN, 'NaN (untrusted: not a number)'],
    [Number.POSITIVE_INFINITY, 'Infinity (untrusted: above 1e12)'],
    [1e308, '1e308 (untrusted: above 1e12)'],
    [{}, '{} (untrusted: not a number)'],
    [true, 'true (untrusted: not a number)'],
  ])('holds when input.cost is %j, saying it is untrusted', (cost, shown) => {
    expect(decide(budgeted, ask({ cost }), at(0))).toEqual({ kind: 'hold', reason: `confirm_scope: cost ${shown}: held for a person` });
  });

  it('approves no cost above the 1e12 bound, however large approve_max_cost is', () => {
    const lavish = policy({ confirm_scope: { approve_max_cost: Number.MAX_VALUE } });
    expect(decide(lavish, ask({ cost: 1e12 }), at(0))).toMatchObject({ kind: 'answer', cost: 1e12 });
    expect(decide(lavish, ask({ cost: 1e308 }), at(0))).toEqual({ kind: 'hold', reason: 'confirm_scope: cost 1e308 (untrusted: above 1e12): held for a person' });
  });

  it.each([[Number.NaN], [-5], [Number.POSITIVE_INFINITY]])('holds when the approved total is %s', (approved) => {
    expect(decide(budgeted, ask({ cost: 1 }), at(approved))).toEqual({
      kind: 'hold',
      reason: 'confirm_scope: cost approved so far is unknown: held for a person',
    });
  });
});

describe('decide ask_choice', () => {
  const options = [{ id: 'a', label: 'A' }, { id: 'b' }, { id: 'c' }];
  const ask = (input: Record<string, unknown>) => ({ tool: 'ask_choice', input });
  const rule = (r: Record<string, unknown>) => policy({ ask_choice: r });

  it('chooses the first preferred id that is offered, with the note', () => {
    const p = rule({ prefer: ['z', 'c', 'b'], otherwise: 'decline', note: 'chosen by policy' });
    expect(decide(p, ask({ question: 'q', options, allowMultiple: true }), at(0))).toEqual({
      kind: 'answer',
      answer: { decision: 'chosen', chosen: ['c'], note: 'chosen by policy' },
      cost: 0,
      reason: 'preferred option "c" is offered',
    });
  });

  it('matches numeric ids and sends them back as offered', () => {
    const p = rule({ prefer: [2, '1'] });
    expect(decide(p, ask({ options: [{ id: 1 }, { id: 2 }] }), at(0))).toMatchObject({ answer: { decision: 'chosen', chosen: [2] } });
    expect(decide(p, ask({ options: [{ id: '1' }] }), at(0))).toMatchObject({ answer: { decision: 'chosen', chosen: ['1'] } });
  });

  it('takes the first option when none preferred is offered and otherwise is first', () => {
    expect(decide(rule({ prefer: ['x'], otherwise: 'first' }), ask({ options }), at(0))).toEqual({
      kind: 'answer',
      answer: { decision: 'chosen', chosen: ['a'] },
      cost: 0,
      reason: 'no preferred option is offered: chose the first',
    });
  });

  it('takes all options when otherwise is all and several are allowed', () => {
    const twice = [...options, { id: 'a' }];
    expect(decide(rule({ otherwise: 'all', note: 'n' }), ask({ options: twice, allowMultiple: true }), at(0))).toEqual({
      kind: 'answer',
      answer: { decision: 'chosen', chosen: ['a', 'b', 'c'], note: 'n' },
      cost: 0,
      reason: 'no preference given: chose all',
    });
  });

  it('holds when otherwise is all but only one choice is allowed', () => {
    const expected = { kind: 'hold', reason: 'no preference given, and the question allows one choice, not all: held for a person' };
    expect(decide(rule({ otherwise: 'all' }), ask({ options, allowMultiple: false }), at(0))).toEqual(expected);
    expect(decide(rule({ otherwise: 'all' }), ask({ options }), at(0))).toEqual(expected);
  });

  it('declines, with the note, when otherwise is decline', () => {
    expect(decide(rule({ prefer: ['x'], otherwise: 'decline', note: 'none fit' }), ask({ options }), at(0))).toEqual({
      kind: 'answer',
      answer: { decision: 'declined', note: 'none fit' },
      cost: 0,
      reason: 'no preferred option is offered: declined',
    });
  });

  it('holds when otherwise is hold, the default', () => {
    expect(decide(rule({ prefer: ['x'] }), ask({ options }), at(0))).toEqual({
      kind: 'hold',
      reason: 'no preferred option is offered: held for a person',
    });
  });

  it.each([
    [{}, 'input.options is not a list'],
    [{ options: 'a,b' }, 'input.options is not a list'],
    [{ options: [] }, 'no options offered'],
    [{ options: [{ id: 'a' }, { label: 'no id' }] }, 'an option has no usable id'],
    [{ options: [null] }, 'an option has no usable id'],
    [{ options: [{ id: '' }] }, 'an option has no usable id'],
    [{ options: [{ id: { x: 1 } }] }, 'an option has no usable id'],
  ])('holds on malformed options %j', (input, why) => {
    expect(decide(rule({ otherwise: 'first' }), ask(input), at(0))).toEqual({ kind: 'hold', reason: `ask_choice: ${why}: held for a person` });
  });

  it('holds when allowMultiple is not a boolean', () => {
    expect(decide(rule({ otherwise: 'first' }), ask({ options, allowMultiple: 'yes' }), at(0))).toEqual({
      kind: 'hold',
      reason: 'ask_choice: input.allowMultiple is not a boolean: held for a person',
    });
  });
});

describe('decide request_quality_image', () => {
  const ask = { tool: 'request_quality_image', input: { prompt: 'p', reason: 'r' } };

  it('approves, declines or holds as the policy says', () => {
    expect(decide(policy({ request_quality_image: 'approve' }), ask, at(0))).toEqual({
      kind: 'answer',
      answer: { approved: true },
      cost: 0,
      reason: 'policy approves quality images',
    });
    expect(decide(policy({ request_quality_image: 'decline' }), ask, at(0))).toEqual({
      kind: 'answer',
      answer: { approved: false },
      cost: 0,
      reason: 'policy declines quality images',
    });
    expect(decide(policy({ request_quality_image: 'hold' }), ask, at(0))).toEqual({
      kind: 'hold',
      reason: 'policy holds quality images for a person',
    });
  });
});

describe('decide on other pauses', () => {
  const full = policy({
    confirm_scope: { approve_max_cost: 100 },
    ask_choice: { otherwise: 'first' },
    request_quality_image: 'approve',
    unknown: 'hold',
  });

  it('holds an unknown tool', () => {
    expect(decide(full, { tool: 'launch_rocket', input: {} }, at(0))).toEqual({
      kind: 'hold',
      reason: 'no policy for tool "launch_rocket": held for a person',
    });
  });

  it.each([[null], [[1]], ['text']])('holds when the input is %j instead of an object', (input) => {
    const action = { tool: 'request_quality_image', input: input as unknown as Record<string, unknown> };
    expect(decide(full, action, at(0))).toEqual({
      kind: 'hold',
      reason: 'request_quality_image: input is not an object: held for a person',
    });
  });
});
