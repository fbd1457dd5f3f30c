import { AlreadyAnsweredError, InputError, ItemNotHeldError, PauseMovedError, type PauseSeen } from '../../errors.js';
import { deciderName } from '../../read/decision-text.js';
import { budgetOf } from '../../read/spend.js';
import type { BatchRecord, ReadStore, TransitionStore } from '../../store/index.js';
import { idempotencyKey } from '../../store/keys.js';
import { planCost } from '../../policy/cost.js';

/** A person's reply to a held pause. */
export type PersonReply =
  | { kind: 'approve'; note?: string }
  | { kind: 'decline'; note?: string }
  | { kind: 'choose'; ids: string[]; note?: string };

/** The option ids offered, each once (a service may repeat one), in order. */
function optionIds(input: Record<string, unknown>): string[] {
  const opts = input.options;
  if (!Array.isArray(opts)) return [];
  return [...new Set(opts.flatMap((o) => (o && typeof o === 'object' && typeof (o as { id?: unknown }).id === 'string' ? [(o as { id: string }).id] : [])))];
}

/** The ids given more than once, each named once. */
function repeatedIds(ids: readonly string[]): string[] {
  return [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
}

/** Builds the answer for a tool from a person's reply; throws InputError when they do not fit. */
export function answerFor(
  tool: string,
  input: Record<string, unknown>,
  reply: PersonReply,
): { answer: Record<string, unknown>; cost: number } {
  if (tool === 'ask_choice') {
    if (reply.kind === 'approve') throw new InputError(`ask_choice needs --choose ID[,ID] or --decline (offered: ${optionIds(input).join(', ')})`);
    const note = reply.note ? { note: reply.note } : {};
    if (reply.kind === 'decline') return { answer: { decision: 'declined', ...note }, cost: 0 };
    const offered = optionIds(input);
    const unknown = reply.ids.filter((id) => !offered.includes(id));
    if (unknown.length > 0) throw new InputError(`--choose: ${unknown.join(', ')} not offered (offered: ${offered.join(', ')})`);
    if (reply.ids.length === 0) throw new InputError('--choose: give at least one option id');
    const twice = repeatedIds(reply.ids);
    if (twice.length > 0) throw new InputError(`--choose: ${twice.join(', ')} given more than once: name each option once`);
    if (reply.ids.length > 1 && input.allowMultiple !== true)
      throw new InputError('--choose: this question allows only one option');
    return { answer: { decision: 'chosen', chosen: reply.ids, ...note }, cost: 0 };
  }
  if (reply.kind === 'choose') throw new InputError(`${tool} takes --approve or --decline, not --choose`);
  const approved = reply.kind === 'approve';
  // An untrusted cost (planCost null) is shown marked, may be approved by a person, and is never counted.
  const cost = tool === 'confirm_scope' && approved ? (planCost(input) ?? 0) : 0;
  return { answer: { approved }, cost };
}

/** Who answers, for the record, and which pause they answer. */
export interface Answerer {
  /** The person's name; none recorded when omitted. */
  person?: string | null;
  /**
   * The paused run the person saw (the page's pause, `resq answer --run`, a bulk decision's
   * listing): the answer is for that pause and no later one. An item that paused again since
   * refuses it ({@link PauseMovedError}, nothing recorded).
   */
  runId: string;
  /** The person confirmed that this approval may take the batch past its `batch_budget`. @default false */
  overBudget?: boolean;
}

/** What an answer recorded. */
export interface AnswerResult {
  batch: string;
  item: string;
  tool: string;
  /** The pause answered (its run). */
  runId: string;
  /** The cost this answer approved (0 for a decline or a choice). */
  cost: number;
  /** It took the batch past its budget (the person confirmed that). */
  overBudget: boolean;
  /** The answer that the next respond carries. */
  answer: Record<string, unknown>;
  by: 'person';
  person: string | null;
}

/** The pause a run records (its tool and cost), or null when the run is not this item's pause. */
async function pauseOfRun(store: ReadStore, batch: BatchRecord, itemId: string, runId: string): Promise<(PauseSeen & { input: Record<string, unknown> }) | null> {
  const run = await store.getRun(runId);
  const action = run?.requiredAction;
  if (!run || !action || run.batchId !== batch.id || run.itemId !== itemId) return null;
  return { runId, tool: action.tool, input: action.input, cost: planCost(action.input) };
}

/**
 * The pause a held item waits on now: its run, tool, input and cost. Refused as an answer
 * would be (see {@link whyNotHeld}) when the item is not held. Reads only: what `resq answer`
 * without `--run` answers, after saying which.
 */
export async function pauseWaiting(store: ReadStore, batch: BatchRecord, itemId: string): Promise<PauseSeen & { input: Record<string, unknown> }> {
  const item = await store.getItem(batch.id, itemId);
  if (!item) throw new InputError(`batch "${batch.name}" has no item "${itemId}"`);
  const pause = item.state === 'held' && item.runId ? await pauseOfRun(store, batch, itemId, item.runId) : null;
  if (!pause) throw await whyNotHeld(store, batch, itemId);
  return pause;
}

/**
 * Why an item is not held, as the error that refuses an answer to it: who answered it and
 * when ({@link AlreadyAnsweredError}), else that it ended or is no item ({@link InputError}).
 * A single answer throws it; a bulk decision names it among the items it skipped.
 */
export async function whyNotHeld(store: ReadStore, batch: BatchRecord, itemId: string): Promise<AlreadyAnsweredError | InputError> {
  const item = await store.getItem(batch.id, itemId);
  if (!item) return new InputError(`batch "${batch.name}" has no item "${itemId}"`);
  const last = (await store.decisionsForItem(batch.id, itemId)).at(-1);
  if (last && item.state !== 'queued') return new AlreadyAnsweredError(itemId, last.by, last.person, last.decidedAt, item.state);
  return new InputError(`item "${itemId}" is ${item.state}, not held: there is nothing to answer`);
}

/**
 * Why an answer to the pause `seenRunId` is refused now: the item paused again since
 * ({@link PauseMovedError}, both pauses named), else {@link whyNotHeld}.
 */
export async function whyRefused(store: ReadStore, batch: BatchRecord, itemId: string, seenRunId: string): Promise<AlreadyAnsweredError | InputError | PauseMovedError> {
  const item = await store.getItem(batch.id, itemId);
  if (item?.state === 'held' && item.runId && item.runId !== seenRunId) {
    const now = await pauseOfRun(store, batch, itemId, item.runId);
    const seen = await pauseOfRun(store, batch, itemId, seenRunId);
    const bare = (p: PauseSeen): PauseSeen => ({ runId: p.runId, tool: p.tool, cost: p.cost });
    const d = (await store.decisionsForItem(batch.id, itemId)).find((x) => x.runId === seenRunId);
    const answeredBy = d ? { who: deciderName(d), at: d.decidedAt } : null;
    if (now) return new PauseMovedError(itemId, seen && bare(seen), bare(now), answeredBy);
  }
  return whyNotHeld(store, batch, itemId);
}

/**
 * Records a person's answer to the held pause they saw (`who.runId`). The item moves to
 * `waiting` with the key for its next request stored; the runner sends it on the next
 * run/resume, or at once when a runner is attached to the batch. An item answered meanwhile
 * (by another person or a policy) throws {@link AlreadyAnsweredError}, saying who and when;
 * one that paused again since throws {@link PauseMovedError}; an approval that takes the
 * batch past its `batch_budget` throws {@link OverBudgetError} unless `who.overBudget`; a
 * reply that does not fit the pause throws {@link InputError}. Nothing is recorded when it
 * throws; nothing is sent from here.
 */
export async function answerHeldItem(
  store: ReadStore & TransitionStore,
  batch: BatchRecord,
  itemId: string,
  reply: PersonReply,
  who: Answerer,
): Promise<AnswerResult> {
  if (typeof who.runId !== 'string' || who.runId === '') throw new InputError(`name the pause of "${itemId}" you answer (its run id)`);
  const item = await store.getItem(batch.id, itemId);
  if (!item) throw new InputError(`batch "${batch.name}" has no item "${itemId}"`);
  const seen = await pauseOfRun(store, batch, itemId, who.runId);
  if (!seen) throw new InputError(`run "${who.runId}" is no pause of item "${itemId}" (resq show lists its runs and pauses)`);
  if (item.state !== 'held' || item.runId !== who.runId) throw await whyRefused(store, batch, itemId, who.runId);
  const { answer, cost } = answerFor(seen.tool, seen.input, reply);
  const person = who.person?.trim() || null;
  const budget = budgetOf(batch.policy);
  let recorded: { overBudget: boolean };
  try {
    recorded = await store.answerHeld(
      batch.id,
      item.id,
      { runId: seen.runId, tool: seen.tool, input: seen.input, answer, by: 'person', person, reason: reply.note ?? null, cost },
      idempotencyKey(batch.id, item.id, item.step + 1, item.attempt),
      budget === null ? undefined : { budget, allowOver: who.overBudget === true },
    );
  } catch (e) {
    // Another answer (or a new pause) won the race between our read and our write: say which.
    if (e instanceof ItemNotHeldError) throw await whyRefused(store, batch, itemId, who.runId);
    throw e;
  }
  return { batch: batch.name, item: item.id, tool: seen.tool, runId: seen.runId, cost, overBudget: recorded.overBudget, answer, by: 'person', person };
}
