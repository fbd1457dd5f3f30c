import type { Queryable } from './pool.js';
import type { BatchDecision, BatchTotals, ItemStats, RunTime } from '../shapes.js';
import { all, BATCH_NUM, one } from './sql.js';
import { trustedCostSql } from '../common/cost-sums.js';
import { keptTotal } from '../../policy/cost.js';

type Q = Queryable;

/** The summaries of a batch a notebook reads (per-item stats, totals, times, decisions), PostgreSQL adapter (one statement each). */

const SECONDS = (a: string, b: string): string => `extract(epoch from (${a}::timestamptz - ${b}::timestamptz))`;

export async function itemStats(c: Q, batchId: string): Promise<Map<string, ItemStats>> {
  const rows = await all<ItemStats>(
    c,
    `SELECT i.id AS "itemId", coalesce(r.n, 0) AS runs, coalesce(r.secs, 0)::float8 AS "runSeconds",
            coalesce(d.n, 0) AS decisions, coalesce(d.cost, 0) AS "approvedCost", coalesce(f.n, 0) AS files
     FROM items i
     LEFT JOIN (SELECT item_id, count(*) AS n, CASE WHEN bool_or(finished_at IS NOT NULL AND seconds IS NULL) THEN 0 ELSE sum(coalesce(seconds, 0)) END AS secs
                FROM runs WHERE batch_num = ${BATCH_NUM('$1')} GROUP BY item_id) r ON r.item_id = i.id
     LEFT JOIN (SELECT item_id, count(*) AS n, sum(${trustedCostSql('cost')}) AS cost FROM decisions WHERE batch_num = ${BATCH_NUM('$1')} GROUP BY item_id) d ON d.item_id = i.id
     LEFT JOIN (SELECT item_id, count(*) AS n FROM files WHERE batch_num = ${BATCH_NUM('$1')} GROUP BY item_id) f ON f.item_id = i.id
     WHERE i.batch_num = ${BATCH_NUM('$1')}`,
    [batchId],
  );
  return new Map(rows.map((r) => [r.itemId, r]));
}

export async function batchTotals(c: Q, batchId: string): Promise<BatchTotals> {
  const t = (await one<BatchTotals>(
    c,
    // The approved cost kept running (batch_spend, 020).
    `SELECT (SELECT count(*) FROM runs WHERE batch_num = n.num) AS runs,
            (SELECT count(*) FROM decisions WHERE batch_num = n.num) AS decisions,
            coalesce((SELECT approved FROM batch_spend WHERE batch_num = n.num), 0) AS "approvedCost",
            (SELECT coalesce(sum(bytes), 0) FROM files WHERE batch_num = n.num AND status = 'downloaded') AS "fileBytes"
     FROM (SELECT ${BATCH_NUM('$1')} AS num) n`,
    [batchId],
  ))!;
  return { ...t, approvedCost: keptTotal(t.approvedCost) };
}

export async function itemSeconds(c: Q, batchId: string): Promise<number[]> {
  const rows = await all<{ s: number }>(c, `SELECT ${SECONDS('finished_at', 'started_at')}::float8 AS s FROM items i WHERE batch_num = ${BATCH_NUM('$1')} AND started_at IS NOT NULL AND finished_at IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM runs u WHERE u.batch_num = i.batch_num AND u.item_id = i.id AND u.unwatched = 1)`, [batchId]);
  return rows.map((r) => r.s);
}

export async function runTimes(c: Q, batchId: string): Promise<RunTime[]> {
  return all<RunTime>(
    c,
    `SELECT item_id AS "itemId", id AS "runId", step, status, (required_action::jsonb)->>'tool' AS tool,
            created_at AS "createdAt", finished_at AS "finishedAt", seconds, unwatched = 1 AS unwatched
     FROM runs WHERE batch_num = ${BATCH_NUM('$1')} ORDER BY created_at, step`,
    [batchId],
  );
}

export async function batchDecisions(c: Q, batchId: string): Promise<BatchDecision[]> {
  const rows = await all<Omit<BatchDecision, 'input' | 'answer'> & { input: string; answer: string }>(
    c,
    `SELECT item_id AS "itemId", tool, input, answer, by, person, reason, cost, decided_at AS "decidedAt" FROM decisions WHERE batch_num = ${BATCH_NUM('$1')} ORDER BY id`,
    [batchId],
  );
  return rows.map((r) => ({ ...r, input: JSON.parse(r.input) as Record<string, unknown>, answer: JSON.parse(r.answer) as Record<string, unknown> }));
}
