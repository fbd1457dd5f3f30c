import { type Clock, isoNow } from '../../clock.js';
import { ENDED_STATES as ENDED, UNFINISHED_STATES, sqlStates, zeroCounts } from '../item-states.js';
import type { RecentFinishes } from '../roles/reads.js';
import { type ItemRow, itemFromRow } from '../rows.js';
import type { DuplicateItem, ItemFilter, NewItem, NewItemColumns } from '../shapes.js';
import type { Db } from './database.js';
import type { ItemRecord, ItemState } from '../types.js';
import { StatementCache } from './statement-cache.js';
import { IN_FLIGHT_MARK, countsOf, itemColumns, stateOf, storedStates } from '../common/flights.js';

/** An item as readers see it: its row with its flight (if any) laid over it (src/store/common/flights.ts). */
export const ITEM_FROM = `items i LEFT JOIN flights f ON f.item_key = i.key`;
export const ITEM_SELECT = `SELECT ${itemColumns()} FROM ${ITEM_FROM}`;

/** `?` placeholders for `n` values. */
export const marks = (n: number): string => new Array(n).fill('?').join(',');

const INSERT_CHUNK = 256;

function metaText(it: NewItem): string {
  return typeof it.meta === 'string' ? it.meta : JSON.stringify(it.meta);
}
const ROW_PLACEHOLDERS = ',(?, ?, ?, ?, ?, ?, ?, ?)';
/** States of an item's row before the end of its life, the mark of one in flight included (a thread's later items wait for these). */
export const UNFINISHED = `(${[...UNFINISHED_STATES, IN_FLIGHT_MARK].map((s) => `'${s}'`).join(', ')})`;

/** The items table: one row per question of a batch. */
export class ItemRepo {
  readonly #cache: StatementCache;
  readonly #clock: Clock;
  constructor(db: Db, clock: Clock) {
    this.#cache = new StatementCache(db);
    this.#clock = clock;
  }

