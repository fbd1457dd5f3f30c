import type { SqliteContext } from './database.js';
import { type BatchLive, cutText, decodeCursor, type HeldItem, type ItemPage, type ItemPageQuery, type RunMinute } from '../item-page-shapes.js';
import { pageOf, readQuery, SORT_COLUMN, type SummaryRow } from '../rows/item-pages.js';
import { overFlight as over, stateOf } from '../common/flights.js';
import { batchNumOf, inStates, marks } from './statement-cache.js';
import { runsInFlight } from './counts.js';
import { verdictWhere } from '../common/verdicts.js';

// The web view's reads (SELECT only): a page of items by keyset over an index (the same
// cost on page 1 and page 10,000 of a 1,000,000-item batch), the live extras of the batch
// page, and runs per minute for its chart.

/** A page of a batch's items, filtered and sorted; `after` is the previous page's `next`, `before` the following page's `prev`. */
export function itemPage(cx: SqliteContext, batchId: string, asked: ItemPageQuery): ItemPage {
  const q = readQuery(asked);
  const sort = q.sort ?? 'seq';
  const dir = q.desc ? 'DESC' : 'ASC';
  const cmp = q.desc ? '<' : '>';
  // Sorted by id, the (batch_num, id) key gives the order; every other page seeks an index led by batch_num.
  let num = `i.batch_num = ${batchNumOf()}`;
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (q.states) {
    if (q.states.length === 0) return { items: [], next: null, prev: null };
    if (sort === 'updated') {
      where.push(`${stateOf()} IN (${marks(q.states.length)})`);
      args.push(...q.states);
    } else {
      const s = inStates(q.states, batchId);
      where.push(s.where);
      args.push(...(s.args as (string | number)[]));
      if (s.plan === 'keys') num = `+${num}`;
    }
  }
  if (q.meta) {
    // json_each matches the key exactly whatever it holds; booleans compare as JSON text.
    where.push(`EXISTS (SELECT 1 FROM json_each(i.meta) j WHERE j.key = ?
      AND (CASE j.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE CAST(j.value AS TEXT) END) = ?)`);
    args.push(q.meta.key, q.meta.value);
  }
  if (q.text) {
    const t = q.text.toLowerCase();
    where.push(`(instr(lower(i.id), ?) > 0 OR instr(lower(i.question), ?) > 0 OR instr(lower(coalesce(${over('text')}, '')), ?) > 0)`);
    args.push(t, t, t);
  }
  if (q.verdict)
    where.push(
      verdictWhere(q.verdict, (v) => {
        args.push(v as string);
        return '?';
      }),
    );
  const c = q.after ? decodeCursor(q.after) : null;
  const cols = (updated: string): string => `i.id, i.seq, ${stateOf()} AS state, substr(i.question, 1, 201) AS question, substr(${over('text')}, 1, 201) AS answer,
    ${over('run_status')} AS run_status, substr(i.error, 1, 201) AS error, i.hold_reason, i.meta, ${over('step')} AS step,
    ${updated} AS updated_at, i.finished_at`;
  if (sort === 'updated') {
    // Sorted by latest change: the items at rest by their row's time (written when held and
    // ends, not on every step), the one items_for_web_sort holds, merged with the items in
    // flight (their rows, queued, are out of it) by their flight's.
    const at = (t: string): { sql: string; args: (string | number)[] } =>
      c ? { sql: ` AND (${t}, i.seq) ${cmp} (?, ?)`, args: [String(c.v), c.seq] } : { sql: '', args: [] };
    const rest = at('i.updated_at');
    const flying = at('f.updated_at');
    const filter = where.map((w) => ` AND ${w}`).join('');
    const sql = `SELECT ${cols('i.updated_at')} FROM items i INDEXED BY items_for_web_sort LEFT JOIN flights f ON f.item_key = i.key
        WHERE ${num} AND i.state <> 'queued'${rest.sql}${filter}
      UNION ALL
      SELECT ${cols('f.updated_at')} FROM flights f JOIN items i ON i.key = f.item_key WHERE f.batch_num = ${batchNumOf()}${flying.sql}${filter}
      ORDER BY updated_at ${dir}, seq ${dir} LIMIT ${q.limit + 1}`;
    return pageOf(cx.stmt.get(sql).all(batchId, ...rest.args, ...args, batchId, ...flying.args, ...args) as SummaryRow[], asked);
  }
  if (c) {
    if (sort === 'seq') {
      where.push(`i.seq ${cmp} ?`);
      args.push(Number(c.v));
    } else {
      where.push(`i.id ${cmp} ?`);
      args.push(String(c.v));
    }
  }
  const order = sort === 'seq' ? `i.seq ${dir}` : `i.${SORT_COLUMN[sort]} ${dir}, i.seq ${dir}`;
  const sql = `SELECT ${cols(over('updated_at'))} FROM items i LEFT JOIN flights f ON f.item_key = i.key WHERE ${[num, ...where].join(' AND ')} ORDER BY ${order} LIMIT ${q.limit + 1}`;
  return pageOf(cx.stmt.get(sql).all(batchId, ...args) as SummaryRow[], asked);
}

/** Runs in flight, the adaptive cap, the first held items and the finished span. */
export function batchLive(cx: SqliteContext, batchId: string, heldLimit: number): BatchLive {
  const inFlight = runsInFlight(cx, batchId);
  const capLimit = (cx.stmt.get('SELECT cap_limit FROM batches WHERE id = ?').pluck().get(batchId) as number | null | undefined) ?? null;
  const held = (
    cx.stmt
      .get(
        `SELECT i.id, substr(i.question, 1, 201) AS question, json_extract(r.required_action, '$.tool') AS tool,
           i.hold_reason, i.updated_at
         FROM items i INDEXED BY items_for_state_pages LEFT JOIN runs r ON r.id = i.run_id
         WHERE i.batch_num = ${batchNumOf()} AND i.state = 'held' AND i.state <> 'queued' ORDER BY i.seq LIMIT ?`,
      )
      .all(batchId, heldLimit) as { id: string; question: string; tool: string | null; hold_reason: string | null; updated_at: string }[]
  ).map((r): HeldItem => ({ id: r.id, question: cutText(r.question)!, tool: r.tool, holdReason: r.hold_reason, updatedAt: r.updated_at }));
  const span = cx.stmt
    // Two subqueries: min and max in one SELECT would scan the index instead of seeking its ends.
    .get(`SELECT (SELECT min(finished_at) FROM items INDEXED BY items_for_rate WHERE batch_num = ${batchNumOf('@b')} AND finished_at IS NOT NULL) AS first,
                 (SELECT max(finished_at) FROM items INDEXED BY items_for_rate WHERE batch_num = ${batchNumOf('@b')} AND finished_at IS NOT NULL) AS last`)
    .get({ b: batchId }) as BatchLive['span'];
  return { inFlight, capLimit, held, span };
}

/** Runs admitted and finished per minute, oldest first. */
export function runMinutes(cx: SqliteContext, batchId: string): RunMinute[] {
  return cx.stmt
    .get(
      `SELECT minute, sum(a) AS admitted, sum(f) AS finished FROM (
         SELECT substr(created_at, 1, 16) AS minute, 1 AS a, 0 AS f FROM runs WHERE batch_num = ${batchNumOf()}
         UNION ALL
         SELECT substr(finished_at, 1, 16), 0, 1 FROM runs WHERE batch_num = ${batchNumOf()} AND finished_at IS NOT NULL)
       GROUP BY minute ORDER BY minute`,
    )
    .all(batchId, batchId) as RunMinute[];
}
