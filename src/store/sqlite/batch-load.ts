import type { Statement } from 'better-sqlite3';
import { settingsText } from '../rows/records.js';
import { BatchExistsError } from '../../errors.js';
import type { InputProblem } from '../../errors.js';
import type { BatchLoader, DuplicateItem, ModelBatchRecord, NewBatch, NewItem, NewItemColumns, NewModelRow } from '../shapes.js';
import type { Db, SqliteContext } from './database.js';
import { isoNow } from '../../clock.js';
import type { BatchSettings } from '../types.js';
import { batchNumOf, type StatementCache } from './statement-cache.js';
import { findBatch } from './reads.js';
import { spendsWithNum, spendsWithSql } from '../common/budget-group.js';

/** Inserts a batch (call inside the load transaction), spending with the group of `b.spendsWith` when given. */
function insertBatch(cx: SqliteContext, b: NewBatch): void {
  const now = isoNow(cx.clock);
  const spendsWith = b.spendsWith === undefined ? null : spendsWithNum(b.spendsWith, cx.db.prepare(`SELECT ${spendsWithSql('?')}`).pluck().get(b.spendsWith));
  cx.db
    .prepare(
      `INSERT INTO batches (id, name, kind, source_path, source_sha256, base_url, settings, policy, created_at, updated_at, spends_with, num)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(num), 0) + 1 FROM batches))`,
    )
    .run(
      b.id,
      b.name,
      b.kind,
      b.sourcePath,
      b.sourceSha256,
      b.baseUrl,
      settingsText(b.settings),
      b.policy == null ? null : JSON.stringify(b.policy),
      now,
      now,
      spendsWith,
    );
}

/** Records how many items were loaded, which rows were rejected (--skip-invalid) and, when given, the file's sha256. */
function setLoaded(cx: SqliteContext, id: string, totalItems: number, invalid: InputProblem[], sourceSha256?: string): void {
  cx.db
    .prepare('UPDATE batches SET total_items = ?, invalid_rows = ?, source_sha256 = coalesce(?, source_sha256), updated_at = ? WHERE id = ?')
    .run(totalItems, JSON.stringify(invalid), sourceSha256 ?? null, isoNow(cx.clock), id);
}

/** Updates settings and policy when a batch is resumed with new flags. */
export function updateBatchSettings(cx: SqliteContext, id: string, settings: BatchSettings, policy: unknown, baseUrl: string | null): void {
  cx.db
    .prepare('UPDATE batches SET settings = ?, policy = ?, base_url = ?, updated_at = ? WHERE id = ?')
    .run(settingsText(settings), policy == null ? null : JSON.stringify(policy), baseUrl, isoNow(cx.clock), id);
}

/**
 * Starts loading a batch. The batch row and every item are written in one open
 * transaction while the question file streams; commit or rollback ends it.
 */
export function beginBatchLoad(cx: SqliteContext, batch: NewBatch, opts: { bulk?: boolean } = {}): BatchLoader {
  const db = cx.db;
  const restore = opts.bulk ? bulkJournal(db) : () => {};
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (e) {
    restore();
    throw e;
  }
  let n = 0;
  const now = isoNow(cx.clock);
  try {
    // Checked under the write lock: two processes loading one batch at once load it once.
    if (findBatch(cx, batch.name)) throw new BatchExistsError(`batch "${batch.name}" exists`);
    insertBatch(cx, batch);
  } catch (e) {
    db.exec('ROLLBACK');
    restore();
    throw e;
  }
  let buffer: NewItem[] = [];
  const flush = (): DuplicateItem[] => {
    const refused = buffer.length ? insertItems(cx, batch.id, buffer, now) : [];
    n += buffer.length - refused.length;
    buffer = [];
    return refused;
  };
  return {
    add: async (item) => {
      buffer.push(item);
      return buffer.length >= 256 ? flush() : [];
    },
    addColumns: async (cols, seq0) => {
      const refused = flush();
      const more = insertItemColumns(cx, batch.id, cols, seq0, now);
      n += cols.ids.length - more.length;
      return refused.concat(more);
    },
    flush: async () => flush(),
    commit: async (invalid, sourceSha256) => {
      if (flush().length) throw new Error('batch load: duplicate ids left unreported (call flush before commit)');
      setLoaded(cx, batch.id, n, invalid, sourceSha256);
      db.exec('COMMIT');
      restore();
      return n;
    },
    rollback: async () => {
      if (db.inTransaction) db.exec('ROLLBACK');
      restore();
    },
  };
}

