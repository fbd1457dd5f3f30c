import type { Queryable } from './pool.js';
import { pageOf, readQuery, type SummaryRow } from '../rows/item-pages.js';
import { runsInFlight } from './counts.js';
import { type BatchLive, cutText, decodeCursor, type ItemPage, type ItemPageQuery, type RunMinute } from '../item-page-shapes.js';
import { isFlightColumn } from '../common/flights.js';
import { verdictWhere } from '../common/verdicts.js';
import { all, BATCH_NUM, col, ITEMS_FROM, one, statesWhere } from './sql.js';

type Q = Queryable;

/**
 * The web view's reads of the PostgreSQL adapter: the same answers as the SQLite adapter's
 * (its item pages), one statement each.
 */

/** Which rows a part of a page reads: every item (its flight's columns over its row), the items at rest, the items in flight. */
type Part = 'all' | 'rest' | 'flying';
const on = (part: Part) => (k: string): string => (!isFlightColumn(k) ? `i.${k}` : part === 'all' ? col(k) : part === 'rest' ? `i.${k}` : `f.${k}`);

/** The summary columns of the web view's table (long texts cut to 201 characters). */
function summaryCols(part: Part): string {
  const k = on(part);
  return `i.id, i.seq, ${k('state')} AS state, substr(i.question, 1, 201) AS question, substr(${k('text')}, 1, 201) AS answer, ${k('run_status')} AS run_status,
  substr(i.error, 1, 201) AS error, ${k('hold_reason')} AS hold_reason, i.meta, ${k('step')} AS step, ${k('updated_at')} AS updated_at, i.finished_at`;
}

/**
 * A page of a batch's items, filtered and sorted, by keyset (a page `before` a cursor is read
 * from it the other way round, see readQuery). The sort by latest change reads
 * the items at rest by their row's time (index items_for_web_sort) and the few in flight by
 * their flight's (flights_for_claim), and merges the two: an item in flight keeps its row as
 * queued, out of the index, so neither its claim nor its steps write it.
 */
export async function itemPage(c: Q, batchId: string, asked: ItemPageQuery): Promise<ItemPage> {
  const q = readQuery(asked);
  const sort = q.sort ?? 'seq';
  if (q.states && q.states.length === 0) return { items: [], next: null, prev: null };
  const dir = q.desc ? 'DESC' : 'ASC';
  const cmp = q.desc ? '<' : '>';
  const args: unknown[] = [batchId];
  const p = (v: unknown): string => {
    args.push(v);
    return `$${args.length}`;
  };
  const cur = q.after ? decodeCursor(q.after) : null;
  const where = (part: Part): string[] => {
    const k = on(part);
    const w = [`i.batch_num = ${BATCH_NUM('$1')}`];
    if (q.states) w.push(part === 'all' ? statesWhere(p, q.states) : `${k('state')} = ANY(${p(q.states)})`);
    if (sort === 'updated' && part === 'rest') w.push(`i.state <> 'queued'`);
    if (cur) {
      if (sort === 'seq') w.push(`i.seq ${cmp} ${p(Number(cur.v))}`);
      else if (sort === 'id') w.push(`i.id ${cmp} ${p(String(cur.v))}`);
      else w.push(`(${k('updated_at')}, i.seq) ${cmp} (${p(String(cur.v))}, ${p(cur.seq)})`);
    }
    if (q.meta) w.push(`(i.meta::jsonb ->> ${p(q.meta.key)}) = ${p(q.meta.value)}`);
    if (q.text) {
      const t = p(q.text.toLowerCase());
      w.push(`(strpos(lower(i.id), ${t}) > 0 OR strpos(lower(i.question), ${t}) > 0 OR strpos(lower(coalesce(${k('text')}, '')), ${t}) > 0)`);
    }
    if (q.verdict) w.push(verdictWhere(q.verdict, p));
    return w;
  };
  const limit = q.limit + 1;
  if (sort !== 'updated') {
    const order = sort === 'seq' ? `i.seq ${dir}` : `i.id ${dir}, i.seq ${dir}`;
    const rows = await all<SummaryRow>(c, `SELECT ${summaryCols('all')} FROM ${ITEMS_FROM} WHERE ${where('all').join(' AND ')} ORDER BY ${order} LIMIT ${limit}`, args);
    return pageOf(rows, asked);
  }
  const rest = `SELECT ${summaryCols('rest')} FROM items i WHERE ${where('rest').join(' AND ')}
    AND NOT EXISTS (SELECT 1 FROM flights f WHERE f.item_key = i.key) ORDER BY i.updated_at ${dir}, i.seq ${dir} LIMIT ${limit}`;
  const flying = `SELECT ${summaryCols('flying')} FROM flights f JOIN items i ON i.key = f.item_key
    WHERE f.batch_num = ${BATCH_NUM('$1')} AND ${where('flying').join(' AND ')} ORDER BY f.updated_at ${dir}, i.seq ${dir} LIMIT ${limit}`;
  const rows = await all<SummaryRow>(c, `SELECT * FROM ((${rest}) UNION ALL (${flying})) t ORDER BY updated_at ${dir}, seq ${dir} LIMIT ${limit}`, args);
  return pageOf(rows, asked);
}

