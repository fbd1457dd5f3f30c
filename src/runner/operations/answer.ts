import { AlreadyAnsweredError, InputError, ItemNotHeldError } from '../../errors.js';
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

/** Who answers, for the record: a person's name as they give it (the web view's user, `--by`). */
export interface Answerer {
  /** The person's name; none recorded when omitted. */
  person?: string | null;
  /**
   * The paused run the person saw (a bulk decision's selection): when the item has paused
   * again since, the answer is refused ({@link AlreadyAnsweredError} naming who decided that
   * pause), never given to a pause nobody looked at.
   */
  runId?: string;
}

/** What an answer recorded. */
export interface AnswerResult {
  batch: string;
  item: string;
  tool: string;
  /** The answer that the next respond carries. */
  answer: Record<string, unknown>;
  by: 'person';
  person: string | null;
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

async function notHeld(store: ReadStore, batch: BatchRecord, itemId: string): Promise<never> {
  throw await whyNotHeld(store, batch, itemId);
}

/**
 * Records a person's answer to a held item. The item moves to `waiting` with the key
 * for its next request stored; the runner sends it on the next run/resume, or at once
 * when a runner is attached to the batch. An item answered meanwhile (by another person
 * or a policy) throws {@link AlreadyAnsweredError}, saying who and when; a reply that
 * does not fit the pause throws {@link InputError}. Nothing is sent from here.
 */
export async function answerHeldItem(
  store: ReadStore & TransitionStore,
  batch: BatchRecord,
  itemId: string,
  reply: PersonReply,
  who: Answerer = {},
): Promise<AnswerResult> {
  const item = await store.getItem(batch.id, itemId);
  if (!item) throw new InputError(`batch "${batch.name}" has no item "${itemId}"`);
  if (item.state !== 'held' || !item.runId) return notHeld(store, batch, itemId);
  if (who.runId !== undefined && who.runId !== item.runId) {
    const seen = (await store.decisionsForItem(batch.id, itemId)).find((d) => d.runId === who.runId);
    if (seen) throw new AlreadyAnsweredError(itemId, seen.by, seen.person, seen.decidedAt, item.state);
    throw new InputError(`item "${itemId}" paused again since it was selected: look at it again`);
  }
  const run = await store.getRun(item.runId);
  const action = run?.requiredAction;
  if (!action) throw new InputError(`item "${itemId}" has no pending question recorded`);
  const { answer, cost } = answerFor(action.tool, action.input, reply);
  const person = who.person?.trim() || null;
  try {
    await store.answerHeld(
      batch.id,
      item.id,
      { runId: item.runId, tool: action.tool, input: action.input, answer, by: 'person', person, reason: reply.note ?? null, cost },
      idempotencyKey(batch.id, item.id, item.step + 1, item.attempt),
    );
  } catch (e) {
    // Another answer won the race between our read and our write: say whose.
    if (e instanceof ItemNotHeldError) return notHeld(store, batch, itemId);
    throw e;
  }
  return { batch: batch.name, item: item.id, tool: action.tool, answer, by: 'person', person };
}
