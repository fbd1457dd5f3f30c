import { type DecisionRow, decisionFromRow } from '../rows.js';
import type { NewDecision } from '../shapes.js';
import { type Db, nowIso } from './database.js';
import type { DecisionRecord } from '../types.js';
import { StatementCache } from './statement-cache.js';



/** The decisions table: every answer to a pause, by policy or by a person. */
export class DecisionRepo {
  readonly #sql: StatementCache;
  constructor(db: Db) {
    this.#sql = new StatementCache(db);
  }

  /** Records one decision. */
  insert(batchId: string, itemId: string, d: NewDecision): void {
    this.#sql.get(
        `INSERT INTO decisions (batch_id, item_id, run_id, tool, input, answer, by, person, reason, cost, decided_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        d.cost,
        nowIso(),
      );
  }

  /** Total cost approved in a batch (by policy and by people): what counts against batch_budget. */
  approvedCost(batchId: string): number {
    return (
      this.#sql.get('SELECT coalesce(sum(cost), 0) AS c FROM decisions WHERE batch_id = ?').get(batchId) as {
        c: number;
      }
    ).c;
  }

  /** An item's decisions in order. */
  forItem(batchId: string, itemId: string): DecisionRecord[] {
    return (
      this.#sql.get('SELECT * FROM decisions WHERE batch_id = ? AND item_id = ? ORDER BY id')
        .all(batchId, itemId) as DecisionRow[]
    ).map(decisionFromRow);
  }
}
