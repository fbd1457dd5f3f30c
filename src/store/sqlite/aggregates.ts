import type { ItemAggregate } from '../port.js';
import type { ModelRunRecord } from '../shapes.js';
import type { ItemRecord, ItemState } from '../types.js';
import type { Db } from './database.js';
import { itemFromRow, type ItemRow } from '../rows/records.js';
import { modelRunFromRow, type ModelRunRow } from '../rows/records.js';
import { itemColumns } from '../common/flights.js';
import { batchNumOf, inStates } from './reads.js';

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

/** Items with what they gathered (runs, decisions, files) a page at a time, the meta keys of a batch, a models batch's rows with their runs: reads that span tables. */
export class Aggregates {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  aggregates(batchId: string, afterSeq: number, limit: number, states?: readonly ItemState[]): ItemAggregate[] {
    if (states && states.length === 0) return [];
    const q = aggregatesSql(states, batchId);
    const rows = this.#db.prepare(q.sql).all(batchId, batchId, afterSeq, ...q.args, limit) as AggregateRow[];
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

  metaKeys(batchId: string): string[] {
    return (this.#db.prepare(META_KEYS).all(batchId) as { key: string }[]).map((r) => r.key);
  }

  /** A models batch's rows with their model runs, a page at a time in file order. */
  modelRuns(batchId: string, afterSeq: number, limit: number): { item: ItemRecord; run: ModelRunRecord }[] {
    const rows = this.#db
      .prepare(
        `SELECT i.*, ? AS batch_id, m.model_id, m.inputs, m.mode, m.idempotency_key, m.submits, m.model_run_id,
                m.http_status, m.status, m.poll_url, m.outputs, m.error AS m_error, m.credits, m.polls, m.submitted_at,
                m.admitted_at, m.finished_at AS m_finished_at
         FROM items i JOIN model_runs m ON m.batch_num = i.batch_num AND m.item_id = i.id
         WHERE i.batch_num = ${batchNumOf()} AND i.seq > ? ORDER BY i.seq LIMIT ?`,
      )
      .all(batchId, batchId, afterSeq, limit) as (ItemRow & Record<string, unknown>)[];
    return rows.map((r) => ({
      item: itemFromRow(r),
      run: modelRunFromRow({ ...(r as unknown as ModelRunRow), batch_id: batchId, item_id: r.id, error: r.m_error as string | null, finished_at: r.m_finished_at as string | null }),
    }));
  }
}
