import type { Queryable } from './pool.js';
import type { ItemAggregate, RecentFinishes, ThreadWaits } from '../port.js';
import { threadWaitsOf, threadWaitsSql, type ThreadWaitRow } from '../common/thread-waits.js';
import { ENDED_STATES, sqlStates } from '../item-states.js';
import { batchFromRow, type BatchRow, runFromRow, type RunRow } from '../rows/records.js';
import type { ItemFilter } from '../shapes.js';
import type { BatchRecord, ItemRecord, ItemState } from '../types.js';
import { all, BATCH_NUM, col, ITEM_COLS, itemFromJoined, ITEMS_FROM, type JoinedRow, one, statesWhere } from './sql.js';

type Q = Queryable;

/**
 * The reads of the PostgreSQL adapter: the same answers as the SQLite adapter's reads.ts, one
 * statement each (no transaction needed for a single read).
 */

export async function findBatch(c: Q, nameOrId: string): Promise<BatchRecord | null> {
  const r = await one<BatchRow>(c, 'SELECT * FROM batches WHERE name = $1 OR id = $1 LIMIT 1', [nameOrId]);
  return r ? batchFromRow(r) : null;
}

export async function listBatches(c: Q, kind?: BatchRecord['kind']): Promise<BatchRecord[]> {
  const rows = kind
    ? await all<BatchRow>(c, 'SELECT * FROM batches WHERE kind = $1 ORDER BY created_at DESC, id DESC', [kind])
    : await all<BatchRow>(c, 'SELECT * FROM batches ORDER BY created_at DESC, id DESC');
  return rows.map(batchFromRow);
}

/** The most recently created batch, or null. */
export async function latestBatch(c: Q, kind?: BatchRecord['kind']): Promise<BatchRecord | null> {
  return (await listBatches(c, kind))[0] ?? null;
}

export async function listItems(c: Q, batchId: string, f: ItemFilter = {}): Promise<ItemRecord[]> {
  const where = [`i.batch_num = ${BATCH_NUM('$1')}`, 'i.seq > $2'];
  const args: unknown[] = [batchId, f.afterSeq ?? -1];
  const arg = (v: unknown): string => {
    args.push(v);
    return `$${args.length}`;
  };
  if (f.states) where.push(statesWhere(arg, f.states));
  if (f.runStatusOtherThan !== undefined) where.push(`${col('run_status')} IS NOT NULL AND ${col('run_status')} <> ${arg(f.runStatusOtherThan)}`);
  const limit = f.limit ? ` LIMIT ${Math.floor(f.limit)}` : '';
  return (await all<JoinedRow>(c, `SELECT ${ITEM_COLS} FROM ${ITEMS_FROM} WHERE ${where.join(' AND ')} ORDER BY i.seq${limit}`, args)).map((r) => itemFromJoined(r, batchId));
}

/** Queued items waiting behind an unfinished earlier item of their thread: counted by its state, the first `limit` listed. */
export async function threadWaits(c: Q, batchId: string, limit: number, o: { itemId?: string; heldOnly?: boolean } = {}): Promise<ThreadWaits> {
  const one = o.itemId === undefined ? [] : [o.itemId];
  const sql = (item: string) => threadWaitsSql(BATCH_NUM('$1'), { item: one.length ? item : undefined, heldOnly: o.heldOnly });
  const [counts, rows] = await Promise.all([
    all<{ state: string; n: string }>(c, `SELECT behind_state AS state, COUNT(*) AS n FROM (${sql('$2')}) w GROUP BY behind_state`, [batchId, ...one]),
    limit > 0 ? all<ThreadWaitRow>(c, `SELECT * FROM (${sql('$3')}) w ORDER BY seq LIMIT $2`, [batchId, limit, ...one]) : Promise.resolve([]),
  ]);
  return threadWaitsOf(counts, rows);
}

