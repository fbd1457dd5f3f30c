import { type Clock, isoNow, systemClock } from '../../clock.js';
import type pg from 'pg';
import { ItemNotHeldError } from '../../errors.js';
import { type Holding, leaseLost, priorOutcome, stillHeld } from '../common/fencing.js';
import { checkBudget } from '../common/budget-check.js';
import { groupLeaderSql, groupSpendSql } from '../common/budget-group.js';
import type { AdmittedRun, BudgetGuard, NewDecision, PauseOutcome, RunSnapshot } from '../shapes.js';
import { isTerminal } from '../item-states.js';
import type { ItemRecord } from '../types.js';
import { getItem, getItemAgain, updateItem } from './flights.js';
import { decisionForRun, insertDecision } from './decisions.js';
import { recordFile } from './files.js';
import { ANSWERED_CHANNEL } from './pool.js';
import { runErrorColumns } from '../rows/run-failure.js';
import { admittedPatch, answeredPatch, cancelledPatch, errorPatch, finishedPatch, heldPatch, pauseSeen, UNHELD, UNLEASED } from '../common/transition-patches.js';
import { runTimes } from '../common/run-times.js';
import { numOf, prepared } from './sql.js';
import { keptTotal } from '../../policy/cost.js';

/** Sent prepared: parsed and planned once per connection (sql.ts `hot`). */
const { exec } = prepared;

/**
 * Item state changes of the PostgreSQL adapter, each run inside one transaction with the
 * item's row locked (FOR NO KEY UPDATE); the same rules as the SQLite adapter's transitions.ts.
 * A step in flight writes the item's `flights` row alone, fenced by its token; holding or
 * ending it writes the item's row (flights.ts `updateItem`). Every time written is the
 * store's clock's (`clock`). A row of another table written in the same transaction as the
 * item's change (a run, a decision, an outbox row) goes beside the `updateItem` call.
 */

/**
 * The item's row, locked, checked to be still the caller's by its owner and fencing token (a
 * stale driver must not write over a takeover, nor a second driver of one worker over the first).
 */
async function current(c: pg.ClientBase, item: ItemRecord): Promise<ItemRecord> {
  const now = await getItemAgain(c, item, true);
  if (!now || !stillHeld(now, item)) throw leaseLost(item.id, now, item);
  return now;
}

async function recordRun(c: pg.ClientBase, item: ItemRecord, run: RunSnapshot, clock: Clock = systemClock): Promise<void> {
  const failure = runErrorColumns(run);
  const times = runTimes(run);
  // Its length: the service's own when it sent its times, else resq's own, unless it ended unwatched.
  await exec(c,
    `UPDATE runs SET status = $1, required_action = $2, output = $3, error_code = $4, error = $5, finished_at = $6::text, unwatched = $8::int,
       seconds = CASE WHEN $9::float8 IS NOT NULL THEN $9::float8 WHEN $8::int = 1 THEN NULL
                      ELSE greatest(0, round(extract(epoch from ($6::text::timestamptz - created_at::timestamptz))::numeric, 3))::float8 END
     WHERE id = $7`, [
    run.status,
    run.requiredAction == null ? null : JSON.stringify(run.requiredAction),
    run.output == null ? null : JSON.stringify(run.output),
    failure.error_code,
    failure.error,
    isoNow(clock),
    run.id,
    times.unwatched ? 1 : 0,
    times.serviceSeconds,
  ]);
  const seen = new Date(clock.now());
  const created = run.createdAt ? new Date(run.createdAt) : null;
  for (const f of run.files) await recordFile(c, numOf(item), item.id, run.id, f, seen, created);
}

/**
 * The row of the batch's budget group leader locked (FOR NO KEY UPDATE) for the rest of the
 * transaction, then the group's approved cost read in a statement of its own: decisions of a
 * batch and of every batch spending with it take that one row lock first, so two drivers (on
 * a batch and on its judge) never both spend the last of a budget, and the total read after
 * the lock is granted has every decision committed before it (READ COMMITTED: each statement
 * reads what is committed when it starts; one statement locking and reading would read the
 * total as it was before the wait). The decision's own triggers lock its batch's row after:
 * always the leader's first, then a member's.
 */
async function lockedSpend(c: pg.ClientBase, item: ItemRecord): Promise<number> {
  await exec(c, `SELECT 1 FROM batches WHERE num = ${groupLeaderSql('num = $1')} FOR NO KEY UPDATE`, [numOf(item)]);
  return keptTotal((await exec(c, groupSpendSql('num = $1'), [numOf(item)])).rows[0]?.c);
}

