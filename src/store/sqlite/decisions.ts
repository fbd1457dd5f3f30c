import { type DecisionRow, decisionFromRow } from '../rows/records.js';
import type { NewDecision } from '../shapes.js';
import { isoNow } from '../../clock.js';
import type { DecisionRecord } from '../types.js';
import type { SqliteContext } from './database.js';
import { batchNumOf } from './statement-cache.js';
import { keptTotal, recordedCost } from '../../policy/cost.js';
import { groupSpendSql } from '../common/budget-group.js';

// The decisions table: every answer to a pause, by policy or by a person, and the approved
// cost they add up to.

/**
 * Records the decision of a paused run with the key of the respond that carries it; false
 * (nothing recorded) when the run was decided already: one decision per paused run.
 */
export function insertDecision(cx: SqliteContext, batchId: string, itemId: string, d: NewDecision & { overBudget?: boolean }, respondKey: string): boolean {
  return cx.stmt.get(
      `INSERT INTO decisions (batch_num, item_id, run_id, tool, input, answer, by, person, reason, cost, decided_at, respond_key, over_budget)
       VALUES (${batchNumOf()}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (batch_num, run_id) DO NOTHING`,
    )
    .run(
      batchId,
      itemId,
      d.runId,
      d.tool,
      JSON.stringify(d.input),
      JSON.stringify(d.answer),
      d.by,
      d.person ?? null,
      d.reason,
      // Only a trusted cost is ever recorded: every sum over decisions stays finite.
      recordedCost(d.cost),
      isoNow(cx.clock),
      respondKey,
      d.overBudget ? 1 : 0,
    ).changes === 1;
}

/** The decision of a paused run, or null when it has none. */
export function decisionForRun(cx: SqliteContext, batchId: string, runId: string): DecisionRecord | null {
  const row = cx.stmt.get(`SELECT ? AS batch_id, * FROM decisions WHERE batch_num = ${batchNumOf()} AND run_id = ?`).get(batchId, batchId, runId) as DecisionRow | undefined;
  return row ? decisionFromRow(row) : null;
}

/**
 * Total cost approved in a batch (by policy and by people), its own: the budget counts its group's ({@link budgetSpent}).
 * One row, batch_spend (migration 020), kept by the triggers on decisions: not a sum of the
 * batch's decisions at every pause.
 */
export function approvedCost(cx: SqliteContext, batchId: string): number {
  return keptTotal(cx.stmt.get(`SELECT coalesce((SELECT approved FROM batch_spend WHERE batch_num = ${batchNumOf()}), 0)`).pluck().get(batchId));
}

/**
 * What the budget group of a batch has approved (the batch, and every batch that spends with it
 * or that it spends with): what every budget check counts against batch_budget.
 */
export function budgetSpent(cx: SqliteContext, batchId: string): number {
  return keptTotal(cx.stmt.get(groupSpendSql('id = ?')).pluck().get(batchId));
}

/** An item's decisions in order. */
export function decisionsForItem(cx: SqliteContext, batchId: string, itemId: string): DecisionRecord[] {
  return (
    cx.stmt.get(`SELECT ? AS batch_id, * FROM decisions WHERE batch_num = ${batchNumOf()} AND item_id = ? ORDER BY id`)
      .all(batchId, batchId, itemId) as DecisionRow[]
  ).map(decisionFromRow);
}
