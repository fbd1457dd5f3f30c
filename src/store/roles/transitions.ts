import type { Holding } from '../common/fencing.js';
import type { AdmittedRun, BudgetGuard, NewDecision, PauseOutcome, RunSnapshot } from '../shapes.js';
import type { ItemRecord, ItemState } from '../types.js';

/** The transitions role: every change of an agent item's state (a run admitted, paused, answered, finished, cancelled, retried). */
export interface TransitionStore {
  /** Records an admitted run (first or after a respond) and moves the item to `running`. */
  markAdmitted(item: ItemRecord, run: AdmittedRun): Promise<ItemRecord>;
  /** Records a finished run and the item's final state; the lease ends. */
  markFinished(item: ItemRecord, run: RunSnapshot, state: 'completed' | 'failed' | 'cancelled'): Promise<ItemRecord>;
  /** Ends an unfinished item as `cancelled` (its run was cancelled, no live worker holds it); false if it had ended. */
  markCancelled(batchId: string, itemId: string): Promise<boolean>;
  /** Records a paused run and what `decide` (given the batch's approved cost) makes of it. */
  markPaused(item: ItemRecord, run: RunSnapshot, decide: (approvedCost: number) => PauseOutcome): Promise<{ outcome: PauseOutcome; item: ItemRecord }>;
  /**
   * A person's answer to a held item: recorded; the item waits for any worker to send it.
   * Refused with ItemNotHeldError (nothing recorded) unless the item is held on the pause
   * `decision.runId` names; with `budget`, held to it (see {@link BudgetGuard}). Says whether
   * the answer went over the budget (as its decision records).
   */
  answerHeld(batchId: string, itemId: string, decision: NewDecision, nextKey: string, budget?: BudgetGuard): Promise<{ overBudget: boolean }>;
  /** A held item looked at again under a (new) policy. */
  redecideHeld(batchId: string, itemId: string, decide: (approvedCost: number) => PauseOutcome): Promise<PauseOutcome>;
  /**
   * A permanent client-side fault: the item ends in `error` with its message and, when known,
   * a code (`http_400`, the service's code, …). With `held` (a driver's owner and fencing
   * token), only while the item is still held so: else LeaseLostError and nothing changes.
   */
  markError(batchId: string, itemId: string, message: string, code?: string | null, held?: Holding): Promise<ItemRecord | null>;
  /** Puts finished items back to `queued` for a new attempt (`resq retry`); returns how many. */
  requeue(batchId: string, itemIds: readonly string[] | null, states: readonly ItemState[]): Promise<string[]>;
  /** Marks a batch cancelled and every queued item `cancelled`; returns the items moved. */
  cancelBatch(batchId: string): Promise<number>;
}
