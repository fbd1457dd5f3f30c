import { ItemNotHeldError } from '../../errors.js';
import { type Holding, leaseLost, priorOutcome, stillHeld } from '../common/fencing.js';
import type { AdmittedRun, BudgetGuard, NewDecision, PauseOutcome, RunSnapshot } from '../shapes.js';
import { checkBudget } from '../common/budget-check.js';
import { isTerminal } from '../item-states.js';
import type { ItemRecord } from '../types.js';
import { isoNow } from '../../clock.js';
import { batchNum, type SqliteContext } from './database.js';
import { batchNumOf } from './statement-cache.js';
import { getItem, getItemAgain, type ItemPatch, landFlight, patchFlight, startFlight } from './flights.js';
import { budgetSpent, decisionForRun, insertDecision } from './decisions.js';
import { recordFile } from './files.js';
import { type RunErrorColumns, runErrorColumns } from '../rows/run-failure.js';
import type { FlightColumn } from '../common/flights.js';
import { admittedPatch, answeredPatch, cancelledPatch, errorPatch, finishedPatch, heldPatch, pauseSeen } from '../common/transition-patches.js';
import { type RunTimes, runTimes } from '../common/run-times.js';

/**
 * The transitions of an agent item, each run inside one write transaction. In flight
 * (submitting → running → waiting → running …) only the item's flight is written (flights.ts:
 * a narrow integer-keyed row); its own row when it is held and when it ends. Every write of a
 * driver is conditioned on the flight's owner and fencing token. Every time written is the
 * store's clock (cx.clock). The columns each writes: common/transition-patches.ts. A change
 * that must leave the database with it (an outbox row) is written beside these statements,
 * in the same transaction.
 */

/**
 * The item as it is now, checked to be still the caller's (its owner and fencing token): a
 * worker whose lease was taken over while it was stopped must not write over the new owner's work.
 */
function current(cx: SqliteContext, item: ItemRecord): ItemRecord {
  const now = getItemAgain(cx, item);
  if (!now || !stillHeld(now, item)) throw leaseLost(item.id, now, item);
  return now;
}

/** The error of a driver whose item is no longer its own: the row is read only then. */
function lost(cx: SqliteContext, item: Holding & { batchId: string; id: string }): never {
  throw leaseLost(item.id, getItem(cx, item.batchId, item.id), item);
}

/** `item` with `patch` (items columns) applied, as the database hands it back (JSON columns through JSON). */
function patched(item: ItemRecord, patch: ItemPatch, updatedAt: string): ItemRecord {
  const next: ItemRecord = { ...item, updatedAt };
  for (const [col, v] of Object.entries(patch) as [keyof ItemPatch, unknown][]) {
    (next as unknown as Record<string, unknown>)[FIELD[col]] = v !== null && typeof v === 'object' ? JSON.parse(JSON.stringify(v)) : v;
  }
  return next;
}

/** The columns the runner may change, each with its field in the record. */
const FIELD = {
  state: 'state',
  step: 'step',
  pending_key: 'pendingKey',
  pending_answer: 'pendingAnswer',
  run_id: 'runId',
  thread_id: 'threadId',
  run_status: 'runStatus',
  text: 'text',
  error: 'error',
  error_code: 'errorCode',
  hold_reason: 'holdReason',
  started_at: 'startedAt',
  finished_at: 'finishedAt',
  owner: 'owner',
  lease_until: 'leaseUntil',
  attempt: 'attempt',
  fence: 'fence',
} as const satisfies Record<keyof ItemPatch, keyof ItemRecord>;

/** {@link patchFlight} of a driver's item: the item as it is now, or null when it is no longer the driver's. */
function patchHeld(cx: SqliteContext, item: ItemRecord, patch: Partial<Record<FlightColumn, unknown>>): ItemRecord | null {
  const at = patchFlight(cx, item.batchId, item.id, patch, item);
  return at === null ? null : patched(item, patch as ItemPatch, at);
}

/**
 * {@link landFlight} of a driver's item: the item as it is now (the driver's copy with `patch`, no
 * owner, no lease: no read of the row), or null when it is no longer the driver's.
 */
