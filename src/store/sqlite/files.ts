import { isoNow } from '../../clock.js';
import { fileExpiry } from '../common/file-expiry.js';
import { type FileRow, fileFromRow } from '../rows/records.js';
import type { SqliteContext } from './database.js';
import { batchNumOf } from './statement-cache.js';
import type { FileClaim } from '../roles/files.js';
import { fenced } from './file-claims.js';
import type { DownloadedFile, FileCopy, FileRecord, FileRefInput, FileStatus } from '../types.js';

// The files table: every file reference seen in any run's tool results, and their copies on other hosts.

const NOT_ON_DISK = "('pending', 'failed', 'missing')";

/**
 * Records a reference the first time it is seen; later sightings change nothing.
 * Expiry: the run's creation time + 30 days when known, else first seen + 30 days.
 */
export function recordFile(cx: SqliteContext, batchId: string, itemId: string, runId: string, ref: FileRefInput, seenAt: Date, runCreatedAt: Date | null): void {
  cx.db
    .prepare(
      `INSERT INTO files (batch_num, id, item_id, run_id, tool, role, name, url, first_seen_at, expires_at)
       VALUES (${batchNumOf()}, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(batch_num, id) DO NOTHING`,
    )
    .run(
      batchId,
      ref.id,
      itemId,
      runId,
      ref.tool ?? null,
      ref.role ?? null,
      ref.name ?? null,
      ref.url,
      seenAt.toISOString(),
      fileExpiry(seenAt, runCreatedAt).toISOString(),
    );
}

/** An item's files in the order first seen. */
export function filesForItem(cx: SqliteContext, batchId: string, itemId: string): FileRecord[] {
  return (
    cx.db.prepare(`SELECT ? AS batch_id, * FROM files WHERE batch_num = ${batchNumOf()} AND item_id = ? ORDER BY rowid`).all(batchId, batchId, itemId) as FileRow[]
  ).map(fileFromRow);
}

/** A batch's files, optionally only some states. */
export function filesForBatch(cx: SqliteContext, batchId: string, statuses?: readonly FileStatus[]): FileRecord[] {
  const rows = statuses
    ? cx.db
        .prepare(
          `SELECT ? AS batch_id, * FROM files WHERE batch_num = ${batchNumOf()} AND status IN (${statuses.map(() => '?').join(',')}) ORDER BY rowid`,
        )
        .all(batchId, batchId, ...statuses)
    : cx.db.prepare(`SELECT ? AS batch_id, * FROM files WHERE batch_num = ${batchNumOf()} ORDER BY rowid`).all(batchId, batchId);
  return (rows as FileRow[]).map(fileFromRow);
}

/** File counts by status. */
export function fileCounts(cx: SqliteContext, batchId: string): Record<FileStatus, number> {
  const out: Record<FileStatus, number> = { pending: 0, downloaded: 0, failed: 0, expired: 0, missing: 0 };
  for (const r of cx.db
    .prepare(`SELECT status, count(*) AS n FROM files WHERE batch_num = ${batchNumOf()} GROUP BY status`)
    .all(batchId) as { status: FileStatus; n: number }[])
    out[r.status] = r.n;
  return out;
}

/** One file, or null. */
export function getFile(cx: SqliteContext, batchId: string, id: string): FileRecord | null {
  const row = cx.db.prepare(`SELECT ? AS batch_id, * FROM files WHERE batch_num = ${batchNumOf()} AND id = ?`).get(batchId, batchId, id) as FileRow | undefined;
  return row ? fileFromRow(row) : null;
}

/** Paths recorded for a batch's files (any status), to keep new names from colliding. */
export function filePaths(cx: SqliteContext, batchId: string): { id: string; path: string }[] {
  return cx.db
    .prepare(`SELECT id, path FROM files WHERE batch_num = ${batchNumOf()} AND path IS NOT NULL`)
    .all(batchId) as { id: string; path: string }[];
}

/**
 * Totals for `files status`: bytes of downloaded files, and the soonest expiry and the
 * files expiring before `warnBefore` among those not on disk (pending, failed, missing).
 */
