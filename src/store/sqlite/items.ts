import { ENDED_STATES as ENDED, UNFINISHED_STATES, sqlStates, zeroCounts } from '../item-states.js';
import type { RecentFinishes } from '../roles/reads.js';
import { type ItemRow, itemFromRow } from '../rows.js';
import type { DuplicateItem, ItemFilter, NewItem, NewItemColumns } from '../shapes.js';
import { type Db, nowIso } from './database.js';
import type { ItemRecord, ItemState } from '../types.js';
import { StatementCache } from './statement-cache.js';







const INSERT_CHUNK = 256;

function metaText(it: NewItem): string {
  return typeof it.meta === 'string' ? it.meta : JSON.stringify(it.meta);
}
const ROW_PLACEHOLDERS = ',(?, ?, ?, ?, ?, ?, ?, ?)';
/** States before the end of an item's life (a thread's later items wait for these). */
export const UNFINISHED = sqlStates(UNFINISHED_STATES);

/** The items table: one row per question of a batch. */
export class ItemRepo {
  readonly #cache: StatementCache;
  constructor(db: Db) {
    this.#cache = new StatementCache(db);
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
        if ((e as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw e;
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
      if ((e as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw e;
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
    const r = this.#stmt('SELECT * FROM items WHERE batch_id = ? AND id = ?').get(batchId, id) as
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
    const where = ['batch_id = ?', 'seq > ?'];
    const args: unknown[] = [batchId, f.afterSeq ?? -1];
    let from = 'items';
    if (f.states) {
      where.push(`state IN (${f.states.map(() => '?').join(',')})`);
      args.push(...f.states);
      if (!f.states.includes('queued')) {
        // Left alone, SQLite walks the whole batch in seq order to spare a sort of the few
        // items in these states (a 1M-item resume read every row). The state index leaves
        // queued items out, so the query must say so for SQLite to take it.
        where.push(`state <> 'queued'`);
        from = 'items INDEXED BY items_state';
      }
    }
    if (f.runStatusOtherThan !== undefined) {
      where.push('run_status IS NOT NULL AND run_status <> ?');
      args.push(f.runStatusOtherThan);
    }
    const limit = f.limit ? ` LIMIT ${Math.floor(f.limit)}` : '';
    const stmt = this.#stmt(`SELECT * FROM ${from} WHERE ${where.join(' AND ')} ORDER BY seq${limit}`);
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

  /** Item counts by state: the rows the triggers of migration 012 keep, not a count of the items. */
  counts(batchId: string): Record<ItemState, number> {
    const out = zeroCounts();
    this.#kept ??= this.#stmt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'item_counts'").pluck().get() === 1;
    // A file from before 012 opened read-only (not migrated) has no kept counts: count its items.
    const sql = this.#kept ? 'SELECT state, n FROM item_counts WHERE batch_id = ?' : 'SELECT state, count(*) AS n FROM items WHERE batch_id = ? GROUP BY state';
    for (const r of this.#stmt(sql).all(batchId) as { state: ItemState; n: number }[]) out[r.state] = r.n;
    return out;
  }

  /** Whether the database has migration 012's item_counts (null until first asked). */
  #kept: boolean | null = null;

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

  /** Generic column update used by the store's transactions; returns the `updated_at` it wrote. */
  update(batchId: string, id: string, patch: Partial<Record<ItemColumn, unknown>>): string {
    const cols = Object.keys(patch) as ItemColumn[];
    const sets = cols.map((c) => `${c} = ?`).join(', ');
    const values = cols.map((c) => {
      const v = patch[c];
      return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
    });
    const updatedAt = nowIso();
    const info = this.#stmt(`UPDATE items SET ${sets}, updated_at = ? WHERE batch_id = ? AND id = ?`).run(...values, updatedAt, batchId, id);
    if (info.changes !== 1) throw new Error(`item ${batchId}/${id} not found`);
    return updatedAt;
  }

  /**
   * {@link update} of an item read in the same transaction, returning the item as it is
   * now without reading it again (two reads per run saved on the hot path).
   */
  patch(item: ItemRecord, patch: Partial<Record<ItemColumn, unknown>>): ItemRecord {
    return this.#patched(item, patch, this.update(item.batchId, item.id, patch));
  }

  /**
   * {@link patch} of an item the caller holds, without reading it first: the update applies
   * only while the item's owner and fencing token are still `item.owner` and `item.fence`,
   * and returns null (nothing changed) when they are not or the item is gone. Saves a read
   * of the whole row per state change.
   */
  patchOwned(item: ItemRecord, patch: Partial<Record<ItemColumn, unknown>>): ItemRecord | null {
    const cols = Object.keys(patch) as ItemColumn[];
    const values = cols.map((c) => {
      const v = patch[c];
      return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
    });
    const updatedAt = nowIso();
    const sql = `UPDATE items SET ${cols.map((c) => `${c} = ?`).join(', ')}, updated_at = ? WHERE batch_id = ? AND id = ? AND owner IS ? AND fence = ?`;
    if (this.#stmt(sql).run(...values, updatedAt, item.batchId, item.id, item.owner, item.fence).changes !== 1) return null;
    return this.#patched(item, patch, updatedAt);
  }

  #patched(item: ItemRecord, patch: Partial<Record<ItemColumn, unknown>>, updatedAt: string): ItemRecord {
    const next: ItemRecord = { ...item, updatedAt };
    for (const [col, v] of Object.entries(patch) as [ItemColumn, unknown][]) {
      // The value as the database hands it back (JSON columns go through JSON).
      (next as unknown as Record<string, unknown>)[FIELD[col]] = v !== null && typeof v === 'object' ? JSON.parse(JSON.stringify(v)) : v;
    }
    return next;
  }

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
