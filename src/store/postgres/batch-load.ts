import type pg from 'pg';
import { settingsText } from '../rows/records.js';
import { type Clock, isoNow, systemClock } from '../../clock.js';
import { BatchExistsError } from '../../errors.js';
import type { BatchLoader, DuplicateItem, ModelBatchRecord, NewBatch, NewItem, NewModelRow } from '../shapes.js';
import type { BatchSettings } from '../types.js';
import type { Queryable } from './pool.js';
import { beginSql } from './pool.js';
import { transactionEnd } from './sql.js';
import { spendsWithNum, spendsWithSql } from '../common/budget-group.js';

const CHUNK = 500;

function metaText(it: NewItem): string {
  return typeof it.meta === 'string' ? it.meta : JSON.stringify(it.meta);
}

/**
 * Inserts the batch row (spending with the group of `b.spendsWith` when given) and returns its
 * integer key; a name taken meanwhile (another process loading it) is a BatchExistsError.
 */
async function insertBatch(c: pg.ClientBase, b: NewBatch, clock: Clock): Promise<number> {
  const now = isoNow(clock);
  const spendsWith = b.spendsWith === undefined ? null : spendsWithNum(b.spendsWith, (await c.query<{ n: unknown }>(`SELECT ${spendsWithSql('$1')} AS n`, [b.spendsWith])).rows[0]?.n);
  try {
    const r = await c.query<{ num: number }>(
      `INSERT INTO batches (id, name, kind, source_path, source_sha256, base_url, settings, policy, created_at, updated_at, spends_with)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10) RETURNING num`,
      [b.id, b.name, b.kind, b.sourcePath, b.sourceSha256, b.baseUrl, settingsText(b.settings), b.policy == null ? null : JSON.stringify(b.policy), now, spendsWith],
    );
    return Number(r.rows[0]!.num);
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw new BatchExistsError(`batch "${b.name}" exists`);
    throw e;
  }
}

/**
 * Inserts rows in multi-row statements, each with its batch's integer key (`batchNum`, the
 * readers' indexes lead with it); hands back those whose id the batch already has, with that row's line.
 */
export async function insertItems(c: pg.ClientBase, batchNum: number, items: readonly NewItem[], now: string): Promise<DuplicateItem[]> {
  const refused: DuplicateItem[] = [];
  for (let i = 0; i < items.length; i += CHUNK) {
    const chunk = items.slice(i, i + CHUNK);
    const values: unknown[] = [batchNum];
    const rows = chunk.map((it, k) => {
      values.push(it.id, it.seq, it.line, it.question, it.threadKey, metaText(it), it.expectedJson ?? null, now);
      const b = k * 8 + 1;
      return `($1, $${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}, $${b + 8})`;
    });
    const r = await c.query<{ seq: number }>(
      `INSERT INTO items (batch_num, id, seq, line, question, thread_key, meta, expected, updated_at) VALUES ${rows.join(', ')}
       ON CONFLICT (batch_num, id) DO NOTHING RETURNING seq`,
      values,
    );
    if (r.rowCount === chunk.length) continue;
    const stored = new Set(r.rows.map((x) => x.seq));
    for (const it of chunk) {
      if (stored.has(it.seq)) continue;
      const first = await c.query<{ line: number }>('SELECT line FROM items WHERE batch_num = $1 AND id = $2', [batchNum, it.id]);
      refused.push({ item: it, firstLine: first.rows[0]!.line });
    }
  }
  return refused;
}

/** Starts loading a batch on a client of its own: everything in one transaction, or nothing. */
export async function beginBatchLoad(pool: pg.Pool, batch: NewBatch, clock: Clock = systemClock): Promise<BatchLoader> {
  const c = await pool.connect();
  // A reset between two statements is the next statement's error, not an unhandled event.
  c.on('error', () => {});
  const now = isoNow(clock);
  let n = 0;
  let buffer: NewItem[] = [];
  const end = transactionEnd(c);
  let num: number;
  try {
    await c.query(beginSql(pool));
    num = await insertBatch(c, batch, clock);
  } catch (e) {
    await end('ROLLBACK');
    throw e;
  }
  const flush = async (): Promise<DuplicateItem[]> => {
    const rows = buffer;
    buffer = [];
    const refused = rows.length ? await insertItems(c, num, rows, now) : [];
    n += rows.length - refused.length;
    return refused;
  };
  return {
    add: async (item) => {
      buffer.push(item);
      return buffer.length >= CHUNK ? flush() : [];
    },
    addColumns: async (cols, seq0) => {
      for (let k = 0; k < cols.ids.length; k++)
        buffer.push({ id: cols.ids[k]!, seq: seq0 + k, line: cols.lines[k]!, question: cols.questions[k]!, threadKey: cols.threads[k] ?? null, meta: cols.metas[k]!, expectedJson: cols.expecteds?.[k] ?? null });
      return flush();
    },
    flush,
    commit: async (invalid, sourceSha256) => {
      if ((await flush()).length) throw new Error('batch load: duplicate ids left unreported (call flush before commit)');
      await c.query('UPDATE batches SET total_items = $1, invalid_rows = $2, source_sha256 = coalesce($3, source_sha256), updated_at = $4 WHERE id = $5', [
        n,
        JSON.stringify(invalid),
        sourceSha256 ?? null,
        isoNow(clock),
        batch.id,
      ]);
      await end('COMMIT');
      return n;
    },
    rollback: async () => end('ROLLBACK'),
  };
}

/** Records a models batch, its model and every row, in the caller's transaction. */
export async function loadModelBatch(c: pg.ClientBase, batch: NewBatch, model: Omit<ModelBatchRecord, 'batchId'>, rows: readonly NewModelRow[], clock: Clock = systemClock): Promise<void> {
  const num = await insertBatch(c, batch, clock);
  await c.query('INSERT INTO model_batches (batch_num, model_id, mode, description) VALUES ($1, $2, $3, $4)', [num, model.modelId, model.mode, JSON.stringify(model.description)]);
  const now = isoNow(clock);
  // The inputs stand in for the question, so status and views show something readable.
  await insertItems(c, num, rows.map((r, seq) => ({ id: r.id, seq, line: r.line, question: JSON.stringify(r.inputs), threadKey: null, meta: r.meta })), now);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const values: unknown[] = [num];
    const tuples = chunk.map((r, k) => {
      values.push(r.id, model.modelId, JSON.stringify(r.inputs));
      return `($1, $${k * 3 + 2}, $${k * 3 + 3}, $${k * 3 + 4})`;
    });
    await c.query(`INSERT INTO model_runs (batch_num, item_id, model_id, inputs) VALUES ${tuples.join(', ')}`, values);
  }
  await c.query('UPDATE batches SET total_items = $1, invalid_rows = $2, updated_at = $3 WHERE id = $4', [rows.length, '[]', isoNow(clock), batch.id]);
}

/** Updates settings and policy when a batch is resumed with new flags. */
export async function updateBatchSettings(c: Queryable, id: string, settings: BatchSettings, policy: unknown, baseUrl: string | null, clock: Clock = systemClock): Promise<void> {
  await c.query('UPDATE batches SET settings = $1, policy = $2, base_url = $3, updated_at = $4 WHERE id = $5', [
    settingsText(settings), policy == null ? null : JSON.stringify(policy), baseUrl, isoNow(clock), id,
  ]);
}