function landHeld(cx: SqliteContext, item: ItemRecord, patch: ItemPatch): ItemRecord | null {
  const at = landFlight(cx, item.batchId, item.id, patch, item);
  return at === null ? null : { ...patched(item, patch, at), owner: null, leaseUntil: null };
}

/** Records an admitted run; a replayed admission (same id) changes nothing. */
function insertRun(cx: SqliteContext, batchId: string, itemId: string, run: AdmittedRun): void {
  cx.stmt.get(
      `INSERT INTO runs (id, batch_num, item_id, step, parent_run_id, idempotency_key, status, thread_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`,
    )
    .run(run.id, batchNum(cx, batchId), itemId, run.step, run.parentRunId, run.idempotencyKey, run.status, run.threadId, isoNow(cx.clock));
}

/** Records what a finished (or paused) run said. */
function finishRun(
  cx: SqliteContext,
  id: string,
  status: string,
  requiredAction: unknown,
  output: unknown,
  failure: RunErrorColumns = { error_code: null, error: null },
  times: RunTimes = { serviceSeconds: null, unwatched: false },
): void {
  const now = isoNow(cx.clock);
  // Its length: the service's own when it sent its times, else resq's own, unless it ended unwatched.
  cx.stmt.get(
      `UPDATE runs SET status = ?, required_action = ?, output = ?, error_code = ?, error = ?, finished_at = ?, unwatched = ?,
         seconds = CASE WHEN ? IS NOT NULL THEN ? WHEN ? = 1 THEN NULL ELSE max(0, round((julianday(?) - julianday(created_at)) * 86400, 3)) END
       WHERE id = ?`,
    )
    .run(
      status,
      requiredAction == null ? null : JSON.stringify(requiredAction),
      output == null ? null : JSON.stringify(output),
      failure.error_code,
      failure.error,
      now,
      times.unwatched ? 1 : 0,
      times.serviceSeconds,
      times.serviceSeconds,
      times.unwatched ? 1 : 0,
      now,
      id,
    );
}

/** Records the service thread a thread key opened; the first one recorded wins. */
function setThread(cx: SqliteContext, batchId: string, threadKey: string, threadId: string): void {
  cx.stmt.get(`INSERT INTO threads (batch_num, thread_key, thread_id) VALUES (${batchNumOf()}, ?, ?) ON CONFLICT DO NOTHING`)
    .run(batchId, threadKey, threadId);
}

/** Records an admitted run (first or after a respond) and moves the item to `running`: its flight alone. */
export function markAdmitted(cx: SqliteContext, item: ItemRecord, run: AdmittedRun): ItemRecord {
  const next = patchHeld(cx, item, admittedPatch(item, run)) ?? lost(cx, item);
  insertRun(cx, item.batchId, item.id, run);
  if (item.threadKey && run.threadId) setThread(cx, item.batchId, item.threadKey, run.threadId);
  return { ...next, holdReason: null };
}

function recordRun(cx: SqliteContext, item: ItemRecord, run: RunSnapshot): void {
  finishRun(cx, run.id, run.status, run.requiredAction, run.output, runErrorColumns(run), runTimes(run));
  const seen = new Date(cx.clock.now());
  const created = run.createdAt ? new Date(run.createdAt) : null;
  for (const f of run.files) recordFile(cx, item.batchId, item.id, run.id, f, seen, created);
}

/** Records a finished run and the item's final state: its flight lands on its row; the lease ends with it. */
export function markFinished(cx: SqliteContext, item: ItemRecord, run: RunSnapshot, state: 'completed' | 'failed' | 'cancelled'): ItemRecord {
  const next = landHeld(cx, item, finishedPatch(item, run, state, isoNow(cx.clock))) ?? lost(cx, item);
  recordRun(cx, item, run);
  return next;
}

/**
 * Records a decision with the key of the respond that carries it and moves the item to
 * `waiting` in flight (a held item's flight starts again, with no owner); false (nothing
 * changed) when the paused run was decided already.
 */
