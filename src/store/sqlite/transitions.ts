import { systemClock } from '../../clock.js';
import { ItemNotHeldError } from '../../errors.js';
import { type Holding, leaseLost, priorOutcome, stillHeld } from '../fencing.js';
import type { AdmittedRun, NewDecision, PauseOutcome, RunSnapshot } from '../shapes.js';
import { isTerminal } from '../item-states.js';
import type { ItemRecord } from '../types.js';
import { nowIso } from './database.js';
import type { ItemColumn } from './items.js';
import type { Repos } from './repos.js';
import { itemErrorColumns, runErrorColumns } from '../run-failure.js';

/**
 * The item's row as it is now, checked to be still the caller's (its owner and fencing
 * token): a worker whose lease was taken over while it was stopped must not write over the
 * new owner's work.
 */
export function current(r: Repos, item: ItemRecord): ItemRecord {
  const now = r.items.get(item.batchId, item.id);
  if (!now || !stillHeld(now, item)) throw leaseLost(item.id, now, item);
  return now;
}

/**
 * {@link ItemRepo.patchOwned} of the caller's item, or the error {@link current} gives when
 * it is no longer the caller's: the row is read only then.
 */
function patchHeld(r: Repos, item: ItemRecord, patch: Parameters<Repos['items']['patch']>[1]): ItemRecord {
  const next = r.items.patchOwned(item, patch);
  if (next) return next;
  throw leaseLost(item.id, r.items.get(item.batchId, item.id), item);
}

/** Records an admitted run (first or after a respond) and moves the item to `running`. */
export function markAdmitted(r: Repos, item: ItemRecord, run: AdmittedRun): ItemRecord {
  const next = patchHeld(r, item, {
    state: 'running',
    run_id: run.id,
    thread_id: run.threadId ?? item.threadId,
    run_status: run.status,
    pending_key: null,
    pending_answer: null,
    hold_reason: null,
  });
  r.runs.insert(item.batchId, item.id, run);
  if (item.threadKey && run.threadId) r.threads.set(item.batchId, item.threadKey, run.threadId);
  return next;
}

function recordRun(r: Repos, item: ItemRecord, run: RunSnapshot): void {
  r.runs.finish(run.id, run.status, run.requiredAction, run.output, runErrorColumns(run));
  const seen = new Date(systemClock.now());
  const created = run.createdAt ? new Date(run.createdAt) : null;
  for (const f of run.files) r.files.record(item.batchId, item.id, run.id, f, seen, created);
}

/** Records a finished run and the item's final state; the lease ends with it. */
export function markFinished(r: Repos, item: ItemRecord, run: RunSnapshot, state: 'completed' | 'failed' | 'cancelled'): ItemRecord {
  const next = patchHeld(r, item, {
    state,
    run_status: run.status,
    text: run.output?.text ?? null,
    thread_id: run.threadId ?? item.threadId,
    ...itemErrorColumns(run, state),
    finished_at: nowIso(),
    owner: null,
    lease_until: null,
  });
  recordRun(r, item, run);
  return next;
}

/**
 * Records a decision with the key of the respond that carries it and moves the item to
 * `waiting`; false (nothing changed) when the paused run was decided already.
 */
function answer(r: Repos, item: ItemRecord, decision: NewDecision, nextKey: string, also: Partial<Record<ItemColumn, unknown>> = {}): boolean {
  if (!r.decisions.insert(item.batchId, item.id, decision, nextKey)) return false;
  r.items.update(item.batchId, item.id, {
    state: 'waiting',
    step: item.step + 1,
    pending_key: nextKey,
    pending_answer: decision.answer,
    hold_reason: null,
    ...also,
  });
  return true;
}

/** Records a paused run and what `decide` makes of it: answered (the worker keeps it) or held (no lease). */
export function markPaused(r: Repos, item: ItemRecord, run: RunSnapshot, decide: (approvedCost: number) => PauseOutcome): { outcome: PauseOutcome; item: ItemRecord } {
  const now = current(r, item);
  // Decided already (one decision per paused run): nothing recorded, the first decision stands.
  const prior = r.decisions.forRun(now.batchId, run.id);
  if (prior) return { outcome: priorOutcome(prior, now.pendingKey ?? ''), item: now };
  recordRun(r, now, run);
  const outcome = decide(r.decisions.approvedCost(now.batchId));
  const seen = { run_status: run.status, text: run.output?.text ?? null };
  if (outcome.kind === 'answer') answer(r, now, outcome.decision, outcome.nextKey, seen);
  else r.items.update(now.batchId, now.id, { state: 'held', ...seen, hold_reason: outcome.reason, owner: null, lease_until: null });
  return { outcome, item: r.items.get(now.batchId, now.id)! };
}

/** A person's answer to a held item; any worker sends it. */
export function answerHeld(r: Repos, batchId: string, itemId: string, decision: NewDecision, nextKey: string): void {
  const now = r.items.get(batchId, itemId);
  if (!now || now.state !== 'held') throw new ItemNotHeldError(itemId, now?.state ?? null);
  if (!answer(r, now, decision, nextKey)) throw new ItemNotHeldError(itemId, 'decided');
}

/** A held item under a (new) policy: an answer moves it to `waiting`, a hold changes nothing. */
export function redecideHeld(r: Repos, batchId: string, itemId: string, decide: (approvedCost: number) => PauseOutcome): PauseOutcome {
  const now = r.items.get(batchId, itemId);
  if (!now || now.state !== 'held') return { kind: 'hold', reason: `item is ${now?.state ?? 'gone'}` };
  const outcome = decide(r.decisions.approvedCost(batchId));
  if (outcome.kind === 'answer' && !answer(r, now, outcome.decision, outcome.nextKey)) return { kind: 'hold', reason: 'decided already' };
  return outcome;
}

/** Ends an unfinished item as `cancelled`; false when it had already ended. */
export function markCancelled(r: Repos, batchId: string, itemId: string): boolean {
  const now = r.items.get(batchId, itemId);
  if (!now || isTerminal(now.state)) return false;
  r.items.update(batchId, itemId, { state: 'cancelled', pending_key: null, finished_at: nowIso(), owner: null, lease_until: null });
  return true;
}

/**
 * A permanent client-side fault: the item ends in `error` with the message and, when known, a
 * code. With `held` (a driver's holding), only while the item is still held so.
 */
export function markError(r: Repos, batchId: string, itemId: string, message: string, code: string | null = null, held?: Holding): ItemRecord | null {
  const now = r.items.get(batchId, itemId);
  if (!now) return null;
  if (held && !stillHeld(now, held)) throw leaseLost(itemId, now, held);
  r.items.update(batchId, itemId, { state: 'error', error: message, error_code: code, pending_key: null, finished_at: nowIso(), owner: null, lease_until: null });
  return r.items.get(batchId, itemId);
}
