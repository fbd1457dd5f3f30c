import type { ItemVerdicts, ScorerRef, ScorerTotals, Verdict } from '../../score/types.js';
import type { VerdictFilter } from '../item-page-shapes.js';

/** A verdicts row (migration 029_expected_and_verdicts), as both adapters read it. */
export interface VerdictRow {
  item_id: string;
  seq: number | string;
  scorer: string;
  version: string;
  pass: number | string | null;
  score: number | string | null;
  reason: string;
  scored_at: string;
  by: string;
}

/** The columns of a verdicts row written, in the order of {@link verdictValues} (after batch_num). */
export const VERDICT_COLUMNS = 'item_id, seq, scorer, version, pass, score, reason, scored_at, by';

/** What a verdict's upsert replaces on its (batch, item, scorer, version) key: standard SQL both databases run. */
export const VERDICT_UPSERT = 'ON CONFLICT (batch_num, seq, scorer, version) DO UPDATE SET pass = excluded.pass, score = excluded.score, reason = excluded.reason, scored_at = excluded.scored_at, by = excluded.by';

/** A verdict's pass as stored: 1, 0, or NULL for unscored. */
export const passValue = (v: Verdict): number | null => (v.pass === null ? null : v.pass ? 1 : 0);

/** A verdict's values for {@link VERDICT_COLUMNS}. */
export function verdictValues(itemId: string, seq: number, v: Verdict): unknown[] {
  return [itemId, seq, v.scorer, v.version, passValue(v), v.score, v.reason, v.scoredAt, v.by];
}

/** A row read back. The row is the database's: a pass other than 1 or 0 is unscored, a score outside 0..1 none. */
export function verdictOfRow(r: VerdictRow): Verdict {
  const pass = r.pass === null ? null : Number(r.pass) === 1 ? true : Number(r.pass) === 0 ? false : null;
  const n = r.score === null ? null : Number(r.score);
  return { scorer: r.scorer, version: r.version, pass, score: n !== null && Number.isFinite(n) && n >= 0 && n <= 1 ? n : null, reason: r.reason, scoredAt: r.scored_at, by: r.by };
}

/** Rows in seq order grouped into one entry per item. */
export function groupVerdicts(rows: readonly VerdictRow[]): ItemVerdicts[] {
  const out: ItemVerdicts[] = [];
  for (const r of rows) {
    const last = out[out.length - 1];
    if (last && last.itemId === r.item_id) last.verdicts.push(verdictOfRow(r));
    else out.push({ itemId: r.item_id, seq: Number(r.seq), verdicts: [verdictOfRow(r)] });
  }
  return out;
}

/** A scorer's totals: its passed and failed counts among `completed` items, the rest unscored. */
export function totalsOf(s: ScorerRef, completed: number, passed: number, failed: number): ScorerTotals {
  return { scorer: s.name, version: s.version, passed, failed, unscored: Math.max(0, completed - passed - failed) };
}

/** Counts of a scorer's verdicts over a batch's completed items (parameters: batch num, scorer, version, each `?` or `$n`). */
export function verdictCountsSql(num: string, scorer: string, version: string): string {
  return `SELECT coalesce(sum(CASE WHEN v.pass = 1 THEN 1 ELSE 0 END), 0) AS passed, coalesce(sum(CASE WHEN v.pass = 0 THEN 1 ELSE 0 END), 0) AS failed
    FROM verdicts v JOIN items i ON i.batch_num = v.batch_num AND i.seq = v.seq
    WHERE v.batch_num = ${num} AND v.scorer = ${scorer} AND v.version = ${version} AND v.pass IS NOT NULL AND i.state = 'completed'`;
}

/** The completed items of a batch, counted (parameter: batch num). */
export const completedCountSql = (num: string): string => `SELECT count(*) AS n FROM items WHERE batch_num = ${num} AND state = 'completed'`;

/**
 * The condition on an item row `i` of an item page's verdict filter, joined by seq (the verdicts'
 * page key); `p` adds a parameter and gives its marker (called in the text's order, so `?` markers line up).
 */
export function verdictWhere(f: VerdictFilter, p: (v: unknown) => string): string {
  const has = (cond: string): string =>
    `EXISTS (SELECT 1 FROM verdicts v WHERE v.batch_num = i.batch_num AND v.seq = i.seq AND v.scorer = ${p(f.scorer)} AND v.version = ${p(f.version)} AND ${cond})`;
  if (f.is === 'passed') return has('v.pass = 1');
  if (f.is === 'failed') return has('v.pass = 0');
  return `(i.state = 'completed' AND NOT ${has('v.pass IS NOT NULL')})`;
}