/**
 * For a large load: a rollback journal instead of the WAL while it runs. In WAL mode
 * every new page is written twice (to the WAL, then copied into the database by the
 * checkpoint); a rollback journal saves only pages that existed before, and a load
 * mostly appends new ones (1M items: about 1 s less). The load stays one transaction: a
 * killed process leaves a hot journal that the next open rolls back. Only possible
 * while no other connection has the file open; otherwise the load goes through the WAL.
 * Returns what puts WAL mode back.
 */
function bulkJournal(db: Db): () => void {
  if (db.memory || db.inTransaction) return () => {};
  // Another connection makes the switch fail with SQLITE_BUSY: find out at once, not
  // after the busy timeout.
  const timeout = db.pragma('busy_timeout', { simple: true });
  let mode = 'wal';
  try {
    db.pragma('busy_timeout = 0');
    mode = String(db.pragma('journal_mode = DELETE', { simple: true }));
  } catch (e) {
    if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
  } finally {
    db.pragma(`busy_timeout = ${Number(timeout)}`);
  }
  if (mode !== 'delete') return () => {};
  let done = false;
  return () => {
    if (done || !db.open) return;
    done = true;
    db.pragma('journal_mode = WAL');
  };
}

/** Records a new models batch, its model and every row: all or nothing (inside one transaction). */
export function loadModelBatch(cx: SqliteContext, batch: NewBatch, model: Omit<ModelBatchRecord, 'batchId'>, rows: readonly NewModelRow[]): void {
  const now = isoNow(cx.clock);
  insertBatch(cx, batch);
  cx.stmt.get(`INSERT INTO model_batches (batch_num, model_id, mode, description) VALUES (${batchNumOf()}, ?, ?, ?)`).run(
    batch.id,
    model.modelId,
    model.mode,
    JSON.stringify(model.description),
  );
  rows.forEach((row, seq) => {
    // The inputs stand in for the question, so `resq status` and views show something readable.
    insertMany(cx, batch.id, [{ id: row.id, seq, line: row.line, question: JSON.stringify(row.inputs), threadKey: null, meta: row.meta }], now);
    cx.stmt.get(`INSERT INTO model_runs (batch_num, item_id, model_id, inputs) VALUES (${batchNumOf()}, ?, ?, ?)`).run(
      batch.id,
      row.id,
      model.modelId,
      JSON.stringify(row.inputs),
    );
  });
  setLoaded(cx, batch.id, rows.length, []);
}

// The items table's inserts: its rows (with their batch's integer key) when a batch is loaded or grows.

const INSERT_CHUNK = 256;

function metaText(it: NewItem): string {
  return typeof it.meta === 'string' ? it.meta : JSON.stringify(it.meta);
}
const ROW_PLACEHOLDERS = ',(?, ?, ?, ?, ?, ?, ?, ?, ?)';

/**
 * The batch's integer key, read inside the writing transaction once per call (not from the
 * adapter's cache: a load rolled back and retried may give its batch another one).
 */
function itemNum(cx: SqliteContext, batchId: string): number {
  const n = cx.stmt.get('SELECT num FROM batches WHERE id = ?').pluck().get(batchId) as number | undefined;
  if (n === undefined) throw new Error(`batch ${batchId} not found`);
  return n;
}

/** Inserts items with one statement per chunk: far fewer round trips than one per row. */
function insertMany(cx: SqliteContext, batchId: string, items: readonly NewItem[], now: string): void {
  const num = itemNum(cx, batchId);
  for (let i = 0; i < items.length; i += INSERT_CHUNK) {
    const chunk = items.slice(i, i + INSERT_CHUNK);
    const values: unknown[] = [];
    for (const it of chunk)
      values.push(num, it.id, it.seq, it.line, it.question, it.threadKey, metaText(it), it.expectedJson ?? null, now);
    insertRows(cx, chunk.length).run(...values);
  }
}

