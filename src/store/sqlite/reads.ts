import { ENDED_STATES as ENDED, type ItemState, sqlStates } from '../item-states.js';
import type { ItemAggregate } from '../port.js';
import type { RecentFinishes, ThreadWaits } from '../roles/reads.js';
import { threadWaitsOf, threadWaitsSql, type ThreadWaitRow } from '../common/thread-waits.js';
import { type BatchRow, batchFromRow, type ItemRow, itemFromRow, type RunRow, runFromRow } from '../rows/records.js';
import type { ItemFilter } from '../shapes.js';
import type { BatchRecord, ItemRecord, RunRecord } from '../types.js';
import type { SqliteContext } from './database.js';
import { batchNumOf, ITEM_FROM, inStates } from './statement-cache.js';
import { itemColumns } from '../common/flights.js';

// The reads of the SQLite adapter: batches, items as readers see them (each its flight laid
// over its row), a thread's waits, the latest ends, runs, and export rows a page at a time.

/** A batch by name or id, or null. */
export function findBatch(cx: SqliteContext, nameOrId: string): BatchRecord | null {
  const row = cx.db
    .prepare('SELECT * FROM batches WHERE name = ? OR id = ? LIMIT 1')
    .get(nameOrId, nameOrId) as BatchRow | undefined;
  return row ? batchFromRow(row) : null;
}

/** Every batch, newest first. */
export function listBatches(cx: SqliteContext, kind?: BatchRecord['kind']): BatchRecord[] {
  const rows = (
    kind
      ? cx.db.prepare('SELECT * FROM batches WHERE kind = ? ORDER BY created_at DESC, rowid DESC').all(kind)
      : cx.db.prepare('SELECT * FROM batches ORDER BY created_at DESC, rowid DESC').all()
  ) as BatchRow[];
  return rows.map(batchFromRow);
}

/** The most recently created batch, or null. */
export function latestBatch(cx: SqliteContext, kind?: BatchRecord['kind']): BatchRecord | null {
  return listBatches(cx, kind)[0] ?? null;
}

/** Items in file order, filtered. */
export function listItems(cx: SqliteContext, batchId: string, f: ItemFilter = {}): ItemRecord[] {
  return [...iterateItems(cx, batchId, f)];
}

/** Items in file order, filtered, streamed from SQLite one row at a time. */
function* iterateItems(cx: SqliteContext, batchId: string, f: ItemFilter = {}): Generator<ItemRecord> {
  const where = [`i.batch_num = ${batchNumOf()}`, 'i.seq > ?'];
  const args: unknown[] = [batchId, batchId, f.afterSeq ?? -1];
  let from = ITEM_FROM;
  if (f.states) {
    // Left alone, SQLite walks the whole batch in seq order to spare a sort of the few
    // items in these states (a 1M-item resume read every row): the index or the keys, said outright.
    const s = inStates(f.states, batchId);
    where.push(s.where);
    args.push(...s.args);
    if (s.plan === 'state index') from = 'items i INDEXED BY items_for_state_pages LEFT JOIN flights f ON f.item_key = i.key';
    if (s.plan === 'keys') where[0] = `+i.batch_num = ${batchNumOf()}`;
  }
  if (f.runStatusOtherThan !== undefined) {
    const status = 'CASE WHEN f.item_key IS NULL THEN i.run_status ELSE f.run_status END';
    where.push(`${status} IS NOT NULL AND ${status} <> ?`);
    args.push(f.runStatusOtherThan);
  }
  const limit = f.limit ? ` LIMIT ${Math.floor(f.limit)}` : '';
  const stmt = cx.stmt.get(`SELECT ? AS batch_id, ${itemColumns()} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY i.seq${limit}`);
  for (const r of stmt.iterate(...args)) yield itemFromRow(r as ItemRow);
}

/** The latest items that ended (not cancelled) and their runs' times, for rate and ETA; none that ended unwatched (its end is when resq found it). */
export function recentFinishes(cx: SqliteContext, batchId: string, limit: number): RecentFinishes {
  const latest = `SELECT id, finished_at FROM items INDEXED BY items_for_rate WHERE batch_num = ${batchNumOf('@b')} AND finished_at IS NOT NULL AND state IN ${sqlStates(ENDED)}
                    AND NOT EXISTS (SELECT 1 FROM runs u WHERE u.batch_num = items.batch_num AND u.item_id = items.id AND u.unwatched = 1)
                  ORDER BY finished_at DESC, seq DESC LIMIT @n`;
  const items = cx.stmt.get(latest).all({ b: batchId, n: limit }) as { id: string; finished_at: string }[];
  const runs = cx.stmt.get(
    `SELECT created_at AS createdAt, finished_at AS finishedAt FROM runs
     WHERE batch_num = ${batchNumOf('@b')} AND finished_at IS NOT NULL AND item_id IN (SELECT id FROM (${latest}))`,
  ).all({ b: batchId, n: limit }) as RecentFinishes['runs'];
  return { finishedAt: items.map((r) => r.finished_at), runs };
}