  #stmt(sql: string): import('better-sqlite3').Statement {
    return this.#cache.get(sql);
  }

  /** Inserts one item (inside the batch-load transaction). */
  insert(batchId: string, item: NewItem, now: string): void {
    this.insertMany(batchId, [item], now);
  }

  /** Inserts items with one statement per chunk: far fewer round trips than one per row. */
  insertMany(batchId: string, items: readonly NewItem[], now: string): void {
    for (let i = 0; i < items.length; i += INSERT_CHUNK) {
      const chunk = items.slice(i, i + INSERT_CHUNK);
      const values: unknown[] = [];
      for (const it of chunk)
        values.push(batchId, it.id, it.seq, it.line, it.question, it.threadKey, metaText(it), now);
      this.#insertRows(chunk.length).run(...values);
    }
  }

  #fullChunk: import('better-sqlite3').Statement | null = null;

  /** The insert of `n` rows; the full-chunk one is kept apart (its 8 KB SQL text cost a hash per lookup). */
  #insertRows(n: number): import('better-sqlite3').Statement {
    const sql = (k: number): string =>
      `INSERT INTO items (batch_id, id, seq, line, question, thread_key, meta, updated_at) VALUES ${ROW_PLACEHOLDERS.repeat(k).slice(1)}`;
    if (n !== INSERT_CHUNK) return this.#stmt(sql(n));
    return (this.#fullChunk ??= this.#stmt(sql(n)));
  }

  /**
   * Like {@link insertNew} for rows given column by column: no object per row on the way
   * (a million-row load makes far less garbage).
   */
  insertNewColumns(batchId: string, cols: NewItemColumns, seq0: number, now: string): DuplicateItem[] {
    const refused: DuplicateItem[] = [];
    for (let i = 0; i < cols.ids.length; i += INSERT_CHUNK) {
      const end = Math.min(i + INSERT_CHUNK, cols.ids.length);
      const values: unknown[] = [];
      for (let k = i; k < end; k++)
        values.push(batchId, cols.ids[k], seq0 + k, cols.lines[k], cols.questions[k], cols.threads[k], cols.metas[k], now);
      try {
        this.#insertRows(end - i).run(...values);
        continue;
      } catch (e) {
        if (!isDuplicate(e)) throw e;
      }
      const chunk: NewItem[] = [];
      for (let k = i; k < end; k++)
        chunk.push({ id: cols.ids[k]!, seq: seq0 + k, line: cols.lines[k]!, question: cols.questions[k]!, threadKey: cols.threads[k]!, meta: cols.metas[k]! });
      refused.push(...this.#insertOneByOne(batchId, chunk, now));
    }
    return refused;
  }

  /**
   * Inserts a new batch's rows, refusing any whose id the batch already has: the primary
   * key finds duplicates, so loading holds no set of every id in memory. A chunk with a
   * duplicate fails as a whole and is then inserted row by row, in order.
   */
  insertNew(batchId: string, items: readonly NewItem[], now: string): DuplicateItem[] {
    try {
      this.insertMany(batchId, items, now);
      return [];
    } catch (e) {
      if (!isDuplicate(e)) throw e;
    }
    return this.#insertOneByOne(batchId, items, now);
  }

  /** Inserts rows one at a time, in order, handing back those whose id is taken. */
  #insertOneByOne(batchId: string, items: readonly NewItem[], now: string): DuplicateItem[] {
    const refused: DuplicateItem[] = [];
    const one = this.#stmt(
      `INSERT INTO items (batch_id, id, seq, line, question, thread_key, meta, updated_at) VALUES ${ROW_PLACEHOLDERS.slice(1)}
       ON CONFLICT (batch_id, id) DO NOTHING`,
    );
    for (const it of items) {
      if (one.run(batchId, it.id, it.seq, it.line, it.question, it.threadKey, metaText(it), now).changes === 1) continue;
      const first = this.#stmt('SELECT line FROM items WHERE batch_id = ? AND id = ?').pluck().get(batchId, it.id) as number;
      refused.push({ item: it, firstLine: first });
    }
    return refused;
  }

  /** One item, or null. */
  get(batchId: string, id: string): ItemRecord | null {
    const r = this.#stmt(`${ITEM_SELECT} WHERE i.batch_id = ? AND i.id = ?`).get(batchId, id) as
      | ItemRow
      | undefined;
    return r ? itemFromRow(r) : null;
  }

  /** Items in file order, filtered. */
  list(batchId: string, f: ItemFilter = {}): ItemRecord[] {
    return [...this.iterate(batchId, f)];
  }

  /** Items in file order, filtered, streamed from SQLite one row at a time. */
  *iterate(batchId: string, f: ItemFilter = {}): Generator<ItemRecord> {
    const where = ['i.batch_id = ?', 'i.seq > ?'];
    const args: unknown[] = [batchId, f.afterSeq ?? -1];
    let from = ITEM_FROM;
    if (f.states) {
      const stored = storedStates(f.states);
      where.push(`i.state IN (${marks(stored.length)})`, `${stateOf()} IN (${marks(f.states.length)})`);
      args.push(...stored, ...f.states);
      if (!f.states.includes('queued')) {
        // Left alone, SQLite walks the whole batch in seq order to spare a sort of the few
        // items in these states (a 1M-item resume read every row). The state index leaves
        // queued items out, so the query must say so for SQLite to take it.
        where.push(`i.state <> 'queued'`);
        from = 'items i INDEXED BY items_state LEFT JOIN flights f ON f.item_key = i.key';
      }
    }
    if (f.runStatusOtherThan !== undefined) {
      const status = 'CASE WHEN f.item_key IS NULL THEN i.run_status ELSE f.run_status END';
      where.push(`${status} IS NOT NULL AND ${status} <> ?`);
      args.push(f.runStatusOtherThan);
    }
    const limit = f.limit ? ` LIMIT ${Math.floor(f.limit)}` : '';
    const stmt = this.#stmt(`SELECT ${itemColumns()} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY i.seq${limit}`);
    for (const r of stmt.iterate(...args)) yield itemFromRow(r as ItemRow);
  }

  /** Whether an earlier item of the same thread is not yet finished. */
  hasUnfinishedBefore(batchId: string, threadKey: string, seq: number): boolean {
    return (
      this.#stmt(
        `SELECT 1 FROM items WHERE batch_id = ? AND thread_key = ? AND seq < ? AND state IN ${UNFINISHED} LIMIT 1`,
      ).get(batchId, threadKey, seq) !== undefined
    );
  }

  /** The first queued item of a thread after `afterSeq`, or null. */
  nextQueuedInThread(batchId: string, threadKey: string, afterSeq: number): ItemRecord | null {
    const r = this.#stmt(
      `SELECT * FROM items WHERE batch_id = ? AND thread_key = ? AND seq > ? AND state = 'queued' ORDER BY seq LIMIT 1`,
    ).get(batchId, threadKey, afterSeq) as ItemRow | undefined;
    return r ? itemFromRow(r) : null;
  }

  /**
   * Item counts by state: the rows the triggers of migration 012 keep (an item in flight counted
   * once as the mark) and the batch's flights by their state (at most its runs in flight).
   */
  counts(batchId: string): Record<ItemState, number> {
    this.#lean ??= this.#stmt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'flights'").pluck().get() === 1;
    if (!this.#lean) {
      // A file from before 012 or 019 opened read-only (not migrated): count its items.
      const out = zeroCounts();
      for (const r of this.#stmt('SELECT state, count(*) AS n FROM items WHERE batch_id = ? GROUP BY state').all(batchId) as { state: ItemState; n: number }[]) out[r.state] = r.n;
      return out;
    }
    const kept = this.#stmt('SELECT state, n FROM item_counts WHERE batch_id = ?').all(batchId) as { state: string; n: number }[];
    const flying = this.#stmt(
      'SELECT state, count(*) AS n FROM flights INDEXED BY flights_for_leases WHERE batch_num = (SELECT num FROM batches WHERE id = ?) GROUP BY state',
    ).all(batchId) as { state: string; n: number }[];
    return countsOf(kept, flying);
  }

  /** Whether the database has migration 019's flights (null until first asked). */
  #lean: boolean | null = null;

  /** The latest items that ended (not cancelled) and their runs' times, for rate and ETA. */
  recentFinishes(batchId: string, limit: number): RecentFinishes {
    const latest = `SELECT id, finished_at FROM items WHERE batch_id = @b AND finished_at IS NOT NULL AND state IN ${sqlStates(ENDED)}
                    ORDER BY finished_at DESC, seq DESC LIMIT @n`;
    const items = this.#stmt(latest).all({ b: batchId, n: limit }) as { id: string; finished_at: string }[];
    const runs = this.#stmt(
      `SELECT created_at AS createdAt, finished_at AS finishedAt FROM runs
       WHERE batch_id = @b AND finished_at IS NOT NULL AND item_id IN (SELECT id FROM (${latest}))`,
    ).all({ b: batchId, n: limit }) as RecentFinishes['runs'];
    return { finishedAt: items.map((r) => r.finished_at), runs };
  }

  /** Column update of the item's own row (never its flight), at the store's clock; returns the `updated_at` it wrote. */
  update(batchId: string, id: string, patch: Partial<Record<ItemColumn, unknown>>): string {
    const cols = Object.keys(patch) as ItemColumn[];
    const sets = cols.map((c) => `${c} = ?`).join(', ');
    const values = cols.map((c) => {
      const v = patch[c];
      return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
    });
    const updatedAt = isoNow(this.#clock);
    const info = this.#stmt(`UPDATE items SET ${sets}, updated_at = ? WHERE batch_id = ? AND id = ?`).run(...values, updatedAt, batchId, id);
    if (info.changes !== 1) throw new Error(`item ${batchId}/${id} not found`);
    return updatedAt;
  }
}

