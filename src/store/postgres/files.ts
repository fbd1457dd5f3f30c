import type { Queryable } from './pool.js';
import { fileFromRow, type FileRow } from '../rows.js';
import type { FileCopy, FileRecord, FileStatus } from '../types.js';
import { all, BATCH_NUM, one, scalar } from './sql.js';
import { dbNow } from './claims.js';
import type { FileClaim } from '../roles/files.js';

type Q = Queryable;

/** Reads of the files runs made and their copies on other hosts, PostgreSQL adapter (one statement each). */

const NOT_ON_DISK = "('pending', 'failed', 'missing')";

/** A files row (alias f) with the batch id it was read by ($1): the table keeps the batch's number (020). */
const FILE_COLS = 'f.*, $1::text AS batch_id';

export async function getFile(c: Q, batchId: string, id: string): Promise<FileRecord | null> {
  const r = await one<FileRow>(c, `SELECT ${FILE_COLS} FROM files f WHERE f.batch_num = ${BATCH_NUM('$1')} AND f.id = $2`, [batchId, id]);
  return r ? fileFromRow(r) : null;
}

export async function filesForBatch(c: Q, batchId: string, statuses?: readonly FileStatus[]): Promise<FileRecord[]> {
  const rows = statuses
    ? await all<FileRow>(c, `SELECT ${FILE_COLS} FROM files f WHERE f.batch_num = ${BATCH_NUM('$1')} AND f.status = ANY($2) ORDER BY f.ord`, [batchId, statuses])
    : await all<FileRow>(c, `SELECT ${FILE_COLS} FROM files f WHERE f.batch_num = ${BATCH_NUM('$1')} ORDER BY f.ord`, [batchId]);
  return rows.map(fileFromRow);
}

export async function filesForItem(c: Q, batchId: string, itemId: string): Promise<FileRecord[]> {
  // index files_of_item
  return (await all<FileRow>(c, `SELECT ${FILE_COLS} FROM files f WHERE f.batch_num = ${BATCH_NUM('$1')} AND f.item_id = $2 ORDER BY f.ord`, [batchId, itemId])).map(fileFromRow);
}

export async function fileCounts(c: Q, batchId: string): Promise<Record<FileStatus, number>> {
  const out: Record<FileStatus, number> = { pending: 0, downloaded: 0, failed: 0, expired: 0, missing: 0 };
  for (const r of await all<{ status: FileStatus; n: number }>(c, `SELECT status, count(*) AS n FROM files WHERE batch_num = ${BATCH_NUM('$1')} GROUP BY status`, [batchId])) out[r.status] = r.n;
  return out;
}

export async function filePaths(c: Q, batchId: string): Promise<{ id: string; path: string }[]> {
  return all(c, `SELECT id, path FROM files WHERE batch_num = ${BATCH_NUM('$1')} AND path IS NOT NULL`, [batchId]);
}

export async function fileCopies(c: Q, batchId: string): Promise<FileCopy[]> {
  const rows = await all<FileCopy & { bytes: string | number }>(
    c,
    `SELECT cp.file_id AS "fileId", f.item_id AS "itemId", cp.host, cp.path, cp.bytes, cp.sha256
     FROM file_copies cp JOIN files f ON f.batch_num = cp.batch_num AND f.id = cp.file_id
     WHERE cp.batch_num = ${BATCH_NUM('$1')} ORDER BY f.ord, cp.host`,
    [batchId],
  );
  return rows.map((r) => ({ ...r, bytes: Number(r.bytes) }));
}

export async function expiryReport(c: Q, batchId: string, warnBefore: string): Promise<{ bytes: number; soonest: string | null; expiring: FileRecord[] }> {
  const bytes = await scalar<number>(c, `SELECT coalesce(sum(bytes), 0) FROM files WHERE batch_num = ${BATCH_NUM('$1')} AND status = 'downloaded'`, [batchId]);
  const soonest = await scalar<string | null>(c, `SELECT min(expires_at) FROM files WHERE batch_num = ${BATCH_NUM('$1')} AND status IN ${NOT_ON_DISK}`, [batchId]);
  const expiring = (await all<FileRow>(c, `SELECT ${FILE_COLS} FROM files f WHERE f.batch_num = ${BATCH_NUM('$1')} AND f.status IN ${NOT_ON_DISK} AND f.expires_at <= $2 ORDER BY f.expires_at, f.ord`, [batchId, warnBefore])).map(fileFromRow);
  return { bytes, soonest: soonest ?? null, expiring };
}


/** Claims a file not yet downloaded that is free or whose claim ran out; the lease from the database's clock ($5 null) in the same statement. */
export async function claimFile(c: Q, batchId: string, id: string, owner: string, leaseMs: number, now: number | null): Promise<FileClaim | null> {
  const r = await one<{ fence: string | number }>(
    c,
    `WITH t AS (SELECT ${dbNow('$5')} AS now)
     UPDATE files SET claim_owner = $3, claim_fence = claim_fence + 1, claim_until = (SELECT now FROM t) + $4::bigint
     WHERE batch_num = ${BATCH_NUM('$1')} AND id = $2 AND status <> 'downloaded' AND (claim_owner IS NULL OR claim_until < (SELECT now FROM t))
     RETURNING claim_fence AS fence`,
    [batchId, id, owner, leaseMs, now],
  );
  return r ? { owner, fence: Number(r.fence) } : null;
}

/** Extends a claim still held (same owner and token), from the database's clock. */
export async function renewFileClaim(c: Q, batchId: string, id: string, cl: FileClaim, leaseMs: number, now: number | null): Promise<boolean> {
  const r = await c.query(
    `UPDATE files SET claim_until = ${dbNow('$5')} + $6::bigint WHERE batch_num = ${BATCH_NUM('$1')} AND id = $2 AND claim_owner = $3 AND claim_fence = $4`,
    [batchId, id, cl.owner, cl.fence, now, leaseMs],
  );
  return (r.rowCount ?? 0) > 0;
}

/** Lets a claim still held go. */
export async function releaseFileClaim(c: Q, batchId: string, id: string, cl: FileClaim): Promise<boolean> {
  const r = await c.query(`UPDATE files SET claim_owner = NULL, claim_until = NULL WHERE batch_num = ${BATCH_NUM('$1')} AND id = $2 AND claim_owner = $3 AND claim_fence = $4`, [batchId, id, cl.owner, cl.fence]);
  return (r.rowCount ?? 0) > 0;
}
