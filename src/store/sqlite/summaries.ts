import { type BatchDecision, type BatchTotals, type ItemQuery, type ItemStats, type MetaValue, pauseFromRow, type PauseQuery, type PauseRecord, type PauseRow, type RunTime } from '../shapes.js';
import type { SqliteContext } from './database.js';
import { itemFromRow, type ItemRow } from '../rows/records.js';
import type { ItemRecord } from '../types.js';
import { batchNumOf, inStates, ITEM_SELECT } from './statement-cache.js';
import { trustedCostSql } from '../common/cost-sums.js';
import { keptTotal } from '../../policy/cost.js';

// better-sqlite3 cannot bind booleans; json_each reads JSON true/false as 1/0.
function bindable(v: MetaValue): string | number | null {
  return typeof v === 'boolean' ? (v ? 1 : 0) : v;
}

// Read-only queries for notebooks (SELECT only): filtered items, per-item statistics, run
// times, decisions and pauses of a whole batch, in one statement each.

/** A batch's items in file order, filtered in SQL. */
export function queryItems(cx: SqliteContext, batchId: string, q: ItemQuery = {}): ItemRecord[] {
  const where = [`i.batch_num = ${batchNumOf()}`];
  const args: (string | number | null)[] = [batchId, batchId];
  if (q.states) {
    if (q.states.length === 0) return [];
    const s = inStates(q.states, batchId);
    where.push(s.where);
    args.push(...(s.args as (string | number)[]));
    if (s.plan === 'keys') where[0] = `+${where[0]}`;
  }
  // json_each matches the key exactly, whatever quotes or dots it holds (a JSON path would not).
  for (const [key, want] of Object.entries(q.meta ?? {})) {
    const values: readonly MetaValue[] = Array.isArray(want) ? want : [want as MetaValue];
    const parts: string[] = [];
    for (const v of values) {
      if (v === null) {
        parts.push('NOT EXISTS (SELECT 1 FROM json_each(i.meta) WHERE key = ? AND value IS NOT NULL)');
        args.push(key);
      } else {
        parts.push('EXISTS (SELECT 1 FROM json_each(i.meta) WHERE key = ? AND value = ?)');
        args.push(key, bindable(v));
      }
    }
    where.push(parts.length ? `(${parts.join(' OR ')})` : '0');
  }
  if (q.text) {
    const cols = ['i.id', 'i.question', 'CASE WHEN f.item_key IS NULL THEN i.text ELSE f.text END', 'i.error', 'i.hold_reason'];
    where.push(`(${cols.map((c) => `instr(lower(coalesce(${c}, '')), ?) > 0`).join(' OR ')})`);
    args.push(...cols.map(() => q.text!.toLowerCase()));
  }
  const limit = q.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(q.limit))}` : '';
  const rows = cx.db.prepare(`${ITEM_SELECT} WHERE ${where.join(' AND ')} ORDER BY i.seq${limit}`).all(...args) as ItemRow[];
  return rows.map(itemFromRow);
}

/** Run, decision and file counts, approved cost and run time of every item of a batch. */
export function itemStats(cx: SqliteContext, batchId: string): Map<string, ItemStats> {
  const rows = cx.db
    .prepare(
      `SELECT i.id AS itemId, coalesce(r.n, 0) AS runs, coalesce(r.secs, 0) AS runSeconds,
              coalesce(d.n, 0) AS decisions, coalesce(d.cost, 0) AS approvedCost, coalesce(f.n, 0) AS files
       FROM items i
       LEFT JOIN (SELECT item_id, count(*) AS n,
                    CASE WHEN max(finished_at IS NOT NULL AND seconds IS NULL) = 1 THEN 0 ELSE sum(coalesce(seconds, 0)) END AS secs
                  FROM runs WHERE batch_num = ${batchNumOf('@b')} GROUP BY item_id) r ON r.item_id = i.id
       LEFT JOIN (SELECT item_id, count(*) AS n, sum(${trustedCostSql('cost')}) AS cost FROM decisions WHERE batch_num = ${batchNumOf('@b')} GROUP BY item_id) d ON d.item_id = i.id
       LEFT JOIN (SELECT item_id, count(*) AS n FROM files WHERE batch_num = ${batchNumOf('@b')} GROUP BY item_id) f ON f.item_id = i.id
       WHERE i.batch_num = ${batchNumOf('@b')}`,
    )
    .all({ b: batchId }) as ItemStats[];
  return new Map(rows.map((r) => [r.itemId, r]));
}

/** Runs, decisions, approved cost and bytes on disk of a batch. */
export function batchTotals(cx: SqliteContext, batchId: string): BatchTotals {
  const t = cx.db
    .prepare(
      `SELECT (SELECT count(*) FROM runs WHERE batch_num = ${batchNumOf('@b')}) AS runs,
              (SELECT count(*) FROM decisions WHERE batch_num = ${batchNumOf('@b')}) AS decisions,
              coalesce((SELECT approved FROM batch_spend WHERE batch_num = ${batchNumOf('@b')}), 0) AS approvedCost,
              (SELECT coalesce(sum(bytes), 0) FROM files WHERE batch_num = ${batchNumOf('@b')} AND status = 'downloaded') AS fileBytes`,
    )
    .get({ b: batchId }) as BatchTotals;
  return { ...t, approvedCost: keptTotal(t.approvedCost) };
}

/** Seconds from first submission to the end of every finished item of a batch whose runs all ended watched. */
export function itemSeconds(cx: SqliteContext, batchId: string): number[] {
  return cx.db
    .prepare(
      `SELECT (julianday(finished_at) - julianday(started_at)) * 86400 FROM items i
       WHERE batch_num = ${batchNumOf()} AND started_at IS NOT NULL AND finished_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM runs u WHERE u.batch_num = i.batch_num AND u.item_id = i.id AND u.unwatched = 1)`,
    )
    .pluck()
    .all(batchId) as number[];
}

/** Every run of a batch, in the order they started. */
export function runTimes(cx: SqliteContext, batchId: string): RunTime[] {
  const rows = cx.db
    .prepare(
      `SELECT item_id AS itemId, id AS runId, step, status, json_extract(required_action, '$.tool') AS tool,
              created_at AS createdAt, finished_at AS finishedAt, seconds, unwatched
       FROM runs WHERE batch_num = ${batchNumOf()} ORDER BY created_at, step`,
    )
    .all(batchId) as (Omit<RunTime, 'unwatched'> & { unwatched: number })[];
  return rows.map((r) => ({ ...r, unwatched: r.unwatched === 1 }));
}

/** Every decision of a batch, in the order made. */
export function batchDecisions(cx: SqliteContext, batchId: string): BatchDecision[] {
  const rows = cx.db
    .prepare(
      `SELECT item_id AS itemId, tool, input, answer, by, person, reason, cost, decided_at AS decidedAt
       FROM decisions WHERE batch_num = ${batchNumOf()} ORDER BY id`,
    )
    .all(batchId) as (Omit<BatchDecision, 'input' | 'answer'> & { input: string; answer: string })[];
  return rows.map((r) => ({
    ...r,
    input: JSON.parse(r.input) as Record<string, unknown>,
    answer: JSON.parse(r.answer) as Record<string, unknown>,
  }));
}

/** Every pause of a batch with its decision, in the order recorded. */
export function batchPauses(cx: SqliteContext, batchId: string, q: PauseQuery = {}): PauseRecord[] {
  // Only decided pauses: read from the batch's decisions (fewer than its runs), each run by its key.
  const from = q.decidedBy
    ? `decisions d JOIN runs r ON r.id = d.run_id WHERE d.batch_num = ${batchNumOf('@b')} AND d.by = @by AND r.required_action IS NOT NULL`
    : `runs r LEFT JOIN decisions d ON d.batch_num = r.batch_num AND d.run_id = r.id WHERE r.batch_num = ${batchNumOf('@b')} AND r.required_action IS NOT NULL`;
  const rows = cx.db
    .prepare(
      `SELECT r.item_id AS itemId, r.id AS runId, r.step, r.required_action AS requiredAction, r.finished_at AS pausedAt,
              d.answer, d.by, d.person, d.reason, d.cost, d.decided_at AS decidedAt, d.id AS decisionSeq
       FROM ${from}
       ORDER BY r.finished_at, r.item_id, r.step`,
    )
    .all({ b: batchId, ...(q.decidedBy ? { by: q.decidedBy } : {}) }) as PauseRow[];
  return rows.map(pauseFromRow);
}