/** Each connection's insert of a full chunk (see {@link insertRows}). */
const fullChunks = new WeakMap<StatementCache, Statement>();

/** The insert of `n` rows; the full-chunk one is kept apart (as a cache key its 8 KB SQL text would be hashed at every lookup). */
function insertRows(cx: SqliteContext, n: number): Statement {
  const sql = (k: number): string =>
    `INSERT INTO items (batch_num, id, seq, line, question, thread_key, meta, expected, updated_at) VALUES ${ROW_PLACEHOLDERS.repeat(k).slice(1)}`;
  if (n !== INSERT_CHUNK) return cx.stmt.get(sql(n));
  let full = fullChunks.get(cx.stmt);
  if (!full) fullChunks.set(cx.stmt, (full = cx.stmt.get(sql(n))));
  return full;
}

/**
 * Like {@link insertItems} for rows given column by column: no object per row on the way
 * (a million-row load makes far less garbage).
 */
function insertItemColumns(cx: SqliteContext, batchId: string, cols: NewItemColumns, seq0: number, now: string): DuplicateItem[] {
  const refused: DuplicateItem[] = [];
  const num = itemNum(cx, batchId);
  for (let i = 0; i < cols.ids.length; i += INSERT_CHUNK) {
    const end = Math.min(i + INSERT_CHUNK, cols.ids.length);
    const values: unknown[] = [];
    for (let k = i; k < end; k++)
      values.push(num, cols.ids[k], seq0 + k, cols.lines[k], cols.questions[k], cols.threads[k], cols.metas[k], cols.expecteds?.[k] ?? null, now);
    try {
      insertRows(cx, end - i).run(...values);
      continue;
    } catch (e) {
      if (!isDuplicate(e)) throw e;
    }
    const chunk: NewItem[] = [];
    for (let k = i; k < end; k++)
      chunk.push({ id: cols.ids[k]!, seq: seq0 + k, line: cols.lines[k]!, question: cols.questions[k]!, threadKey: cols.threads[k]!, meta: cols.metas[k]!, expectedJson: cols.expecteds?.[k] ?? null });
    refused.push(...insertOneByOne(cx, batchId, chunk, now));
  }
  return refused;
}

/**
 * Inserts a new batch's rows, refusing any whose id the batch already has: the primary
 * key finds duplicates, so loading holds no set of every id in memory. A chunk with a
 * duplicate fails as a whole and is then inserted row by row, in order. Hands back the
 * refused rows, each with the line of the row that has its id.
 */
export function insertItems(cx: SqliteContext, batchId: string, items: readonly NewItem[], now: string): DuplicateItem[] {
  try {
    insertMany(cx, batchId, items, now);
    return [];
  } catch (e) {
    if (!isDuplicate(e)) throw e;
  }
  return insertOneByOne(cx, batchId, items, now);
}

/** Inserts rows one at a time, in order, handing back those whose id is taken. */
function insertOneByOne(cx: SqliteContext, batchId: string, items: readonly NewItem[], now: string): DuplicateItem[] {
  const refused: DuplicateItem[] = [];
  const one = cx.stmt.get(
    `INSERT INTO items (batch_num, id, seq, line, question, thread_key, meta, expected, updated_at) VALUES ${ROW_PLACEHOLDERS.slice(1)}
     ON CONFLICT (batch_num, id) DO NOTHING`,
  );
  const num = itemNum(cx, batchId);
  for (const it of items) {
    if (one.run(num, it.id, it.seq, it.line, it.question, it.threadKey, metaText(it), it.expectedJson ?? null, now).changes === 1) continue;
    const first = cx.stmt.get('SELECT line FROM items WHERE batch_num = ? AND id = ?').pluck().get(num, it.id) as number;
    refused.push({ item: it, firstLine: first });
  }
  return refused;
}

/** Whether an insert was refused for an id the batch has ((batch_num, id) is unique since 020; (batch_id, id) in 019, the primary key before). */
function isDuplicate(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
