import type { Queryable } from './pool.js';
import { modelRunFromRow, type ModelRunRow } from '../rows/records.js';
import type { CreditTotals, ModelBatchRecord, ModelRunRecord } from '../shapes.js';
import type { ItemRecord } from '../types.js';
import { ITEM_COLS, itemFromJoined, ITEMS_FROM, type JoinedRow } from './flights.js';
import { all, BATCH_NUM, one } from './sql.js';

type Q = Queryable;

/** Reads of models batches and their runs, PostgreSQL adapter (one statement each). */

export async function modelBatch(c: Q, batchId: string): Promise<ModelBatchRecord | null> {
  const r = await one<{ batch_id: string; model_id: string; mode: string | null; description: string }>(
    c,
    `SELECT m.*, $1::text AS batch_id FROM model_batches m WHERE m.batch_num = ${BATCH_NUM('$1')}`,
    [batchId],
  );
  return r ? { batchId: r.batch_id, modelId: r.model_id, mode: r.mode as ModelBatchRecord['mode'], description: JSON.parse(r.description) as Record<string, unknown> } : null;
}

export async function modelRun(c: Q, batchId: string, itemId: string): Promise<ModelRunRecord | null> {
  const r = await one<ModelRunRow>(c, `SELECT m.*, $1::text AS batch_id FROM model_runs m WHERE m.batch_num = ${BATCH_NUM('$1')} AND m.item_id = $2`, [batchId, itemId]);
  return r ? modelRunFromRow(r) : null;
}

export async function modelRuns(c: Q, batchId: string, afterSeq: number, limit: number): Promise<{ item: ItemRecord; run: ModelRunRecord }[]> {
  const rows = await all<JoinedRow & { m: ModelRunRow }>(
    c,
    `SELECT ${ITEM_COLS}, row_to_json(m) AS m FROM ${ITEMS_FROM} JOIN model_runs m ON m.batch_num = i.batch_num AND m.item_id = i.id
     WHERE i.batch_num = ${BATCH_NUM('$1')} AND i.seq > $2 ORDER BY i.seq LIMIT $3`,
    [batchId, afterSeq, limit],
  );
  return rows.map((r) => ({ item: itemFromJoined(r, batchId), run: modelRunFromRow({ ...r.m, batch_id: batchId }) }));
}

export async function modelCredits(c: Q, batchId: string): Promise<CreditTotals> {
  const r = (await one<{ spent: number; unreported: number | null }>(
    c,
    `SELECT coalesce(sum(credits), 0) AS spent,
            sum(CASE WHEN credits IS NULL AND status IS NOT NULL AND status <> 'running' THEN 1 ELSE 0 END) AS unreported
     FROM model_runs WHERE batch_num = ${BATCH_NUM('$1')}`,
    [batchId],
  ))!;
  return { spent: Number(r.spent), unreported: Number(r.unreported ?? 0) };
}

