import type pg from 'pg';
import type { Queryable } from './pool.js';
import { type Clock, isoNow, systemClock } from '../../clock.js';
import { modelRunFromRow, type ModelRunRow } from '../rows/records.js';
import type { CreditTotals, FinishedModelRun, ModelBatchRecord, ModelRunRecord, ModelRunReport } from '../shapes.js';
import type { ItemRecord } from '../types.js';
import { getItem, updateItem } from './flights.js';
import { recordFile } from './files.js';
import { all, BATCH_NUM, ITEM_COLS, itemFromJoined, ITEMS_FROM, type JoinedRow, one, prepared } from './sql.js';

type Q = Queryable;

/** Sent prepared: parsed and planned once per connection (sql.ts `hot`). */
const { exec } = prepared;

/**
 * Models batches, PostgreSQL adapter: reads of models batches and their runs (one statement
 * each), and the transitions of a models batch's rows, each inside the caller's transaction
 * with the row's item written through flights.ts `updateItem`. Loading one: batch-load.ts.
 */

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

/** Reads of the service made for a batch's runs. */
export async function modelPolls(c: Q, batchId: string): Promise<number> {
  return Number((await c.query(`SELECT coalesce(sum(polls), 0) AS n FROM model_runs WHERE batch_num = ${BATCH_NUM('$1')}`, [batchId])).rows[0].n);
}

/** Changes the mode used for rows not yet sent (a resume with another --mode). */
export async function setModelMode(c: Q, batchId: string, mode: ModelBatchRecord['mode']): Promise<void> {
  await c.query(`UPDATE model_batches SET mode = $1 WHERE batch_num = ${BATCH_NUM('$2')}`, [mode, batchId]);
}

/** Adds reads of a run still going (kept across resumes). */
export async function addModelPolls(c: Q, batchId: string, itemId: string, polls: number): Promise<void> {
  if (polls > 0) await c.query(`UPDATE model_runs SET polls = polls + $1 WHERE batch_num = ${BATCH_NUM('$2')} AND item_id = $3`, [polls, batchId, itemId]);
}

// ---- the transitions of a models batch's rows (as the SQLite adapter's models.ts)

export async function markModelSubmitting(c: pg.ClientBase, batchId: string, itemId: string, key: string, mode: ModelBatchRecord['mode'], resend: boolean, clock: Clock = systemClock): Promise<void> {
  if (resend) {
    await exec(c, `UPDATE model_runs SET submits = submits + 1, submitted_at = $1 WHERE batch_num = ${BATCH_NUM('$2')} AND item_id = $3`, [isoNow(clock), batchId, itemId]);
    return;
  }
  const item = await getItem(c, batchId, itemId, true);
  await exec(c, `UPDATE model_runs SET idempotency_key = $1, mode = $2, submits = submits + 1, submitted_at = $3 WHERE batch_num = ${BATCH_NUM('$4')} AND item_id = $5`, [key, mode, isoNow(clock), batchId, itemId]);
  await updateItem(c, batchId, itemId, { state: 'submitting', pending_key: key, started_at: item?.startedAt ?? isoNow(clock) }, isoNow(clock), item ?? undefined);
}

async function setAdmitted(c: pg.ClientBase, batchId: string, itemId: string, httpStatus: number, run: ModelRunReport, clock: Clock = systemClock): Promise<void> {
  await exec(c,
    `UPDATE model_runs SET model_run_id = $1, http_status = $2, status = $3, poll_url = $4, credits = $5, admitted_at = $6 WHERE batch_num = ${BATCH_NUM('$7')} AND item_id = $8`,
    [run.id, httpStatus, run.status, run.pollUrl, run.credits, isoNow(clock), batchId, itemId],
  );
}

export async function markModelAdmitted(c: pg.ClientBase, batchId: string, itemId: string, httpStatus: number, run: ModelRunReport, clock: Clock = systemClock): Promise<void> {
  await setAdmitted(c, batchId, itemId, httpStatus, run, clock);
  await updateItem(c, batchId, itemId, { state: 'running', run_id: run.id, run_status: run.status, pending_key: null }, isoNow(clock));
}

export async function markModelFinished(c: pg.ClientBase, batchId: string, itemId: string, run: FinishedModelRun, o: { httpStatus: number | null; failed: boolean; polls: number }, clock: Clock = systemClock): Promise<void> {
  if (o.httpStatus !== null) await setAdmitted(c, batchId, itemId, o.httpStatus, run, clock);
  await exec(c,
    `UPDATE model_runs SET status = $1, outputs = $2, error = $3, credits = $4, polls = polls + $5, finished_at = $6 WHERE batch_num = ${BATCH_NUM('$7')} AND item_id = $8`,
    [run.status, run.outputs == null ? null : JSON.stringify(run.outputs), run.error, run.credits, o.polls, isoNow(clock), batchId, itemId],
  );
  const seen = new Date(clock.now());
  const created = run.createdAt ? new Date(run.createdAt) : null;
  if (run.files.length > 0) {
    const num = Number((await exec(c, `SELECT ${BATCH_NUM('$1')} AS n`, [batchId])).rows[0]!.n);
    for (const f of run.files) await recordFile(c, num, itemId, run.id, f, seen, created);
  }
  await updateItem(c, batchId, itemId, {
    state: o.failed ? 'failed' : 'completed', run_id: run.id, run_status: run.status, pending_key: null,
    error: o.failed ? (run.error ?? `model run ${run.id} ended with status ${run.status}`) : null,
    finished_at: isoNow(clock), owner: null, lease_until: null,
  }, isoNow(clock));
}

export async function markModelError(c: pg.ClientBase, batchId: string, itemId: string, message: string, polls: number, clock: Clock = systemClock): Promise<void> {
  await exec(c, `UPDATE model_runs SET error = $1, polls = polls + $2, finished_at = $3 WHERE batch_num = ${BATCH_NUM('$4')} AND item_id = $5`, [message, polls, isoNow(clock), batchId, itemId]);
  await updateItem(c, batchId, itemId, { state: 'error', error: message, pending_key: null, finished_at: isoNow(clock), owner: null, lease_until: null }, isoNow(clock));
}

/** The create request provably never reached the service: the row is `queued` again. */
export async function markModelUnsent(c: pg.ClientBase, batchId: string, itemId: string, clock: Clock = systemClock): Promise<void> {
  await updateItem(c, batchId, itemId, { state: 'queued', pending_key: null, owner: null, lease_until: null }, isoNow(clock));
}
