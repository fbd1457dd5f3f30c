import type { Queryable } from './pool.js';
import { fileFromRow, type FileRow } from '../rows/records.js';
import type pg from 'pg';
import type { DownloadedFile, FileCopy, FileRecord, FileRefInput, FileStatus } from '../types.js';
import { fileExpiry } from '../common/file-expiry.js';
import { all, BATCH_NUM, one, prepared, scalar } from './sql.js';
import type { FileClaim } from '../roles/files.js';
import { fenced } from './file-claims.js';

type Q = Queryable;

/** The files runs made and their copies on other hosts, PostgreSQL adapter (one statement each). */

const NOT_ON_DISK = "('pending', 'failed', 'missing')";

/** A files row (alias f) with the batch id it was read by ($1): the table keeps the batch's number (020). */
const FILE_COLS = 'f.*, $1::text AS batch_id';

/** Records a file reference the first time it is seen (the batch numbered `num`); expiry from the run's creation, else first sight. */
export async function recordFile(c: pg.ClientBase, num: number, itemId: string, runId: string, ref: FileRefInput, seenAt: Date, runCreatedAt: Date | null): Promise<void> {
  // Sent prepared (sql.ts `hot`): every finished run records its files.
  await prepared.exec(c,
    `INSERT INTO files (batch_num, id, item_id, run_id, tool, role, name, url, first_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (batch_num, id) DO NOTHING`,
    [num, ref.id, itemId, runId, ref.tool ?? null, ref.role ?? null, ref.name ?? null, ref.url, seenAt.toISOString(), fileExpiry(seenAt, runCreatedAt).toISOString()],
  );
}

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


/** Marks a file downloaded, its claim let go; with `claim`, only while still held (see FileStore.markFileDownloaded). */
export async function markFileDownloaded(c: Q, batchId: string, fileId: string, v: DownloadedFile, claim?: FileClaim): Promise<boolean> {
  const r = await c.query(
    `UPDATE files SET status = 'downloaded', path = $1, bytes = $2, sha256 = $3, media_type = $4, host = $5, error = NULL, disk_dev = $8, disk_ino = $9, claim_owner = NULL, claim_until = NULL
     WHERE batch_num = ${BATCH_NUM('$6')} AND id = $7 ${claim ? fenced(10) : ''}`,
    [v.path, v.bytes, v.sha256, v.mediaType, v.host, batchId, fileId, v.dev ?? null, v.ino ?? null, ...(claim ? [claim.owner, claim.fence] : [])],
  );
  return (r.rowCount ?? 0) > 0;
}

/** Sets a file's status and reason; with `claim`, only while still held. */
export async function markFileStatus(c: Q, batchId: string, fileId: string, status: Exclude<FileStatus, 'downloaded'>, error: string | null, claim?: FileClaim): Promise<boolean> {
  const r = await c.query(
    `UPDATE files SET status = $1, error = $2 WHERE batch_num = ${BATCH_NUM('$3')} AND id = $4 ${claim ? fenced(5) : ''}`,
    [status, error, batchId, fileId, ...(claim ? [claim.owner, claim.fence] : [])],
  );
  return (r.rowCount ?? 0) > 0;
}

/** Records (or replaces) `host`'s copy of a file; `keep`: only where `host` holds none yet (see FileStore.recordFileCopy). */
export async function recordFileCopy(c: Q, batchId: string, fileId: string, cp: { host: string; path: string; bytes: number; sha256: string }, at: string, keep?: 'keep'): Promise<boolean> {
  const insert = `INSERT INTO file_copies (batch_num, file_id, host, path, bytes, sha256, copied_at) SELECT ${BATCH_NUM('$1')}, $2, $3, $4, $5, $6, $7`;
  const r = await c.query(
    keep
      ? `${insert} WHERE NOT EXISTS (SELECT 1 FROM files WHERE batch_num = ${BATCH_NUM('$1')} AND id = $2 AND status = 'downloaded' AND host = $3) ON CONFLICT DO NOTHING`
      : `${insert} ON CONFLICT (batch_num, file_id, host) DO UPDATE SET path = excluded.path, bytes = excluded.bytes, sha256 = excluded.sha256, copied_at = excluded.copied_at`,
    [batchId, fileId, cp.host, cp.path, cp.bytes, cp.sha256, at],
  );
  return (r.rowCount ?? 0) > 0;
}
