import { ItemNotHeldError } from '../../errors.js';
import { type Holding, leaseLost, priorOutcome, stillHeld } from '../common/fencing.js';
import type { AdmittedRun, BudgetGuard, NewDecision, PauseOutcome, RunSnapshot } from '../shapes.js';
import { checkBudget } from '../common/budget-check.js';
import { isTerminal } from '../item-states.js';
import type { ItemRecord } from '../types.js';
import { isoNow } from '../../clock.js';
import type { Repos } from './repos.js';
import { runErrorColumns } from '../rows/run-failure.js';
import { admittedPatch, answeredPatch, cancelledPatch, errorPatch, finishedPatch, heldPatch, pauseSeen } from '../common/transition-patches.js';
import { runTimes } from '../common/run-times.js';

/**
 * The transitions of an agent item, each run inside one write transaction. In flight
 * (submitting → running → waiting → running …) only the item's flight is written (flights.ts:
 * a narrow integer-keyed row); its own row when it is held and when it ends. Every write of a
 * driver is conditioned on the flight's owner and fencing token. Every time written is the
 * store's clock (r.clock). The columns each writes: common/transition-patches.ts. A change
 * that must leave the database with it (an outbox row) is written beside these statements,
 * in the same transaction.
 */

/**
 * The item as it is now, checked to be still the caller's (its owner and fencing token): a
 * worker whose lease was taken over while it was stopped must not write over the new owner's work.
 */
export function current(r: Repos, item: ItemRecord): ItemRecord {
  const now = r.reads.get(item.batchId, item.id);
  if (!now || !stillHeld(now, item)) throw leaseLost(item.id, now, item);
  return now;
}

/** The error of a driver whose item is no longer its own: the row is read only then. */
function lost(r: Repos, item: Holding & { batchId: string; id: string }): never {
  throw leaseLost(item.id, r.reads.get(item.batchId, item.id), item);
}

/** Records an admitted run (first or after a respond) and moves the item to `running`: its flight alone. */
export function markAdmitted(r: Repos, item: ItemRecord, run: AdmittedRun): ItemRecord {
  const next = r.flights.patchHeld(item, admittedPatch(item, run)) ?? lost(r, item);
  r.runs.insert(item.batchId, item.id, run);
  if (item.threadKey && run.threadId) r.threads.set(item.batchId, item.threadKey, run.threadId);
  return { ...next, holdReason: null };
}

function recordRun(r: Repos, item: ItemRecord, run: RunSnapshot): void {
  r.runs.finish(run.id, run.status, run.requiredAction, run.output, runErrorColumns(run), runTimes(run));
  const seen = new Date(r.clock.now());
  const created = run.createdAt ? new Date(run.createdAt) : null;
  for (const f of run.files) r.files.record(item.batchId, item.id, run.id, f, seen, created);
}

/** Records a finished run and the item's final state: its flight lands on its row; the lease ends with it. */
export function markFinished(r: Repos, item: ItemRecord, run: RunSnapshot, state: 'completed' | 'failed' | 'cancelled'): ItemRecord {
  const next = r.flights.landHeld(item, finishedPatch(item, run, state, isoNow(r.clock))) ?? lost(r, item);
  recordRun(r, item, run);
  return next;
}

/**
 * Records a decision with the key of the respond that carries it and moves the item to
 * `waiting` in flight (a held item's flight starts again, with no owner); false (nothing
 * changed) when the paused run was decided already.
 */
function answer(r: Repos, item: ItemRecord, decision: NewDecision & { overBudget?: boolean }, nextKey: string, seen: { run_status?: string; text?: string | null } = {}): boolean {
  if (!r.decisions.insert(item.batchId, item.id, decision, nextKey)) return false;
  const waiting = answeredPatch(item, decision, nextKey, seen);
  if (item.state === 'held') {
    const next: ItemRecord = {
      ...item,
      state: 'waiting',
      step: item.step + 1,
      pendingKey: nextKey,
      pendingAnswer: decision.answer,
      runStatus: seen.run_status ?? item.runStatus,
      text: seen.text !== undefined ? seen.text : item.text,
      owner: null,
      leaseUntil: null,
    };
    r.flights.start(next, { hold_reason: null });
  } else if (r.flights.patch(item.batchId, item.id, waiting) === null) {
    throw new Error(`item ${item.batchId}/${item.id} has no flight to answer`);
  }
  return true;
}