export async function recentFinishes(c: Q, batchId: string, limit: number): Promise<RecentFinishes> {
  // None that ended unwatched: its end is when resq found it, not when it ended.
  const latest = `SELECT id, finished_at FROM items WHERE batch_num = ${BATCH_NUM('$1')} AND finished_at IS NOT NULL AND state IN ${sqlStates(ENDED_STATES)}
                    AND NOT EXISTS (SELECT 1 FROM runs u WHERE u.batch_num = items.batch_num AND u.item_id = items.id AND u.unwatched = 1)
                  ORDER BY finished_at DESC, seq DESC LIMIT $2`;
  const items = await all<{ id: string; finished_at: string }>(c, latest, [batchId, limit]);
  // The runs of the items just read (index runs_for_item), not the latest items looked up a second time.
  const runs = items.length === 0 ? [] : await all<{ createdAt: string; finishedAt: string }>(
    c,
    `SELECT created_at AS "createdAt", finished_at AS "finishedAt" FROM runs
     WHERE batch_num = ${BATCH_NUM('$1')} AND finished_at IS NOT NULL AND item_id = ANY($2::text[])`,
    [batchId, items.map((r) => r.id)],
  );
  return { finishedAt: items.map((r) => r.finished_at), runs };
}

export async function getRun(c: Q, id: string) {
  const r = await one<RunRow>(c, 'SELECT r.*, b.id AS batch_id FROM runs r JOIN batches b ON b.num = r.batch_num WHERE r.id = $1', [id]);
  return r ? runFromRow(r) : null;
}

export async function runChain(c: Q, batchId: string, itemId: string) {
  // index runs_for_item
  return (await all<RunRow>(c, `SELECT r.*, $1::text AS batch_id FROM runs r WHERE r.batch_num = ${BATCH_NUM('$1')} AND r.item_id = $2 ORDER BY r.ord`, [batchId, itemId])).map(runFromRow);
}

/** Export rows a page at a time in one statement: each item with its runs, decisions and files (JSON aggregates); only `states` when given. */
export async function aggregates(c: Q, batchId: string, afterSeq: number, limit: number, states?: readonly ItemState[]): Promise<ItemAggregate[]> {
  if (states && states.length === 0) return [];
  type Runs = { id: string; createdAt: string; finishedAt: string | null; seconds: number | null }[];
  const args: unknown[] = [batchId, afterSeq, limit];
  const arg = (v: unknown): string => {
    args.push(v);
    return `$${args.length}`;
  };
  const only = states ? ` AND ${statesWhere(arg, states)}` : '';
  const rows = await all<JoinedRow & { agg_runs: Runs | null; agg_decisions: ItemAggregate['decisions'] | null; agg_files: ItemAggregate['files'] | null }>(
    c,
    `SELECT ${ITEM_COLS},
       (SELECT json_agg(json_build_object('id', r.id, 'createdAt', r.created_at, 'finishedAt', r.finished_at, 'seconds', r.seconds) ORDER BY r.ord)
          FROM runs r WHERE r.batch_num = i.batch_num AND r.item_id = i.id) AS agg_runs,
       (SELECT json_agg(json_build_object('tool', d.tool, 'input', d.input::json, 'answer', d.answer::json, 'by', d.by, 'person', d.person,
                                          'reason', d.reason, 'cost', d.cost) ORDER BY d.id)
          FROM decisions d WHERE d.batch_num = i.batch_num AND d.item_id = i.id) AS agg_decisions,
       (SELECT json_agg(json_build_object('id', f.id, 'role', f.role, 'name', f.name, 'path', f.path, 'bytes', f.bytes,
                                          'sha256', f.sha256, 'status', f.status, 'host', f.host) ORDER BY f.ord)
          FROM files f WHERE f.batch_num = i.batch_num AND f.item_id = i.id) AS agg_files
     FROM ${ITEMS_FROM} WHERE i.batch_num = ${BATCH_NUM('$1')} AND i.seq > $2${only} ORDER BY i.seq LIMIT $3`,
    args,
  );
  return rows.map((r) => {
    const runs = r.agg_runs ?? [];
    return {
      item: itemFromJoined(r, batchId),
      runIds: runs.map((x) => x.id),
      runTimes: runs.map((x) => ({ createdAt: x.createdAt, finishedAt: x.finishedAt, seconds: x.seconds })),
      decisions: r.agg_decisions ?? [],
      files: r.agg_files ?? [],
    };
  });
}

/** Every meta key once, by the first row that has it and its place there (json keeps the row's key order; jsonb would not). */
export async function metaKeys(c: Q, batchId: string): Promise<string[]> {
  const rows = await all<{ key: string }>(
    c,
    `SELECT e.key FROM items i, json_each(i.meta::json) WITH ORDINALITY AS e(key, value, ord)
     WHERE i.batch_num = ${BATCH_NUM('$1')} GROUP BY e.key ORDER BY min(ARRAY[i.seq::bigint, e.ord])`,
    [batchId],
  );
  return rows.map((r) => r.key);
}