function answer(cx: SqliteContext, item: ItemRecord, decision: NewDecision & { overBudget?: boolean }, nextKey: string, seen: { run_status?: string; text?: string | null } = {}): boolean {
  if (!insertDecision(cx, item.batchId, item.id, decision, nextKey)) return false;
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
    startFlight(cx, next, { hold_reason: null });
  } else if (patchFlight(cx, item.batchId, item.id, waiting) === null) {
    throw new Error(`item ${item.batchId}/${item.id} has no flight to answer`);
  }
  return true;
}

/** Records a paused run and what `decide` makes of it: answered (the worker keeps it, in flight) or held (its flight lands, no lease). */
export function markPaused(cx: SqliteContext, item: ItemRecord, run: RunSnapshot, decide: (approvedCost: number) => PauseOutcome): { outcome: PauseOutcome; item: ItemRecord } {
  const now = current(cx, item);
  // Decided already (one decision per paused run): nothing recorded, the first decision stands.
  const prior = decisionForRun(cx, now.batchId, run.id);
  if (prior) return { outcome: priorOutcome(prior, now.pendingKey ?? ''), item: now };
  recordRun(cx, now, run);
  const outcome = decide(budgetSpent(cx, now.batchId));
  const seen = pauseSeen(run);
  if (outcome.kind === 'answer') answer(cx, now, outcome.decision, outcome.nextKey, seen);
  else landFlight(cx, now.batchId, now.id, heldPatch(seen, outcome.reason));
  return { outcome, item: getItem(cx, now.batchId, now.id)! };
}

/** A person's answer to the held pause it names; any worker sends it. Held to `budget` when given (checkBudget). */
export function answerHeld(cx: SqliteContext, batchId: string, itemId: string, decision: NewDecision, nextKey: string, budget?: BudgetGuard): { overBudget: boolean } {
  const now = getItem(cx, batchId, itemId);
  if (!now || now.state !== 'held') throw new ItemNotHeldError(itemId, now?.state ?? null);
  // Paused again since the answer's pause was read: it is not this one's answer.
  if (now.runId !== decision.runId) throw new ItemNotHeldError(itemId, 'held on a later pause');
  const overBudget = checkBudget(itemId, budgetSpent(cx, batchId), decision.cost, budget);
  if (!answer(cx, now, { ...decision, overBudget }, nextKey)) throw new ItemNotHeldError(itemId, 'decided');
  return { overBudget };
}

/** A held item under a (new) policy: an answer moves it to `waiting`, a hold changes nothing. */
export function redecideHeld(cx: SqliteContext, batchId: string, itemId: string, decide: (approvedCost: number) => PauseOutcome): PauseOutcome {
  const now = getItem(cx, batchId, itemId);
  if (!now || now.state !== 'held') return { kind: 'hold', reason: `item is ${now?.state ?? 'gone'}` };
  const outcome = decide(budgetSpent(cx, batchId));
  if (outcome.kind === 'answer' && !answer(cx, now, outcome.decision, outcome.nextKey)) return { kind: 'hold', reason: 'decided already' };
  return outcome;
}

/** Ends an unfinished item as `cancelled`; false when it had already ended. */
export function markCancelled(cx: SqliteContext, batchId: string, itemId: string): boolean {
  const now = getItem(cx, batchId, itemId);
  if (!now || isTerminal(now.state)) return false;
  landFlight(cx, batchId, itemId, cancelledPatch(isoNow(cx.clock)));
  return true;
}

/**
 * A permanent client-side fault: the item ends in `error` with the message and, when known, a
 * code. With `held` (a driver's holding), only while the item is still held so.
 */
export function markError(cx: SqliteContext, batchId: string, itemId: string, message: string, code: string | null = null, held?: Holding): ItemRecord | null {
  const now = getItem(cx, batchId, itemId);
  if (!now) return null;
  if (held && !stillHeld(now, held)) throw leaseLost(itemId, now, held);
  landFlight(cx, batchId, itemId, errorPatch(message, code, isoNow(cx.clock)));
  return getItem(cx, batchId, itemId);
}
