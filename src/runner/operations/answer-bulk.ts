import { AlreadyAnsweredError, InputError } from '../../errors.js';
import { type HeldFilter, type SelectedHeld, selectHeld } from '../../read/held-selection.js';
import type { BatchRecord, ReadStore, TransitionStore } from '../../store/index.js';
import { answerFor, answerHeldItem, type PersonReply, whyNotHeld } from './answer.js';

/** One item a bulk decision answered. */
export interface BulkAnswered {
  id: string;
  tool: string;
  /** The pause's cost (a plan's `input.cost`), or null. */
  cost: number | null;
  /** The answer the next respond carries. */
  answer: Record<string, unknown>;
}

/** One item a bulk decision left alone, and why: who answered it first, when someone did. */
export interface BulkSkipped {
  id: string;
  reason: string;
  /** Who answered it first: the person's name, `the policy`, `a person` (no name given); null when nobody did (it ended, or is no item). */
  by: string | null;
  /** When that answer was recorded, or null. */
  at: string | null;
}

/** What a bulk decision did, item by item. */
export interface BulkAnswerResult {
  batch: string;
  person: string | null;
  answered: BulkAnswered[];
  skipped: BulkSkipped[];
  /** Sum of the answered items' costs. */
  totalCost: number;
}

function who(by: 'policy' | 'person', person: string | null): string {
  return by === 'policy' ? 'the policy' : (person ?? 'a person');
}

/** An item left alone, from the error that refused its answer; undefined for any other error. */
function skippedFor(id: string, e: unknown): BulkSkipped | undefined {
  if (e instanceof AlreadyAnsweredError) {
    const name = who(e.by, e.person);
    return { id, reason: `already answered by ${name} at ${e.answeredAt} (now ${e.state})`, by: name, at: e.answeredAt };
  }
  if (e instanceof InputError) return { id, reason: e.message, by: null, at: null };
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
 * Answers every held item `filter` selects with the same reply, each with its own decision
 * through {@link answerHeldItem} (one decision per pause, written whole or not at all), with
 * the person's name and note. An item answered meanwhile by another person or the policy
 * (or paused again since it was selected) is skipped and named with who answered it; named
 * `ids` that are not held are skipped the same way. A reply that does not fit every selected
 * pause throws InputError and records nothing. Nothing is sent from here.
 */
export async function answerHeldItems(
  store: ReadStore & TransitionStore,
  batch: BatchRecord,
  filter: HeldFilter,
  reply: PersonReply,
  o: { person?: string | null; /** Called once the selection is read, before the first answer is written. */ onSelected?: (items: readonly SelectedHeld[]) => Promise<void> | void } = {},
): Promise<BulkAnswerResult> {
  const selection = await selectHeld(store, batch, filter);
  checkReplyFits(selection.items, reply);
  const person = o.person?.trim() || null;
  const skipped: BulkSkipped[] = [];
  for (const id of selection.notHeld) skipped.push(skippedFor(id, await whyNotHeld(store, batch, id))!);
  await o.onSelected?.(selection.items);
  const answered: BulkAnswered[] = [];
  for (const it of selection.items) {
    try {
      const r = await answerHeldItem(store, batch, it.id, reply, { person, runId: it.runId });
      answered.push({ id: it.id, tool: it.tool, cost: it.cost, answer: r.answer });
    } catch (e) {
      const s = skippedFor(it.id, e);
      if (!s) throw e;
      skipped.push(s);
    }
  }
  return { batch: batch.name, person, answered, skipped, totalCost: answered.reduce((n, a) => n + (a.cost ?? 0), 0) };
}
