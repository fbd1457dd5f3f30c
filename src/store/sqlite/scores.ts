import type { Statement } from 'better-sqlite3';
import type { ItemVerdicts, ScorerRef, ScorerTotals, Verdict } from '../../score/types.js';
import { batchNumOf } from '../common/batch-num.js';
import { groupVerdicts, totalsOf, VERDICT_COLUMNS, VERDICT_UPSERT, type VerdictRow, verdictOfRow, passValue } from '../common/verdicts.js';
import { type ItemRow, itemFromRow } from '../rows/records.js';
import type { ItemVerdictsToRecord, ScoreQuery } from '../roles/scores.js';
import type { ItemRecord } from '../types.js';
import type { Db, SqliteContext } from './database.js';

// Verdicts per item and scorer version (migration 029_expected_and_verdicts): the same verbs as
// the PostgreSQL adapter's scores.ts, each taking the adapter's context first. Called inside the
// facade's transaction (writes) or retry (reads).

/** The connection's prepared statement for `sql` (statement-cache.ts). */
function stmt(cx: SqliteContext, sql: string): Statement {
  return cx.stmt.get(sql);
}

/** The writes' statements of a connection, held as they are (a hot path: no lookup by SQL text per call). */
interface Writes {
  num: Statement;
  put: Statement;
  has: Statement;
  putAt: Statement;
}
const writes = new WeakMap<Db, Writes>();

function writesOf(db: Db): Writes {
  let w = writes.get(db);
  if (!w)
    writes.set(
      db,
      (w = {
        num: db.prepare('SELECT num FROM batches WHERE id = ?').pluck(),
        // The item's seq found in the statement that writes its verdict: one seek, no round trip.
        put: db.prepare(
          `INSERT INTO verdicts (batch_num, ${VERDICT_COLUMNS}) SELECT batch_num, id, seq, ?, ?, ?, ?, ?, ?, ? FROM items WHERE batch_num = ? AND id = ? ${VERDICT_UPSERT}`,
        ),
        // With the seq known (`resq score` read the item, in file order): the item checked once,
        // by a seek next to the last one, then a plain insert per verdict.
        has: db.prepare('SELECT id = ? FROM items WHERE batch_num = ? AND seq = ?').pluck(),
        putAt: db.prepare(`INSERT INTO verdicts (batch_num, ${VERDICT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${VERDICT_UPSERT}`),
      }),
    );
  return w;
}

/** Records an item's verdicts, each replacing the one of its scorer and version; an item the batch lacks is refused. */
export function recordVerdicts(cx: SqliteContext, batchId: string, itemId: string, verdicts: readonly Verdict[]): void {
  recordVerdictsMany(cx, batchId, [{ itemId, verdicts }]);
}

/** Records many items' verdicts (in the caller's transaction); an item the batch lacks is refused. */
export function recordVerdictsMany(cx: SqliteContext, batchId: string, items: readonly ItemVerdictsToRecord[]): void {
  const w = writesOf(cx.db);
  const num = w.num.get(batchId) as number | undefined;
  for (const { itemId, seq, verdicts } of items) {
    if (num === undefined || (seq !== undefined && w.has.get(itemId, num, seq) !== 1)) throw new Error(`recordVerdicts: batch ${batchId} has no item ${itemId}`);
    for (const v of verdicts) {
      if (seq !== undefined) w.putAt.run(num, itemId, seq, v.scorer, v.version, passValue(v), v.score, v.reason, v.scoredAt, v.by);
      else if (w.put.run(v.scorer, v.version, passValue(v), v.score, v.reason, v.scoredAt, v.by, num, itemId).changes === 0) throw new Error(`recordVerdicts: batch ${batchId} has no item ${itemId}`);
    }
  }
}

/** An item's verdicts, by scorer then version. */
export function verdictsOf(cx: SqliteContext, batchId: string, itemId: string): Verdict[] {
  const rows = stmt(cx, `SELECT ${VERDICT_COLUMNS} FROM verdicts v WHERE (v.batch_num, v.seq) = (SELECT batch_num, seq FROM items WHERE batch_num = ${batchNumOf()} AND id = ?) ORDER BY scorer, version`).all(batchId, itemId) as VerdictRow[];
  return rows.map(verdictOfRow);
}

/** Each scorer's counts over the batch's completed items. */
export function scoreTotals(cx: SqliteContext, batchId: string, scorers: readonly ScorerRef[]): ScorerTotals[] {
  const num = stmt(cx, 'SELECT num FROM batches WHERE id = ?').pluck().get(batchId) as number | undefined;
  if (num === undefined) return scorers.map((s) => totalsOf(s, 0, 0, 0));
  // The kept counts by state (item_counts): completed items, and whether any item is in another state.
  const kept = stmt(cx, 'SELECT state, sum(n) AS n FROM item_counts WHERE batch_num = ? GROUP BY state').all(num) as { state: string; n: number }[];
  const completed = Number(kept.find((k) => k.state === 'completed')?.n ?? 0);
  const others = kept.some((k) => k.state !== 'completed' && Number(k.n) > 0);
  // Every verdict counted from the covering index, less those of items no longer completed (a
  // retried one): a scan of the batch's items, not a seek into items per verdict.
  const all = stmt(cx, 'SELECT coalesce(sum(pass = 1), 0) AS passed, coalesce(sum(pass = 0), 0) AS failed FROM verdicts WHERE batch_num = ? AND scorer = ? AND version = ? AND pass IS NOT NULL');
  const gone = stmt(
    cx,
    `SELECT coalesce(sum(v.pass = 1), 0) AS passed, coalesce(sum(v.pass = 0), 0) AS failed FROM items i
     JOIN verdicts v ON v.batch_num = i.batch_num AND v.seq = i.seq AND v.scorer = ? AND v.version = ?
     WHERE i.batch_num = ? AND i.state <> 'completed' AND v.pass IS NOT NULL`,
  );
  return scorers.map((s) => {
    const a = all.get(num, s.name, s.version) as { passed: number; failed: number };
    const g = others ? (gone.get(s.name, s.version, num) as { passed: number; failed: number }) : { passed: 0, failed: 0 };
    return totalsOf(s, completed, Number(a.passed) - Number(g.passed), Number(a.failed) - Number(g.failed));
  });
}

/** Completed items after `afterSeq` lacking a verdict of that version (all with `rescore`), in seq order. */
export function itemsToScore(cx: SqliteContext, batchId: string, scorer: ScorerRef, q: ScoreQuery): ItemRecord[] {
  const lacking = q.rescore ? '' : 'AND NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.batch_num = i.batch_num AND v.seq = i.seq AND v.scorer = @scorer AND v.version = @version)';
  // The limit written in: a bound LIMIT is prepared again at every call (statement-cache.ts).
  // A completed item is in no flight (its flight landed on its row): its row is the item as readers see it.
  const rows = stmt(
    cx,
    `SELECT @batch AS batch_id, i.* FROM items i INDEXED BY items_for_state_pages
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

/** Every scorer version with a verdict in the batch, by name then version. */
export function scorersJudged(cx: SqliteContext, batchId: string): ScorerRef[] {
  return stmt(cx, `SELECT DISTINCT scorer AS name, version FROM verdicts WHERE batch_num = ${batchNumOf()} ORDER BY scorer, version`).all(batchId) as ScorerRef[];
}
