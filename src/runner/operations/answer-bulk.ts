import { AlreadyAnsweredError, InputError, OverBudgetError, PauseMovedError, type PauseSeen } from '../../errors.js';
import { deciderName } from '../../read/decision-text.js';
import { type HeldFilter, type SelectedHeld, selectHeld } from '../../read/held-selection.js';
import { budgetOf } from '../../read/spend.js';
import type { BatchRecord, ReadStore, TransitionStore } from '../../store/index.js';
import { answerFor, answerHeldItem, type PersonReply, whyNotHeld, whyRefused } from './answer.js';

/** One item a bulk decision answered. */
export interface BulkAnswered {
  id: string;
  /** The pause answered: the one listed when the person confirmed. */
  runId: string;
  tool: string;
  /** The pause's cost (a plan's `input.cost`), or null. */
  cost: number | null;
  /** The answer took the batch past its budget (the person confirmed that). */
  overBudget: boolean;
  /** The answer the next respond carries. */
  answer: Record<string, unknown>;
}

/** A pause as a person saw it listed: the item and the run it was paused on. */
export interface ListedPause {
  id: string;
  runId: string;
}

/** One item a bulk decision left alone, and why: who answered it first, when someone did. */
export interface BulkSkipped {
  id: string;
  reason: string;
  /** Who answered it first: the person's name, `the policy`, `a person` (no name given); null when nobody did (it ended, or is no item). */
  by: string | null;
  /** When that answer was recorded, or null. */
  at: string | null;
  /** The pause it waits on now, when it paused again since it was listed. */
  pause?: PauseSeen;
}

/** What a bulk decision did, item by item. */
export interface BulkAnswerResult {
  batch: string;
  person: string | null;
  answered: BulkAnswered[];
  skipped: BulkSkipped[];
  /** Sum of the answered items' pause costs (spent or not: see {@link spent}). */
  totalCost: number;
  /** The cost these answers approved (0 for declines and choices). */
  spent: number;
}

/** What a bulk decision is given besides the reply. */
export interface BulkOptions {
  person?: string | null;
  /** The person confirmed that these approvals may take the batch past its `batch_budget`. @default false */
  overBudget?: boolean;
  /** Called once the selection is read, before the first answer is written. */
  onSelected?: (items: readonly SelectedHeld[]) => Promise<void> | void;
}

/** An item left alone, from the error that refused its answer; undefined for any other error. */
function skippedFor(id: string, e: unknown): BulkSkipped | undefined {
  if (e instanceof AlreadyAnsweredError) {
    const name = deciderName(e);
    return { id, reason: `already answered by ${name} at ${e.answeredAt} (now ${e.state})`, by: name, at: e.answeredAt };
  }
  if (e instanceof PauseMovedError) return { id, reason: e.message, by: e.seenAnsweredBy?.who ?? null, at: e.seenAnsweredBy?.at ?? null, pause: e.now };
  if (e instanceof InputError || e instanceof OverBudgetError) return { id, reason: e.message, by: null, at: null };
  return undefined;
}

/**
 * Checks the reply against every selected pause before anything is recorded: a reply that
 * does not fit one of them (approve for a choice, an option one does not offer) refuses the
 * whole decision, naming the items, so nothing is half done.
 */
export function checkReplyFits(items: readonly SelectedHeld[], reply: PersonReply): void {
  const misfits: string[] = [];
  for (const it of items) {
    try {
      answerFor(it.tool, it.input, reply);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      misfits.push(`${it.id} (${it.tool}: ${e.message})`);
    }
  }
  if (misfits.length === 0) return;
  const shown = misfits.slice(0, 5).join('; ');
  const more = misfits.length > 5 ? `; and ${misfits.length - 5} more` : '';
  throw new InputError(`the answer does not fit ${misfits.length} of the ${items.length} selected item(s): ${shown}${more}. Nothing recorded: narrow the selection (--tool, or the page's tool filter)`);
}

/**
 * Refuses, before anything is recorded, approvals that together take the batch past its
 * `batch_budget` when the person did not confirm going over ({@link OverBudgetError} naming
 * the totals). Each answer is held to the budget again as it is recorded.
 */