/** Records a paused run and what `decide` makes of it: answered (the worker keeps it, in flight) or held (its flight lands, no lease). */
export function markPaused(r: Repos, item: ItemRecord, run: RunSnapshot, decide: (approvedCost: number) => PauseOutcome): { outcome: PauseOutcome; item: ItemRecord } {
  const now = current(r, item);
  // Decided already (one decision per paused run): nothing recorded, the first decision stands.
  const prior = r.decisions.forRun(now.batchId, run.id);
  if (prior) return { outcome: priorOutcome(prior, now.pendingKey ?? ''), item: now };
  recordRun(r, now, run);
  const outcome = decide(r.decisions.approvedCost(now.batchId));
  const seen = pauseSeen(run);
  if (outcome.kind === 'answer') answer(r, now, outcome.decision, outcome.nextKey, seen);
  else r.flights.land(now.batchId, now.id, heldPatch(seen, outcome.reason));
  return { outcome, item: r.reads.get(now.batchId, now.id)! };
}

/** A person's answer to the held pause it names; any worker sends it. Held to `budget` when given (checkBudget). */
export function answerHeld(r: Repos, batchId: string, itemId: string, decision: NewDecision, nextKey: string, budget?: BudgetGuard): { overBudget: boolean } {
  const now = r.reads.get(batchId, itemId);
  if (!now || now.state !== 'held') throw new ItemNotHeldError(itemId, now?.state ?? null);
  // Paused again since the answer's pause was read: it is not this one's answer.
  if (now.runId !== decision.runId) throw new ItemNotHeldError(itemId, 'held on a later pause');
  const overBudget = checkBudget(itemId, r.decisions.approvedCost(batchId), decision.cost, budget);
  if (!answer(r, now, { ...decision, overBudget }, nextKey)) throw new ItemNotHeldError(itemId, 'decided');
  return { overBudget };
}

/** A held item under a (new) policy: an answer moves it to `waiting`, a hold changes nothing. */
export function redecideHeld(r: Repos, batchId: string, itemId: string, decide: (approvedCost: number) => PauseOutcome): PauseOutcome {
  const now = r.reads.get(batchId, itemId);
  if (!now || now.state !== 'held') return { kind: 'hold', reason: `item is ${now?.state ?? 'gone'}` };
  const outcome = decide(r.decisions.approvedCost(batchId));
  if (outcome.kind === 'answer' && !answer(r, now, outcome.decision, outcome.nextKey)) return { kind: 'hold', reason: 'decided already' };
  return outcome;
}

/** Ends an unfinished item as `cancelled`; false when it had already ended. */
export function markCancelled(r: Repos, batchId: string, itemId: string): boolean {
  const now = r.reads.get(batchId, itemId);
  if (!now || isTerminal(now.state)) return false;
  r.flights.land(batchId, itemId, cancelledPatch(isoNow(r.clock)));
  return true;
}

/**
 * A permanent client-side fault: the item ends in `error` with the message and, when known, a
 * code. With `held` (a driver's holding), only while the item is still held so.
 */
export function markError(r: Repos, batchId: string, itemId: string, message: string, code: string | null = null, held?: Holding): ItemRecord | null {
  const now = r.reads.get(batchId, itemId);
  if (!now) return null;
  if (held && !stillHeld(now, held)) throw leaseLost(itemId, now, held);
  r.flights.land(batchId, itemId, errorPatch(message, code, isoNow(r.clock)));
  return r.reads.get(batchId, itemId);
}
