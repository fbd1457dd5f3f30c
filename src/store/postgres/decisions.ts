import type pg from 'pg';
import { type Clock, isoNow, systemClock } from '../../clock.js';
import type { Queryable } from './pool.js';
import { decisionFromRow, type DecisionRow } from '../rows/records.js';
import type { NewDecision } from '../shapes.js';
import type { DecisionRecord, ItemRecord } from '../types.js';
import { all, BATCH_NUM, numOf, prepared } from './sql.js';
import { keptTotal, recordedCost } from '../../policy/cost.js';
import { groupSpendSql } from '../common/budget-group.js';

/** Sent prepared: parsed and planned once per connection (sql.ts `hot`). */
const { exec } = prepared;

// The decisions table, PostgreSQL adapter: every answer to a pause, by policy or by a person,
// and the approved cost they add up to (batch_spend, kept by the decisions' triggers).

/**
 * Records the decision of a paused run of `item` with the key of the respond that carries it;
 * false (nothing recorded) when the run was decided already: one decision per paused run.
 */
export async function insertDecision(c: pg.ClientBase, item: ItemRecord, d: NewDecision & { overBudget?: boolean }, nextKey: string, clock: Clock = systemClock): Promise<boolean> {
  const added = await exec(c,
    `INSERT INTO decisions (batch_num, item_id, run_id, tool, input, answer, by, person, reason, cost, decided_at, respond_key, over_budget)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (batch_num, run_id) DO NOTHING`,
    [numOf(item), item.id, d.runId, d.tool, JSON.stringify(d.input), JSON.stringify(d.answer), d.by, d.person ?? null, d.reason, recordedCost(d.cost), isoNow(clock), nextKey, d.overBudget === true],
  );
  return added.rowCount === 1;
}

/** The decision of a paused run of the item's batch (index decisions_for_run), or null when it has none. */
export async function decisionForRun(c: pg.ClientBase, item: ItemRecord, runId: string): Promise<DecisionRecord | null> {
  const row = (await exec<DecisionRow>(c, 'SELECT d.*, $1::text AS batch_id FROM decisions d WHERE d.batch_num = $2 AND d.run_id = $3', [item.batchId, numOf(item), runId])).rows[0];
  return row ? decisionFromRow(row) : null;
}

/** The approved cost of a batch, its own: its one batch_spend row, kept by the decisions' triggers (020); the budget counts its group's ({@link budgetSpent}). */
export async function approvedCost(c: Queryable, batchId: string): Promise<number> {
  return keptTotal((await exec(c, `SELECT coalesce((SELECT approved FROM batch_spend WHERE batch_num = ${BATCH_NUM('$1')}), 0) AS c`, [batchId])).rows[0]!.c);
}

/**
 * What the budget group of a batch has approved (the batch, and every batch that spends with it
 * or that it spends with): what every budget check counts against batch_budget.
 */
export async function budgetSpent(c: Queryable, batchId: string): Promise<number> {
  return keptTotal((await exec(c, groupSpendSql('id = $1'), [batchId])).rows[0]?.c);
}

/** An item's decisions in order. */
export async function decisionsForItem(c: Queryable, batchId: string, itemId: string): Promise<DecisionRecord[]> {
  // index decisions_for_item
  return (await all<DecisionRow>(c, `SELECT d.*, $1::text AS batch_id FROM decisions d WHERE d.batch_num = ${BATCH_NUM('$1')} AND d.item_id = $2 ORDER BY d.id`, [batchId, itemId])).map(decisionFromRow);
}