async function checkBulkBudget(store: ReadStore, batch: BatchRecord, items: readonly SelectedHeld[], reply: PersonReply, overBudget: boolean): Promise<void> {
  const budget = budgetOf(batch.policy);
  if (budget === null || overBudget) return;
  const cost = items.reduce((n, it) => n + answerFor(it.tool, it.input, reply).cost, 0);
  if (cost <= 0) return;
  // The budget's group: a batch and its judge spend one budget.
  const approved = await store.budgetSpent(batch.id);
  if (approved + cost > budget) throw new OverBudgetError(`${items.length} held item(s)`, approved, cost, budget);
}

/**
 * Answers the pauses selected, each with its own decision through {@link answerHeldItem}
 * (one decision per pause, written whole or not at all), for the pause listed and no later one.
 */
async function answerSelected(
  store: ReadStore & TransitionStore,
  batch: BatchRecord,
  items: readonly SelectedHeld[],
  skipped: BulkSkipped[],
  reply: PersonReply,
  o: BulkOptions,
): Promise<BulkAnswerResult> {
  checkReplyFits(items, reply);
  await checkBulkBudget(store, batch, items, reply, o.overBudget === true);
  const person = o.person?.trim() || null;
  await o.onSelected?.(items);
  const answered: BulkAnswered[] = [];
  let spent = 0;
  for (const it of items) {
    try {
      const r = await answerHeldItem(store, batch, it.id, reply, { person, runId: it.runId, overBudget: o.overBudget === true });
      answered.push({ id: it.id, runId: it.runId, tool: it.tool, cost: it.cost, overBudget: r.overBudget, answer: r.answer });
      spent += r.cost;
    } catch (e) {
      const s = skippedFor(it.id, e);
      if (!s) throw e;
      skipped.push(s);
    }
  }
  return { batch: batch.name, person, answered, skipped, totalCost: answered.reduce((n, a) => n + (a.cost ?? 0), 0), spent };
}

/**
 * Answers every held item `filter` selects with the same reply, each for the pause the
 * selection read, with the person's name and note. An item answered meanwhile by another
 * person or the policy (or paused again since it was selected) is skipped and named; named
 * `ids` that are not held are skipped the same way. A reply that does not fit every selected
 * pause throws InputError, and approvals that take the batch past its budget unconfirmed
 * throw OverBudgetError: then nothing is recorded. Nothing is sent from here.
 */
export async function answerHeldItems(store: ReadStore & TransitionStore, batch: BatchRecord, filter: HeldFilter, reply: PersonReply, o: BulkOptions = {}): Promise<BulkAnswerResult> {
  const selection = await selectHeld(store, batch, filter);
  const skipped: BulkSkipped[] = [];
  for (const id of selection.notHeld) skipped.push(skippedFor(id, await whyNotHeld(store, batch, id))!);
  return answerSelected(store, batch, selection.items, skipped, reply, o);
}

/**
 * Answers the pauses a person saw listed (the page's bulk decision: each item with the run it
 * was paused on when they confirmed), as {@link answerHeldItems} does. An item that paused
 * again since, was answered meanwhile or is not held is skipped and said, not answered.
 */
export async function answerListedPauses(store: ReadStore & TransitionStore, batch: BatchRecord, listed: readonly ListedPause[], reply: PersonReply, o: BulkOptions = {}): Promise<BulkAnswerResult> {
  const want = new Map<string, string>();
  for (const p of listed) if (!want.has(p.id)) want.set(p.id, p.runId);
  const selection = await selectHeld(store, batch, { ids: [...want.keys()] });
  // In file order, as a filter's selection is answered.
  const items = selection.items.filter((it) => want.get(it.id) === it.runId);
  const taken = new Set(items.map((it) => it.id));
  const skipped: BulkSkipped[] = [];
  for (const [id, runId] of want) if (!taken.has(id)) skipped.push(skippedFor(id, await whyRefused(store, batch, id, runId))!);
  return answerSelected(store, batch, items, skipped, reply, o);
}