/** Queued items waiting behind an unfinished earlier item of their thread: counted by its state, the first `limit` listed. */
export function threadWaits(cx: SqliteContext, batchId: string, limit: number, o: { itemId?: string; heldOnly?: boolean } = {}): ThreadWaits {
  const waits = threadWaitsSql(batchNumOf('@b'), { item: o.itemId === undefined ? undefined : '@i', heldOnly: o.heldOnly });
  const args = { b: batchId, ...(o.itemId === undefined ? {} : { i: o.itemId }) };
  const counts = cx.stmt.get(`SELECT behind_state AS state, COUNT(*) AS n FROM (${waits}) GROUP BY behind_state`).all(args) as { state: string; n: number }[];
  const rows = limit > 0 ? (cx.stmt.get(`SELECT * FROM (${waits}) ORDER BY seq LIMIT @n`).all({ ...args, n: limit }) as ThreadWaitRow[]) : [];
  return threadWaitsOf(counts, rows);
}

/** One run, or null. */
export function getRun(cx: SqliteContext, id: string): RunRecord | null {
  const r = cx.stmt.get('SELECT r.*, b.id AS batch_id FROM runs r JOIN batches b ON b.num = r.batch_num WHERE r.id = ?').get(id) as RunRow | undefined;
  return r ? runFromRow(r) : null;
}

/** An item's chain (every run, with parent links), first run first. */
export function runChain(cx: SqliteContext, batchId: string, itemId: string): RunRecord[] {
  return (
    cx.stmt.get(`SELECT ? AS batch_id, * FROM runs WHERE batch_num = ${batchNumOf()} AND item_id = ? ORDER BY rowid`)
      .all(batchId, batchId, itemId) as RunRow[]
  ).map(runFromRow);
}

/**
 * Export rows a page at a time in one statement: each item with its runs, decisions and
 * files gathered by JSON aggregates (not three queries per item, nor every run's output).
 */
function aggregatesSql(states: readonly ItemState[] | undefined, batchId: string): { sql: string; args: unknown[] } {
  let from = 'items i';
  let where = '';
  let num = `i.batch_num = ${batchNumOf()}`;
  const args: unknown[] = [];
  if (states) {
    // Queued items are not in the state index: said outright, SQLite reads only the few in these states.
    const s = inStates(states, batchId);
    where = ` AND ${s.where}`;
    args.push(...s.args);
    if (s.plan === 'state index') from = 'items AS i INDEXED BY items_for_state_pages';
    if (s.plan === 'keys') num = `+${num}`;
  }
  return { args, sql: `
  SELECT ? AS batch_id, ${itemColumns()},
    (SELECT json_group_array(json_object('id', id, 'createdAt', created_at, 'finishedAt', finished_at, 'seconds', seconds))
       FROM (SELECT id, created_at, finished_at, seconds FROM runs r WHERE r.batch_num = i.batch_num AND r.item_id = i.id ORDER BY rowid)) AS agg_runs,
    (SELECT json_group_array(json_object('tool', tool, 'input', json(input), 'answer', json(answer), 'by', by, 'person', person, 'reason', reason, 'cost', cost))
       FROM (SELECT * FROM decisions d WHERE d.batch_num = i.batch_num AND d.item_id = i.id ORDER BY id)) AS agg_decisions,
    (SELECT json_group_array(json_object('id', id, 'role', role, 'name', name, 'path', path, 'bytes', bytes,
                                         'sha256', sha256, 'status', status, 'host', host))
       FROM (SELECT * FROM files f WHERE f.batch_num = i.batch_num AND f.item_id = i.id ORDER BY rowid)) AS agg_files
  FROM ${from} LEFT JOIN flights f ON f.item_key = i.key WHERE ${num} AND i.seq > ?${where} ORDER BY i.seq LIMIT ?` };
}

type AggregateRow = ItemRow & { agg_runs: string; agg_decisions: string; agg_files: string };

/**
 * Every meta key once, ordered by the first row that has it and its place in that row: the
 * group keeps one row per key (a few), and SQLite's `min()` hands over that row's position.
 */
const META_KEYS = `
  SELECT j.key AS key, min(i.seq) AS first, j.id AS pos
  FROM items i, json_each(i.meta) j WHERE i.batch_num = ${batchNumOf()}
  GROUP BY j.key ORDER BY first, pos`;

/** Export rows a page at a time (see {@link aggregatesSql}); only `states` when given. */
export function aggregates(cx: SqliteContext, batchId: string, afterSeq: number, limit: number, states?: readonly ItemState[]): ItemAggregate[] {
  if (states && states.length === 0) return [];
  const q = aggregatesSql(states, batchId);
  const rows = cx.db.prepare(q.sql).all(batchId, batchId, afterSeq, ...q.args, limit) as AggregateRow[];
  return rows.map((r) => {
    const runs = JSON.parse(r.agg_runs) as { id: string; createdAt: string; finishedAt: string | null; seconds: number | null }[];
    return {
      item: itemFromRow(r),
      runIds: runs.map((x) => x.id),
      runTimes: runs.map((x) => ({ createdAt: x.createdAt, finishedAt: x.finishedAt, seconds: x.seconds })),
      decisions: JSON.parse(r.agg_decisions) as ItemAggregate['decisions'],
      files: JSON.parse(r.agg_files) as ItemAggregate['files'],
    };
  });
}

/** Every meta key of a batch once ({@link META_KEYS}). */
export function metaKeys(cx: SqliteContext, batchId: string): string[] {
  return (cx.db.prepare(META_KEYS).all(batchId) as { key: string }[]).map((r) => r.key);
}
