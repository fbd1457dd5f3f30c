import type { Queryable } from './pool.js';
import { type BatchDecision, type BatchTotals, type ItemQuery, type ItemStats, type MetaValue, pauseFromRow, type PauseQuery, type PauseRecord, type PauseRow, type RunTime } from '../shapes.js';
import type { ItemRecord } from '../types.js';
import { all, BATCH_NUM, col, ITEM_COLS, itemFromJoined, ITEMS_FROM, type JoinedRow, one, statesWhere } from './sql.js';
import { trustedCostSql } from '../common/cost-sums.js';
import { keptTotal } from '../../policy/cost.js';

type Q = Queryable;

/** The summaries of a batch a notebook reads (filtered items, per-item stats, totals, times, decisions, pauses), PostgreSQL adapter (one statement each). */

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

export async function queryItems(c: Q, batchId: string, q: ItemQuery = {}): Promise<ItemRecord[]> {
  const where = [`i.batch_num = ${BATCH_NUM('$1')}`];
  const args: unknown[] = [batchId];
  const arg = (v: unknown): string => {
    args.push(v);
    return `$${args.length}`;
  };
  if (q.states) {
    if (q.states.length === 0) return [];
    where.push(statesWhere(arg, q.states));
  }
  for (const [key, want] of Object.entries(q.meta ?? {})) {
    const values: readonly MetaValue[] = Array.isArray(want) ? want : [want as MetaValue];
    const parts = values.map((v) =>
      v === null
        ? `NOT EXISTS (SELECT 1 FROM jsonb_each(i.meta::jsonb) e WHERE e.key = ${arg(key)} AND e.value <> 'null'::jsonb)`
        : `EXISTS (SELECT 1 FROM jsonb_each(i.meta::jsonb) e WHERE e.key = ${arg(key)} AND e.value = ${arg(JSON.stringify(v))}::jsonb)`,
    );
    where.push(parts.length ? `(${parts.join(' OR ')})` : 'false');
  }
  if (q.text) {
    const t = arg(q.text.toLowerCase());
    where.push(`(${['id', 'question', 'text', 'error', 'hold_reason'].map((k) => `position(${t} in lower(coalesce(${col(k)}, ''))) > 0`).join(' OR ')})`);
  }
  const limit = q.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(q.limit))}` : '';
  return (await all<JoinedRow>(c, `SELECT ${ITEM_COLS} FROM ${ITEMS_FROM} WHERE ${where.join(' AND ')} ORDER BY i.seq${limit}`, args)).map((r) => itemFromJoined(r, batchId));
}

/** Every pause of a batch with its decision, in the order recorded. */
export async function batchPauses(c: Q, batchId: string, q: PauseQuery = {}): Promise<PauseRecord[]> {
  const rows = await all<PauseRow>(
    c,
    `SELECT r.item_id AS "itemId", r.id AS "runId", r.step, r.required_action AS "requiredAction", r.finished_at AS "pausedAt",
            d.answer, d.by, d.person, d.reason, d.cost, d.decided_at AS "decidedAt", d.id AS "decisionSeq"
     FROM ${
       q.decidedBy
         ? `decisions d JOIN runs r ON r.id = d.run_id WHERE d.batch_num = ${BATCH_NUM('$1')} AND d.by = $2 AND r.required_action IS NOT NULL`
         : `runs r LEFT JOIN decisions d ON d.batch_num = r.batch_num AND d.run_id = r.id WHERE r.batch_num = ${BATCH_NUM('$1')} AND r.required_action IS NOT NULL`
     }
     ORDER BY r.finished_at, r.item_id, r.step`,
    q.decidedBy ? [batchId, q.decidedBy] : [batchId],
  );
  return rows.map(pauseFromRow);
}
