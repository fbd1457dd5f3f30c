import type { Queryable } from './pool.js';
import type pg from 'pg';
import type { ItemAggregate, RecentFinishes } from '../port.js';
import { ENDED_STATES, sqlStates, zeroCounts } from '../item-states.js';
import { batchFromRow, type BatchRow, decisionFromRow, type DecisionRow, fileFromRow, type FileRow, itemFromRow, type ItemRow, modelRunFromRow, type ModelRunRow, runFromRow, type RunRow } from '../rows.js';
import type { BatchDecision, BatchTotals, CreditTotals, ItemFilter, ItemQuery, ItemStats, MetaValue, ModelBatchRecord, ModelRunRecord, RunTime } from '../shapes.js';
import type { BatchRecord, FileCopy, FileRecord, FileStatus, ItemRecord, ItemState } from '../types.js';
import { all, col, ITEM_COLS, itemFromJoined, ITEMS_FROM, type JoinedRow, one, rowStates, scalar, statesWhere } from './sql.js';

type Q = Queryable;

/**
 * The read projections of the PostgreSQL adapter: the same answers as the SQLite adapter's
 * repositories, one statement each (no transaction needed for a single read).
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

export async function listItems(c: Q, batchId: string, f: ItemFilter = {}): Promise<ItemRecord[]> {
  const where = ['i.batch_id = $1', 'i.seq > $2'];
  const args: unknown[] = [batchId, f.afterSeq ?? -1];
  const arg = (v: unknown): string => {
    args.push(v);
    return `$${args.length}`;
  };
  if (f.states) where.push(statesWhere(arg, f.states));
  if (f.runStatusOtherThan !== undefined) where.push(`${col('run_status')} IS NOT NULL AND ${col('run_status')} <> ${arg(f.runStatusOtherThan)}`);
  const limit = f.limit ? ` LIMIT ${Math.floor(f.limit)}` : '';
  return (await all<JoinedRow>(c, `SELECT ${ITEM_COLS} FROM ${ITEMS_FROM} WHERE ${where.join(' AND ')} ORDER BY i.seq${limit}`, args)).map(itemFromJoined);
}

export async function recentFinishes(c: Q, batchId: string, limit: number): Promise<RecentFinishes> {
  const latest = `SELECT id, finished_at FROM items WHERE batch_id = $1 AND finished_at IS NOT NULL AND state IN ${sqlStates(ENDED_STATES)}
                  ORDER BY finished_at DESC, seq DESC LIMIT $2`;
  const items = await all<{ id: string; finished_at: string }>(c, latest, [batchId, limit]);
  const runs = await all<{ createdAt: string; finishedAt: string }>(
    c,
    `SELECT created_at AS "createdAt", finished_at AS "finishedAt" FROM runs
     WHERE batch_id = $1 AND finished_at IS NOT NULL AND item_id IN (SELECT id FROM (${latest}) AS latest)`,
    [batchId, limit],
  );
  return { finishedAt: items.map((r) => r.finished_at), runs };
}

export async function getRun(c: Q, id: string) {
  const r = await one<RunRow>(c, 'SELECT * FROM runs WHERE id = $1', [id]);
  return r ? runFromRow(r) : null;
}

export async function runChain(c: Q, batchId: string, itemId: string) {
  return (await all<RunRow>(c, 'SELECT * FROM runs WHERE batch_id = $1 AND item_id = $2 ORDER BY ord', [batchId, itemId])).map(runFromRow);
}

export async function decisionsForItem(c: Q, batchId: string, itemId: string) {
  return (await all<DecisionRow>(c, 'SELECT * FROM decisions WHERE batch_id = $1 AND item_id = $2 ORDER BY id', [batchId, itemId])).map(decisionFromRow);
}

/** Export rows a page at a time in one statement: each item with its runs, decisions and files (JSON aggregates); only `states` when given. */
export async function aggregates(c: Q, batchId: string, afterSeq: number, limit: number, states?: readonly ItemState[]): Promise<ItemAggregate[]> {
  if (states && states.length === 0) return [];
  type Runs = { id: string; createdAt: string; finishedAt: string | null }[];
  const rows = await all<JoinedRow & { agg_runs: Runs | null; agg_decisions: ItemAggregate['decisions'] | null; agg_files: ItemAggregate['files'] | null }>(
    c,
    `SELECT ${ITEM_COLS},
       (SELECT json_agg(json_build_object('id', r.id, 'createdAt', r.created_at, 'finishedAt', r.finished_at) ORDER BY r.ord)
          FROM runs r WHERE r.batch_id = i.batch_id AND r.item_id = i.id) AS agg_runs,
       (SELECT json_agg(json_build_object('tool', d.tool, 'input', d.input::json, 'answer', d.answer::json, 'by', d.by, 'person', d.person,
                                          'reason', d.reason, 'cost', d.cost) ORDER BY d.id)
          FROM decisions d WHERE d.batch_id = i.batch_id AND d.item_id = i.id) AS agg_decisions,
       (SELECT json_agg(json_build_object('id', f.id, 'role', f.role, 'name', f.name, 'path', f.path, 'bytes', f.bytes,
                                          'sha256', f.sha256, 'status', f.status, 'host', f.host) ORDER BY f.ord)
          FROM files f WHERE f.batch_id = i.batch_id AND f.item_id = i.id) AS agg_files
     FROM ${ITEMS_FROM} WHERE i.batch_id = $1 AND i.seq > $2${states ? ` AND ${statesWhere((v) => (v === states ? '$4' : '$5'), states)}` : ''} ORDER BY i.seq LIMIT $3`,
    states ? [batchId, afterSeq, limit, states, rowStates(states)] : [batchId, afterSeq, limit],
  );
  return rows.map((r) => {
    const runs = r.agg_runs ?? [];
    return {
      item: itemFromJoined(r),
      runIds: runs.map((x) => x.id),
      runTimes: runs.map((x) => ({ createdAt: x.createdAt, finishedAt: x.finishedAt })),
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
     WHERE i.batch_id = $1 GROUP BY e.key ORDER BY min(ARRAY[i.seq::bigint, e.ord])`,
    [batchId],
  );
  return rows.map((r) => r.key);
}

// ---- files

const NOT_ON_DISK = "('pending', 'failed', 'missing')";

export async function getFile(c: Q, batchId: string, id: string): Promise<FileRecord | null> {
  const r = await one<FileRow>(c, 'SELECT * FROM files WHERE batch_id = $1 AND id = $2', [batchId, id]);
  return r ? fileFromRow(r) : null;
}

export async function filesForBatch(c: Q, batchId: string, statuses?: readonly FileStatus[]): Promise<FileRecord[]> {
  const rows = statuses
    ? await all<FileRow>(c, 'SELECT * FROM files WHERE batch_id = $1 AND status = ANY($2) ORDER BY ord', [batchId, statuses])
    : await all<FileRow>(c, 'SELECT * FROM files WHERE batch_id = $1 ORDER BY ord', [batchId]);
  return rows.map(fileFromRow);
}

export async function filesForItem(c: Q, batchId: string, itemId: string): Promise<FileRecord[]> {
  return (await all<FileRow>(c, 'SELECT * FROM files WHERE batch_id = $1 AND item_id = $2 ORDER BY ord', [batchId, itemId])).map(fileFromRow);
}

export async function fileCounts(c: Q, batchId: string): Promise<Record<FileStatus, number>> {
  const out: Record<FileStatus, number> = { pending: 0, downloaded: 0, failed: 0, expired: 0, missing: 0 };
  for (const r of await all<{ status: FileStatus; n: number }>(c, 'SELECT status, count(*) AS n FROM files WHERE batch_id = $1 GROUP BY status', [batchId])) out[r.status] = r.n;
  return out;
}

export async function filePaths(c: Q, batchId: string): Promise<{ id: string; path: string }[]> {
  return all(c, 'SELECT id, path FROM files WHERE batch_id = $1 AND path IS NOT NULL', [batchId]);
}

export async function fileCopies(c: Q, batchId: string): Promise<FileCopy[]> {
  const rows = await all<FileCopy & { bytes: string | number }>(
    c,
    `SELECT cp.file_id AS "fileId", f.item_id AS "itemId", cp.host, cp.path, cp.bytes, cp.sha256
     FROM file_copies cp JOIN files f ON f.batch_id = cp.batch_id AND f.id = cp.file_id
     WHERE cp.batch_id = $1 ORDER BY f.ord, cp.host`,
    [batchId],
  );
  return rows.map((r) => ({ ...r, bytes: Number(r.bytes) }));
}

export async function expiryReport(c: Q, batchId: string, warnBefore: string): Promise<{ bytes: number; soonest: string | null; expiring: FileRecord[] }> {
  const bytes = await scalar<number>(c, "SELECT coalesce(sum(bytes), 0) FROM files WHERE batch_id = $1 AND status = 'downloaded'", [batchId]);
  const soonest = await scalar<string | null>(c, `SELECT min(expires_at) FROM files WHERE batch_id = $1 AND status IN ${NOT_ON_DISK}`, [batchId]);
  const expiring = (await all<FileRow>(c, `SELECT * FROM files WHERE batch_id = $1 AND status IN ${NOT_ON_DISK} AND expires_at <= $2 ORDER BY expires_at, ord`, [batchId, warnBefore])).map(fileFromRow);
  return { bytes, soonest: soonest ?? null, expiring };
}

// ---- models

export async function modelBatch(c: Q, batchId: string): Promise<ModelBatchRecord | null> {
  const r = await one<{ batch_id: string; model_id: string; mode: string | null; description: string }>(c, 'SELECT * FROM model_batches WHERE batch_id = $1', [batchId]);
  return r ? { batchId: r.batch_id, modelId: r.model_id, mode: r.mode as ModelBatchRecord['mode'], description: JSON.parse(r.description) as Record<string, unknown> } : null;
}

export async function modelRun(c: Q, batchId: string, itemId: string): Promise<ModelRunRecord | null> {
  const r = await one<ModelRunRow>(c, 'SELECT * FROM model_runs WHERE batch_id = $1 AND item_id = $2', [batchId, itemId]);
  return r ? modelRunFromRow(r) : null;
}

export async function modelRuns(c: Q, batchId: string, afterSeq: number, limit: number): Promise<{ item: ItemRecord; run: ModelRunRecord }[]> {
  const rows = await all<JoinedRow & { m: ModelRunRow }>(
    c,
    `SELECT ${ITEM_COLS}, row_to_json(m) AS m FROM ${ITEMS_FROM} JOIN model_runs m ON m.batch_id = i.batch_id AND m.item_id = i.id
     WHERE i.batch_id = $1 AND i.seq > $2 ORDER BY i.seq LIMIT $3`,
    [batchId, afterSeq, limit],
  );
  return rows.map((r) => ({ item: itemFromJoined(r), run: modelRunFromRow(r.m) }));
}

export async function modelCredits(c: Q, batchId: string): Promise<CreditTotals> {
  const r = (await one<{ spent: number; unreported: number | null }>(
    c,
    `SELECT coalesce(sum(credits), 0) AS spent,
            sum(CASE WHEN credits IS NULL AND status IS NOT NULL AND status <> 'running' THEN 1 ELSE 0 END) AS unreported
     FROM model_runs WHERE batch_id = $1`,
    [batchId],
  ))!;
  return { spent: Number(r.spent), unreported: Number(r.unreported ?? 0) };
}

// ---- notebook projections

export async function queryItems(c: Q, batchId: string, q: ItemQuery = {}): Promise<ItemRecord[]> {
  const where = ['i.batch_id = $1'];
  const args: unknown[] = [batchId];
  const arg = (v: unknown): string => {
    args.push(v);
    return `$${args.length}`;
  };
  if (q.states) {
    if (q.states.length === 0) return [];
    where.push(statesWhere(arg, q.states));
  }
  for (const [key, want] of Object.entries(q.meta ?? {})) {
    const values: readonly MetaValue[] = Array.isArray(want) ? want : [want as MetaValue];
    const parts = values.map((v) =>
      v === null
        ? `NOT EXISTS (SELECT 1 FROM jsonb_each(i.meta::jsonb) e WHERE e.key = ${arg(key)} AND e.value <> 'null'::jsonb)`
        : `EXISTS (SELECT 1 FROM jsonb_each(i.meta::jsonb) e WHERE e.key = ${arg(key)} AND e.value = ${arg(JSON.stringify(v))}::jsonb)`,
    );
    where.push(parts.length ? `(${parts.join(' OR ')})` : 'false');
  }
  if (q.text) {
    const t = arg(q.text.toLowerCase());
    where.push(`(${['id', 'question', 'text', 'error', 'hold_reason'].map((k) => `position(${t} in lower(coalesce(${col(k)}, ''))) > 0`).join(' OR ')})`);
  }
  const limit = q.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(q.limit))}` : '';
  return (await all<JoinedRow>(c, `SELECT ${ITEM_COLS} FROM ${ITEMS_FROM} WHERE ${where.join(' AND ')} ORDER BY i.seq${limit}`, args)).map(itemFromJoined);
}

const SECONDS = (a: string, b: string): string => `extract(epoch from (${a}::timestamptz - ${b}::timestamptz))`;

export async function itemStats(c: Q, batchId: string): Promise<Map<string, ItemStats>> {
  const rows = await all<ItemStats>(
    c,
    `SELECT i.id AS "itemId", coalesce(r.n, 0) AS runs, coalesce(r.secs, 0)::float8 AS "runSeconds",
            coalesce(d.n, 0) AS decisions, coalesce(d.cost, 0) AS "approvedCost", coalesce(f.n, 0) AS files
     FROM items i
     LEFT JOIN (SELECT item_id, count(*) AS n, sum(CASE WHEN finished_at IS NULL THEN 0 ELSE ${SECONDS('finished_at', 'created_at')} END) AS secs
                FROM runs WHERE batch_id = $1 GROUP BY item_id) r ON r.item_id = i.id
     LEFT JOIN (SELECT item_id, count(*) AS n, sum(cost) AS cost FROM decisions WHERE batch_id = $1 GROUP BY item_id) d ON d.item_id = i.id
     LEFT JOIN (SELECT item_id, count(*) AS n FROM files WHERE batch_id = $1 GROUP BY item_id) f ON f.item_id = i.id
     WHERE i.batch_id = $1`,
    [batchId],
  );
  return new Map(rows.map((r) => [r.itemId, r]));
}

export async function batchTotals(c: Q, batchId: string): Promise<BatchTotals> {
  return (await one<BatchTotals>(
    c,
    `SELECT (SELECT count(*) FROM runs WHERE batch_id = $1) AS runs,
            (SELECT count(*) FROM decisions WHERE batch_id = $1) AS decisions,
            (SELECT coalesce(sum(cost), 0) FROM decisions WHERE batch_id = $1) AS "approvedCost",
            (SELECT coalesce(sum(bytes), 0) FROM files WHERE batch_id = $1 AND status = 'downloaded') AS "fileBytes"`,
    [batchId],
  ))!;
}

export async function itemSeconds(c: Q, batchId: string): Promise<number[]> {
  const rows = await all<{ s: number }>(c, `SELECT ${SECONDS('finished_at', 'started_at')}::float8 AS s FROM items WHERE batch_id = $1 AND started_at IS NOT NULL AND finished_at IS NOT NULL`, [batchId]);
  return rows.map((r) => r.s);
}

export async function runTimes(c: Q, batchId: string): Promise<RunTime[]> {
  return all<RunTime>(
    c,
    `SELECT item_id AS "itemId", id AS "runId", step, status, (required_action::jsonb)->>'tool' AS tool,
            created_at AS "createdAt", finished_at AS "finishedAt"
     FROM runs WHERE batch_id = $1 ORDER BY created_at, step`,
    [batchId],
  );
}

export async function batchDecisions(c: Q, batchId: string): Promise<BatchDecision[]> {
  const rows = await all<Omit<BatchDecision, 'input' | 'answer'> & { input: string; answer: string }>(
    c,
    `SELECT item_id AS "itemId", tool, input, answer, by, person, reason, cost, decided_at AS "decidedAt" FROM decisions WHERE batch_id = $1 ORDER BY id`,
    [batchId],
  );
  return rows.map((r) => ({ ...r, input: JSON.parse(r.input) as Record<string, unknown>, answer: JSON.parse(r.answer) as Record<string, unknown> }));
}