export function expiryReport(cx: SqliteContext, batchId: string, warnBefore: string): { bytes: number; soonest: string | null; expiring: FileRecord[] } {
  const bytes = cx.db
    .prepare(`SELECT coalesce(sum(bytes), 0) FROM files WHERE batch_num = ${batchNumOf()} AND status = 'downloaded'`)
    .pluck()
    .get(batchId) as number;
  const soonest = cx.db
    .prepare(`SELECT min(expires_at) FROM files WHERE batch_num = ${batchNumOf()} AND status IN ${NOT_ON_DISK}`)
    .pluck()
    .get(batchId) as string | null;
  const expiring = (
    cx.db
      .prepare(`SELECT ? AS batch_id, * FROM files WHERE batch_num = ${batchNumOf()} AND status IN ${NOT_ON_DISK} AND expires_at <= ? ORDER BY expires_at, rowid`)
      .all(batchId, batchId, warnBefore) as FileRow[]
  ).map(fileFromRow);
  return { bytes, soonest, expiring };
}

/** Marks a file downloaded with where it is, what it is and its identity on disk, its claim let go (one statement: atomic); with `claim`, only while still held. */
export function markFileDownloaded(cx: SqliteContext, batchId: string, id: string, v: Omit<DownloadedFile, 'host'> & { host: string | null }, claim?: FileClaim): boolean {
  return cx.db
    .prepare(
      `UPDATE files SET status = 'downloaded', path = ?, bytes = ?, sha256 = ?, media_type = ?, host = ?, error = NULL, disk_dev = ?, disk_ino = ?, claim_owner = NULL, claim_until = NULL
       WHERE batch_num = ${batchNumOf()} AND id = ? ${claim ? fenced() : ''}`,
    )
    .run(v.path, v.bytes, v.sha256, v.mediaType, v.host, v.dev ?? null, v.ino ?? null, batchId, id, ...(claim ? [claim.owner, claim.fence] : [])).changes > 0;
}

/** Records (or replaces) `host`'s copy of a file; `keep`: only where `host` holds none yet (see FileStore.recordFileCopy). */
export function recordFileCopy(cx: SqliteContext, batchId: string, fileId: string, c: { host: string; path: string; bytes: number; sha256: string }, keep?: 'keep'): boolean {
  const values = `SELECT ${batchNumOf()}, ?, ?, ?, ?, ?, ?`;
  const sql = keep
    ? `INSERT INTO file_copies (batch_num, file_id, host, path, bytes, sha256, copied_at) ${values}
       WHERE NOT EXISTS (SELECT 1 FROM files WHERE batch_num = ${batchNumOf()} AND id = ? AND status = 'downloaded' AND host = ?) ON CONFLICT DO NOTHING`
    : `INSERT INTO file_copies (batch_num, file_id, host, path, bytes, sha256, copied_at) ${values}
       ON CONFLICT (batch_num, file_id, host) DO UPDATE SET path = excluded.path, bytes = excluded.bytes, sha256 = excluded.sha256, copied_at = excluded.copied_at`;
  const row = [batchId, fileId, c.host, c.path, c.bytes, c.sha256, isoNow(cx.clock)];
  return cx.db.prepare(sql).run(...row, ...(keep ? [batchId, fileId, c.host] : [])).changes > 0;
}

/** The copies of a batch's files on other hosts, in file order. */
export function fileCopies(cx: SqliteContext, batchId: string): FileCopy[] {
  return cx.db
    .prepare(
      `SELECT c.file_id AS fileId, f.item_id AS itemId, c.host, c.path, c.bytes, c.sha256
       FROM file_copies c JOIN files f ON f.batch_num = c.batch_num AND f.id = c.file_id
       WHERE c.batch_num = ${batchNumOf()} ORDER BY f.rowid, c.host`,
    )
    .all(batchId) as FileCopy[];
}

/** Marks a file pending (again), failed, expired or missing, with the reason; with `claim`, only while still held. */
export function markFileStatus(cx: SqliteContext, batchId: string, id: string, status: Exclude<FileStatus, 'downloaded'>, error: string | null, claim?: FileClaim): boolean {
  return cx.db
    .prepare(`UPDATE files SET status = ?, error = ? WHERE batch_num = ${batchNumOf()} AND id = ? ${claim ? fenced() : ''}`)
    .run(status, error, batchId, id, ...(claim ? [claim.owner, claim.fence] : [])).changes > 0;
}
