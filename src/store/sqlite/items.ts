import { type Clock, isoNow } from '../../clock.js';
import type { DuplicateItem, NewItem, NewItemColumns } from '../shapes.js';
import type { Db } from './database.js';
import type { ItemRecord } from '../types.js';
import { StatementCache } from './statement-cache.js';
import { batchNumOf } from './reads.js';

const INSERT_CHUNK = 256;

function metaText(it: NewItem): string {
  return typeof it.meta === 'string' ? it.meta : JSON.stringify(it.meta);
}
const ROW_PLACEHOLDERS = ',(?, ?, ?, ?, ?, ?, ?, ?, ?)';
/** The items table's writes: its rows inserted (with their batch's integer key) when a batch is loaded or grows, and changed when no flight carries them (reads.ts reads them). */
export class ItemRepo {
  readonly #cache: StatementCache;
  readonly #clock: Clock;
  constructor(db: Db, clock: Clock) {
    this.#cache = new StatementCache(db);
    this.#clock = clock;
  }

  /**
   * The batch's integer key, read inside the writing transaction once per call (not from the
   * adapter's cache: a load rolled back and retried may give its batch another one).
   */
  #num(batchId: string): number {
    const n = this.#stmt('SELECT num FROM batches WHERE id = ?').pluck().get(batchId) as number | undefined;
    if (n === undefined) throw new Error(`batch ${batchId} not found`);
    return n;
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
    const num = this.#num(batchId);
    for (let i = 0; i < items.length; i += INSERT_CHUNK) {
      const chunk = items.slice(i, i + INSERT_CHUNK);
      const values: unknown[] = [];
      for (const it of chunk)
        values.push(num, it.id, it.seq, it.line, it.question, it.threadKey, metaText(it), it.expectedJson ?? null, now);
      this.#insertRows(chunk.length).run(...values);
    }
  }

  #fullChunk: import('better-sqlite3').Statement | null = null;

  /** The insert of `n` rows; the full-chunk one is kept apart (as a cache key its 8 KB SQL text would be hashed at every lookup). */
  #insertRows(n: number): import('better-sqlite3').Statement {
    const sql = (k: number): string =>
      `INSERT INTO items (batch_num, id, seq, line, question, thread_key, meta, expected, updated_at) VALUES ${ROW_PLACEHOLDERS.repeat(k).slice(1)}`;
    if (n !== INSERT_CHUNK) return this.#stmt(sql(n));
    return (this.#fullChunk ??= this.#stmt(sql(n)));
  }

  /**
   * Like {@link insertNew} for rows given column by column: no object per row on the way
   * (a million-row load makes far less garbage).
   */
  insertNewColumns(batchId: string, cols: NewItemColumns, seq0: number, now: string): DuplicateItem[] {
    const refused: DuplicateItem[] = [];
    const num = this.#num(batchId);
    for (let i = 0; i < cols.ids.length; i += INSERT_CHUNK) {
      const end = Math.min(i + INSERT_CHUNK, cols.ids.length);
      const values: unknown[] = [];
      for (let k = i; k < end; k++)
        values.push(num, cols.ids[k], seq0 + k, cols.lines[k], cols.questions[k], cols.threads[k], cols.metas[k], cols.expecteds?.[k] ?? null, now);
      try {
        this.#insertRows(end - i).run(...values);
        continue;
      } catch (e) {
        if (!isDuplicate(e)) throw e;
      }
      const chunk: NewItem[] = [];
      for (let k = i; k < end; k++)
        chunk.push({ id: cols.ids[k]!, seq: seq0 + k, line: cols.lines[k]!, question: cols.questions[k]!, threadKey: cols.threads[k]!, meta: cols.metas[k]!, expectedJson: cols.expecteds?.[k] ?? null });
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
      `INSERT INTO items (batch_num, id, seq, line, question, thread_key, meta, expected, updated_at) VALUES ${ROW_PLACEHOLDERS.slice(1)}
       ON CONFLICT (batch_num, id) DO NOTHING`,
    );
    const num = this.#num(batchId);
    for (const it of items) {
      if (one.run(num, it.id, it.seq, it.line, it.question, it.threadKey, metaText(it), it.expectedJson ?? null, now).changes === 1) continue;
      const first = this.#stmt('SELECT line FROM items WHERE batch_num = ? AND id = ?').pluck().get(num, it.id) as number;
      refused.push({ item: it, firstLine: first });
    }
    return refused;
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
    const info = this.#stmt(`UPDATE items SET ${sets}, updated_at = ? WHERE batch_num = ${batchNumOf()} AND id = ?`).run(...values, updatedAt, batchId, id);
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

/** Whether an insert was refused for an id the batch has ((batch_num, id) is unique since 020; (batch_id, id) in 019, the primary key before). */
function isDuplicate(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
