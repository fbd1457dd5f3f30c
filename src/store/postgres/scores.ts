import type { ItemVerdicts, ScorerRef, ScorerTotals, Verdict } from '../../score/types.js';
import { completedCountSql, groupVerdicts, totalsOf, VERDICT_COLUMNS, VERDICT_UPSERT, type VerdictRow, verdictCountsSql, verdictOfRow, verdictValues } from '../common/verdicts.js';
import type { ItemVerdictsToRecord, ScoreQuery } from '../roles/scores.js';
import type { ItemRecord } from '../types.js';
import type { Queryable } from './pool.js';
import { all, BATCH_NUM, ITEM_COLS, ITEMS_FROM, itemFromJoined, type JoinedRow, one, scalar } from './sql.js';

// Verdicts per item and scorer version (migration 029_expected_and_verdicts): the same verbs as
// the SQLite adapter's scores.ts, each taking the connection first.

/** Records an item's verdicts in one statement, each replacing the one of its scorer and version; an item the batch lacks is refused. */
export async function recordVerdicts(c: Queryable, batchId: string, itemId: string, verdicts: readonly Verdict[]): Promise<void> {
  await recordVerdictsMany(c, batchId, [{ itemId, verdicts }]);
}

/** Verdicts a statement carries at most (9 values each, under PostgreSQL's 65,535 parameters). */
const CHUNK = 5000;

/**
 * Records many items' verdicts, each replacing the one of its scorer and version, in
 * statements of up to {@link CHUNK} verdicts (the caller's transaction makes them one change);
 * an item the batch lacks is refused.
 */
export async function recordVerdictsMany(c: Queryable, batchId: string, items: readonly ItemVerdictsToRecord[]): Promise<void> {
  const ids = items.map((i) => i.itemId);
  const found = await all<{ batch_num: number; id: string; seq: number }>(c, `SELECT batch_num, id, seq FROM items WHERE batch_num = ${BATCH_NUM('$1')} AND id = ANY($2::text[])`, [batchId, ids]);
  const at = new Map(found.map((r) => [r.id, r]));
  const flat: { num: number; seq: number; itemId: string; v: Verdict }[] = [];
  for (const { itemId, seq, verdicts } of items) {
    const it = at.get(itemId);
    if (!it || (seq !== undefined && Number(it.seq) !== seq)) throw new Error(`recordVerdicts: batch ${batchId} has no item ${itemId}`);
    for (const v of verdicts) flat.push({ num: Number(it.batch_num), seq: Number(it.seq), itemId, v });
  }
  for (let i = 0; i < flat.length; i += CHUNK) {
    const values: unknown[] = [];
    const rows = flat.slice(i, i + CHUNK).map((r) => {
      const base = values.length;
      values.push(r.num, ...verdictValues(r.itemId, r.seq, r.v));
      return `(${Array.from({ length: 10 }, (_, k) => `$${base + k + 1}`).join(', ')})`;
    });
    await c.query(`INSERT INTO verdicts (batch_num, ${VERDICT_COLUMNS}) VALUES ${rows.join(', ')} ${VERDICT_UPSERT}`, values);
  }
}

/** An item's verdicts, by scorer then version. */
export async function verdictsOf(c: Queryable, batchId: string, itemId: string): Promise<Verdict[]> {
  const rows = await all<VerdictRow>(
    c,
    `SELECT ${VERDICT_COLUMNS} FROM verdicts v WHERE (v.batch_num, v.seq) = (SELECT batch_num, seq FROM items WHERE batch_num = ${BATCH_NUM('$1')} AND id = $2) ORDER BY scorer, version`,
    [batchId, itemId],
  );
  return rows.map(verdictOfRow);
}

/** Each scorer's counts over the batch's completed items. */
export async function scoreTotals(c: Queryable, batchId: string, scorers: readonly ScorerRef[]): Promise<ScorerTotals[]> {
  const num = await scalar<number | undefined>(c, 'SELECT num FROM batches WHERE id = $1', [batchId]);
  if (num === undefined || num === null) return scorers.map((s) => totalsOf(s, 0, 0, 0));
  const completed = Number(await scalar<number>(c, completedCountSql('$1'), [num]));
  const out: ScorerTotals[] = [];
  for (const s of scorers) {
    const r = await one<{ passed: number; failed: number }>(c, verdictCountsSql('$1', '$2', '$3'), [num, s.name, s.version]);
    out.push(totalsOf(s, completed, Number(r?.passed ?? 0), Number(r?.failed ?? 0)));
  }
  return out;
}

/** Completed items after `afterSeq` lacking a verdict of that version (all with `rescore`), in seq order. */
export async function itemsToScore(c: Queryable, batchId: string, scorer: ScorerRef, q: ScoreQuery): Promise<ItemRecord[]> {
  const lacking = q.rescore ? '' : 'AND NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.batch_num = i.batch_num AND v.seq = i.seq AND v.scorer = $3 AND v.version = $4)';
  const rows = await all<JoinedRow>(
    c,
    `SELECT ${ITEM_COLS} FROM ${ITEMS_FROM} WHERE i.batch_num = ${BATCH_NUM('$1')} AND i.state = 'completed' AND i.seq > $2 ${lacking}
     ORDER BY i.seq LIMIT ${Math.max(0, Math.floor(q.limit))}`,
    q.rescore ? [batchId, q.afterSeq] : [batchId, q.afterSeq, scorer.name, scorer.version],
  );
  return rows.map((r) => itemFromJoined(r, batchId));
}

/** Items after `afterSeq` that have verdicts, in seq order, at most `limit`, each with all its verdicts. */
export async function verdictsPage(c: Queryable, batchId: string, q: { afterSeq: number; limit: number }): Promise<ItemVerdicts[]> {
  if (q.limit <= 0) return [];
  const rows = await all<VerdictRow>(
    c,
    `WITH b AS (SELECT num FROM batches WHERE id = $1),
          page AS (SELECT DISTINCT seq FROM verdicts WHERE batch_num = (SELECT num FROM b) AND seq > $2 ORDER BY seq LIMIT $3)
     SELECT ${VERDICT_COLUMNS} FROM verdicts WHERE batch_num = (SELECT num FROM b) AND seq IN (SELECT seq FROM page) ORDER BY seq, scorer, version`,
    [batchId, q.afterSeq, Math.floor(q.limit)],
  );
  return groupVerdicts(rows);
}

/** Every scorer version with a verdict in the batch, by name then version. */
export async function scorersJudged(c: Queryable, batchId: string): Promise<ScorerRef[]> {
  return all<ScorerRef>(c, `SELECT DISTINCT scorer AS name, version FROM verdicts WHERE batch_num = ${BATCH_NUM('$1')} ORDER BY scorer, version`, [batchId]);
}
