import type { Statement } from 'better-sqlite3';
import type { ItemVerdicts, ScorerRef, ScorerTotals, Verdict } from '../../score/types.js';
import { batchNumOf } from './statement-cache.js';
import { itemColumns } from '../common/flights.js';
import { completedCountSql, groupVerdicts, totalsOf, VERDICT_COLUMNS, VERDICT_UPSERT, type VerdictRow, verdictCountsSql, verdictOfRow, verdictValues } from '../common/verdicts.js';
import { type ItemRow, itemFromRow } from '../rows/records.js';
import type { ScoreQuery } from '../roles/scores.js';
import type { ItemRecord } from '../types.js';
import type { SqliteContext } from './database.js';

// Verdicts per item and scorer version (migration 029_expected_and_verdicts): the same verbs as
// the PostgreSQL adapter's scores.ts, each taking the adapter's context first. Called inside the
// facade's transaction (writes) or retry (reads).

/** The connection's prepared statement for `sql` (statement-cache.ts). */
function stmt(cx: SqliteContext, sql: string): Statement {
  return cx.stmt.get(sql);
}

/** Records an item's verdicts, each replacing the one of its scorer and version; an item the batch lacks is refused. */
export function recordVerdicts(cx: SqliteContext, batchId: string, itemId: string, verdicts: readonly Verdict[]): void {
  const it = stmt(cx, `SELECT batch_num, seq FROM items WHERE batch_num = ${batchNumOf()} AND id = ?`).get(batchId, itemId) as { batch_num: number; seq: number } | undefined;
  if (!it) throw new Error(`recordVerdicts: batch ${batchId} has no item ${itemId}`);
  const put = stmt(cx, `INSERT INTO verdicts (batch_num, ${VERDICT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${VERDICT_UPSERT}`);
  for (const v of verdicts) put.run(it.batch_num, ...verdictValues(itemId, it.seq, v));
}

/** An item's verdicts, by scorer then version. */
export function verdictsOf(cx: SqliteContext, batchId: string, itemId: string): Verdict[] {
  const rows = stmt(cx, `SELECT ${VERDICT_COLUMNS} FROM verdicts WHERE batch_num = ${batchNumOf()} AND item_id = ? ORDER BY scorer, version`).all(batchId, itemId) as VerdictRow[];
  return rows.map(verdictOfRow);
}

/** Each scorer's counts over the batch's completed items. */
export function scoreTotals(cx: SqliteContext, batchId: string, scorers: readonly ScorerRef[]): ScorerTotals[] {
  const num = stmt(cx, 'SELECT num FROM batches WHERE id = ?').pluck().get(batchId) as number | undefined;
  if (num === undefined) return scorers.map((s) => totalsOf(s, 0, 0, 0));
  const completed = Number((stmt(cx, completedCountSql('?')).get(num) as { n: number }).n);
  const counts = stmt(cx, verdictCountsSql('?', '?', '?'));
  return scorers.map((s) => {
    const r = counts.get(num, s.name, s.version) as { passed: number; failed: number };
    return totalsOf(s, completed, Number(r.passed), Number(r.failed));
  });
}

/** Completed items after `afterSeq` lacking a verdict of that version (all with `rescore`), in seq order. */
export function itemsToScore(cx: SqliteContext, batchId: string, scorer: ScorerRef, q: ScoreQuery): ItemRecord[] {
  const lacking = q.rescore ? '' : 'AND NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.batch_num = i.batch_num AND v.item_id = i.id AND v.scorer = @scorer AND v.version = @version)';
  // The limit written in: a bound LIMIT is prepared again at every call (statement-cache.ts).
  const rows = stmt(
    cx,
    `SELECT @batch AS batch_id, ${itemColumns()} FROM items i INDEXED BY items_for_state_pages LEFT JOIN flights f ON f.item_key = i.key
     WHERE i.batch_num = ${batchNumOf('@batch')} AND i.state = 'completed' AND i.state <> 'queued' AND i.seq > @after ${lacking} ORDER BY i.seq LIMIT ${Math.max(0, Math.floor(q.limit))}`,
  ).all({ batch: batchId, after: q.afterSeq, ...(q.rescore ? {} : { scorer: scorer.name, version: scorer.version }) }) as ItemRow[];
  return rows.map(itemFromRow);
}

/** Items after `afterSeq` that have verdicts, in seq order, at most `limit`, each with all its verdicts. */
export function verdictsPage(cx: SqliteContext, batchId: string, q: { afterSeq: number; limit: number }): ItemVerdicts[] {
  const num = stmt(cx, 'SELECT num FROM batches WHERE id = ?').pluck().get(batchId) as number | undefined;
  if (num === undefined || q.limit <= 0) return [];
  // The last seq of the page: the limit-th distinct seq after afterSeq (or the last there is).
  const seqs = stmt(cx, 'SELECT DISTINCT seq FROM verdicts WHERE batch_num = ? AND seq > ? ORDER BY seq LIMIT ?').pluck().all(num, q.afterSeq, Math.floor(q.limit)) as number[];
  if (seqs.length === 0) return [];
  const rows = stmt(cx, `SELECT ${VERDICT_COLUMNS} FROM verdicts WHERE batch_num = ? AND seq > ? AND seq <= ? ORDER BY seq, scorer, version`).all(num, q.afterSeq, seqs[seqs.length - 1]) as VerdictRow[];
  return groupVerdicts(rows);
}
