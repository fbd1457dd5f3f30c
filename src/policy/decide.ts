import { costDoubt, costShown, planCost } from './cost.js';
import type { Policy } from './schema.js';

/** A run's pause: the waiting tool and what it asked (`required_action`). */
export interface PendingAction {
  tool: string;
  input: Record<string, unknown>;
}

/** What the policy says to do with a pause. */
export type Decision =
  | {
      kind: 'answer';
      /** The body's `answer`, exactly in the shape the tool expects. */
      answer: Record<string, unknown>;
      /** What this answer adds to the batch's approved total (0 unless a plan was approved). */
      cost: number;
      /** Why, for the record and the user. */
      reason: string;
    }
  | { kind: 'hold'; reason: string };

/** What the decision depends on besides the pause. */
export interface DecideContext {
  /** Cost already approved in this batch (by policy and people). */
  approvedCost: number;
}

/**
 * Decides a pause by policy. Pure. No policy holds everything: nothing is spent
 * without the user's say. A tool the policy does not cover, and input the policy
 * cannot read (no options, a cost that is not a number), are held with the reason.
 */
export function decide(policy: Policy | null | undefined, action: PendingAction, ctx: DecideContext): Decision {
  if (!policy) return hold('no policy: held for a person');
  const input: unknown = action.input;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return hold(`${action.tool}: input is not an object: held for a person`);
  }
  const fields = input as Record<string, unknown>;
  switch (action.tool) {
    case 'confirm_scope':
      return confirmScope(policy.confirm_scope, fields, ctx.approvedCost);
    case 'ask_choice':
      return askChoice(policy.ask_choice, fields);
    case 'request_quality_image':
      return qualityImage(policy.request_quality_image);
    default:
      return hold(`no policy for tool "${action.tool}": held for a person`);
  }
}

function confirmScope(rule: Policy['confirm_scope'], input: Record<string, unknown>, approvedCost: number): Decision {
  if (!rule) return hold('policy has no confirm_scope rule: held for a person');
  if (costDoubt(input) !== null) return hold(`confirm_scope: cost ${costShown(input)}: held for a person`);
  const cost = planCost(input) ?? 0;
  // A bad running total must never read as "room left in the budget".
  if (!Number.isFinite(approvedCost) || approvedCost < 0) {
    return hold('confirm_scope: cost approved so far is unknown: held for a person');
  }
  const max = rule.approve_max_cost;
  if (cost > max) return otherwise(rule.otherwise, `cost ${cost} is over approve_max_cost ${max}`);
  const total = approvedCost + cost;
  const budget = rule.batch_budget;
  if (budget !== undefined && total > budget) {
    return otherwise(rule.otherwise, `cost ${cost} would bring the batch to ${total}, over batch_budget ${budget}`);
  }
  const within = budget === undefined ? '' : `; batch total ${total} of ${budget}`;
  return { kind: 'answer', answer: { approved: true }, cost, reason: `cost ${cost} is within approve_max_cost ${max}${within}` };
}

function otherwise(choice: 'decline' | 'hold', why: string): Decision {
  if (choice === 'decline') {
    return { kind: 'answer', answer: { approved: false }, cost: 0, reason: `${why}: declined (the narrow alternative)` };
  }
  return hold(`${why}: held for a person`);
}

type OptionId = string | number;

function askChoice(rule: Policy['ask_choice'], input: Record<string, unknown>): Decision {
  if (!rule) return hold('policy has no ask_choice rule: held for a person');
  const ids = optionIds(input['options']);
  if (typeof ids === 'string') return hold(`ask_choice: ${ids}: held for a person`);
  const allowMultiple = input['allowMultiple'] ?? false;
  if (typeof allowMultiple !== 'boolean') return hold('ask_choice: input.allowMultiple is not a boolean: held for a person');
  const withNote = (answer: Record<string, unknown>) => (rule.note === undefined ? answer : { ...answer, note: rule.note });
  for (const wanted of rule.prefer) {
    const found = ids.find((id) => String(id) === String(wanted));
    if (found !== undefined) {
      return { kind: 'answer', answer: withNote({ decision: 'chosen', chosen: [found] }), cost: 0, reason: `preferred option "${found}" is offered` };
    }
  }
  const none = rule.prefer.length === 0 ? 'no preference given' : 'no preferred option is offered';
  switch (rule.otherwise) {
    case 'first':
      return { kind: 'answer', answer: withNote({ decision: 'chosen', chosen: [ids[0]] }), cost: 0, reason: `${none}: chose the first` };
    case 'all':
      if (!allowMultiple) return hold(`${none}, and the question allows one choice, not all: held for a person`);
      return { kind: 'answer', answer: withNote({ decision: 'chosen', chosen: ids }), cost: 0, reason: `${none}: chose all` };
    case 'decline':
      return { kind: 'answer', answer: withNote({ decision: 'declined' }), cost: 0, reason: `${none}: declined` };
    case 'hold':
      return hold(`${none}: held for a person`);
  }
}

/** The offered option ids, distinct and in order, or what is wrong with the options. */
function optionIds(options: unknown): OptionId[] | string {
  if (!Array.isArray(options)) return 'input.options is not a list';
  if (options.length === 0) return 'no options offered';
  const ids: OptionId[] = [];
  for (const option of options) {
    const id: unknown = typeof option === 'object' && option !== null ? (option as { id?: unknown }).id : undefined;
    const valid = (typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id));
    if (!valid) return 'an option has no usable id';
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

function qualityImage(rule: Policy['request_quality_image']): Decision {
  switch (rule) {
    case 'approve':
      return { kind: 'answer', answer: { approved: true }, cost: 0, reason: 'policy approves quality images' };
    case 'decline':
      return { kind: 'answer', answer: { approved: false }, cost: 0, reason: 'policy declines quality images' };
    case 'hold':
      return hold('policy holds quality images for a person');
    case undefined:
      return hold('policy has no request_quality_image rule: held for a person');
  }
}

function hold(reason: string): Decision {
  return { kind: 'hold', reason };
}