export async function markAdmitted(c: pg.ClientBase, item: ItemRecord, run: AdmittedRun, clock: Clock = systemClock): Promise<ItemRecord> {
  const now = await current(c, item);
  await exec(c,
    `INSERT INTO runs (id, batch_num, item_id, step, parent_run_id, idempotency_key, status, thread_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
    [run.id, numOf(now), now.id, run.step, run.parentRunId, run.idempotencyKey, run.status, run.threadId, isoNow(clock)],
  );
  if (now.threadKey && run.threadId)
    await exec(c,
      `INSERT INTO threads (batch_num, thread_key, thread_id) VALUES ($1, $2, $3)
       ON CONFLICT (batch_num, thread_key) DO UPDATE SET thread_id = excluded.thread_id`,
      [numOf(now), now.threadKey, run.threadId],
    );
  return updateItem(c, now.batchId, now.id, admittedPatch(now, run, UNHELD), isoNow(clock), now);
}

export async function markFinished(c: pg.ClientBase, item: ItemRecord, run: RunSnapshot, state: 'completed' | 'failed' | 'cancelled', clock: Clock = systemClock): Promise<ItemRecord> {
  const now = await current(c, item);
  await recordRun(c, now, run, clock);
  return updateItem(c, now.batchId, now.id, finishedPatch(now, run, state, isoNow(clock), UNLEASED), isoNow(clock), now);
}

/**
 * Records a decision with the key of the respond that carries it and moves the item to
 * `waiting`; null (nothing changed) when the paused run was decided already.
 */
async function answer(c: pg.ClientBase, item: ItemRecord, d: NewDecision & { overBudget?: boolean }, nextKey: string, seen?: ReturnType<typeof pauseSeen>, clock: Clock = systemClock): Promise<ItemRecord | null> {
  if (!(await insertDecision(c, item, d, nextKey, clock))) return null;
  return updateItem(c, item.batchId, item.id, answeredPatch(item, d, nextKey, seen, UNHELD), isoNow(clock), item);
}

export async function markPaused(c: pg.ClientBase, item: ItemRecord, run: RunSnapshot, decide: (approvedCost: number) => PauseOutcome, clock: Clock = systemClock): Promise<{ outcome: PauseOutcome; item: ItemRecord }> {
  const now = await current(c, item);
  // Decided already (one decision per paused run): nothing recorded, the first decision stands.
  const prior = await decisionForRun(c, now, run.id);
  if (prior) return { outcome: priorOutcome(prior, now.pendingKey ?? ''), item: now };
  await recordRun(c, now, run, clock);
  // Decisions of one budget group take its leader's row lock: two workers never both spend the last of a budget.
  const outcome = decide(await lockedSpend(c, now));
  const seen = pauseSeen(run);
  const after =
    outcome.kind === 'answer'
      ? (await answer(c, now, outcome.decision, outcome.nextKey, seen, clock))!
      : await updateItem(c, now.batchId, now.id, heldPatch(seen, outcome.reason, UNLEASED), isoNow(clock), now);
  return { outcome, item: after };
}

/** A person's answer to the held pause it names (as the SQLite adapter's): held to `budget` under the budget group's row lock. */
export async function answerHeld(c: pg.ClientBase, batchId: string, itemId: string, d: NewDecision, nextKey: string, clock: Clock = systemClock, budget?: BudgetGuard): Promise<{ overBudget: boolean }> {
  const now = await getItem(c, batchId, itemId, true);
  if (!now || now.state !== 'held') throw new ItemNotHeldError(itemId, now?.state ?? null);
  if (now.runId !== d.runId) throw new ItemNotHeldError(itemId, 'held on a later pause');
  // A spending answer takes the group's lock first (as a policy's decision does), held to a budget or not: two people
  // never both spend the last of a budget, and the decision's triggers lock its batch's row after the leader's, as every writer does.
  const overBudget = d.cost > 0 ? checkBudget(itemId, await lockedSpend(c, now), d.cost, budget) : false;
  if (!(await answer(c, now, { ...d, overBudget }, nextKey, undefined, clock))) throw new ItemNotHeldError(itemId, 'decided');
  // Delivered at commit: the worker that carries it on wakes at once.
  await c.query('SELECT pg_notify($1, $2)', [ANSWERED_CHANNEL, batchId]);
  return { overBudget };
}

export async function redecideHeld(c: pg.ClientBase, batchId: string, itemId: string, decide: (approvedCost: number) => PauseOutcome, clock: Clock = systemClock): Promise<PauseOutcome> {
  const now = await getItem(c, batchId, itemId, true);
  if (!now || now.state !== 'held') return { kind: 'hold', reason: `item is ${now?.state ?? 'gone'}` };
  const outcome = decide(await lockedSpend(c, now));
  if (outcome.kind === 'answer' && !(await answer(c, now, outcome.decision, outcome.nextKey, undefined, clock))) return { kind: 'hold', reason: 'decided already' };
  return outcome;
}

export async function markError(c: pg.ClientBase, batchId: string, itemId: string, message: string, code: string | null = null, held?: Holding, clock: Clock = systemClock): Promise<ItemRecord | null> {
  const now = await getItem(c, batchId, itemId, true);
  if (!now) return null;
  if (held && !stillHeld(now, held)) throw leaseLost(itemId, now, held);
  return updateItem(c, batchId, itemId, errorPatch(message, code, isoNow(clock), UNLEASED), isoNow(clock), now);
}

export async function markCancelled(c: pg.ClientBase, batchId: string, itemId: string, clock: Clock = systemClock): Promise<boolean> {
  const now = await getItem(c, batchId, itemId, true);
  if (!now || isTerminal(now.state)) return false;
  await updateItem(c, batchId, itemId, cancelledPatch(isoNow(clock), UNLEASED), isoNow(clock), now);
  return true;
}