/** `item` with `patch` (items columns) applied, as the database hands it back (JSON columns through JSON). */
export function patched(item: ItemRecord, patch: Partial<Record<ItemColumn, unknown>>, updatedAt: string): ItemRecord {
  const next: ItemRecord = { ...item, updatedAt };
  for (const [col, v] of Object.entries(patch) as [ItemColumn, unknown][]) {
    (next as unknown as Record<string, unknown>)[FIELD[col]] = v !== null && typeof v === 'object' ? JSON.parse(JSON.stringify(v)) : v;
  }
  return next;
}

/** The columns the runner may change, each with its field in the record. */
const FIELD = {
  state: 'state',
  step: 'step',
  pending_key: 'pendingKey',
  pending_answer: 'pendingAnswer',
  run_id: 'runId',
  thread_id: 'threadId',
  run_status: 'runStatus',
  text: 'text',
  error: 'error',
  error_code: 'errorCode',
  hold_reason: 'holdReason',
  started_at: 'startedAt',
  finished_at: 'finishedAt',
  owner: 'owner',
  lease_until: 'leaseUntil',
  attempt: 'attempt',
  fence: 'fence',
} as const satisfies Record<string, keyof ItemRecord>;

/** Columns the runner may change. */
export type ItemColumn = keyof typeof FIELD;

/** Whether an insert was refused for an id the batch has ((batch_id, id) is unique since 019, the primary key before). */
function isDuplicate(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