/** Runs in flight, the adaptive cap, the first held items and the finished span. */
export async function batchLive(c: Q, batchId: string, heldLimit: number): Promise<BatchLive> {
  const [inFlight, capRow, held, span] = await Promise.all([
    // The kept counts of the active states, less the answered items no worker has sent yet:
    // one statement (one snapshot) that reads the few waiting items, not every item in flight
    // (counting them row by row costs as many rows as runs are in flight).
    runsInFlight(c, batchId),
    one<{ cap_limit: number | null }>(c, 'SELECT cap_limit FROM batches WHERE id = $1', [batchId]),
    all<{ id: string; question: string; tool: string | null; hold_reason: string | null; updated_at: string }>(
      c,
      `SELECT i.id, substr(i.question, 1, 201) AS question, (r.required_action::jsonb ->> 'tool') AS tool, i.hold_reason, i.updated_at
       FROM items i LEFT JOIN runs r ON r.id = i.run_id WHERE i.batch_num = ${BATCH_NUM('$1')} AND i.state = 'held' ORDER BY i.seq LIMIT $2`,
      [batchId, heldLimit],
    ),
    one<{ first: string | null; last: string | null }>(
      c,
      // index items_for_rate
      `SELECT (SELECT min(finished_at) FROM items WHERE batch_num = n.num AND finished_at IS NOT NULL) AS first,
              (SELECT max(finished_at) FROM items WHERE batch_num = n.num AND finished_at IS NOT NULL) AS last
       FROM (SELECT ${BATCH_NUM('$1')} AS num) n`,
      [batchId],
    ),
  ]);
  return {
    inFlight: Number(inFlight),
    capLimit: capRow?.cap_limit ?? null,
    held: held.map((r) => ({ id: r.id, question: cutText(r.question)!, tool: r.tool, holdReason: r.hold_reason, updatedAt: r.updated_at })),
    span: { first: span?.first ?? null, last: span?.last ?? null },
  };
}

/** Runs admitted and finished per minute, oldest first. */
export async function runMinutes(c: Q, batchId: string): Promise<RunMinute[]> {
  const rows = await all<{ minute: string; admitted: string; finished: string }>(
    c,
    `SELECT minute, sum(a) AS admitted, sum(f) AS finished FROM (
       SELECT substr(created_at, 1, 16) AS minute, 1 AS a, 0 AS f FROM runs WHERE batch_num = ${BATCH_NUM('$1')}
       UNION ALL
       SELECT substr(finished_at, 1, 16), 0, 1 FROM runs WHERE batch_num = ${BATCH_NUM('$1')} AND finished_at IS NOT NULL) t
     GROUP BY minute ORDER BY minute`,
    [batchId],
  );
  return rows.map((r) => ({ minute: r.minute, admitted: Number(r.admitted), finished: Number(r.finished) }));
}
