import type { FileClaim, FileClaimRequest, FileHolder } from '../roles/files.js';
import type { SqliteContext } from './database.js';
import { batchNumOf } from './statement-cache.js';

/** The condition of a fenced write of a file row: its claim is still the writer's (owner, token as the next two parameters). */
export const fenced = (): string => 'AND claim_owner = ? AND claim_fence = ?';

interface HolderRow {
  claim_owner: string;
  claim_fence: number;
  claim_host: string | null;
  claim_pid: number | null;
  claim_pid_start: string | null;
}

// The claims on files (see FileStore.claimFile): who fetches a file, under a lease with a fencing token.

/** Claims a file not yet downloaded that is free, whose claim ran out, or held by `req.from` still: one statement. */
export function claimFile(cx: SqliteContext, batchId: string, id: string, h: FileHolder, req: FileClaimRequest, now: number): FileClaim | null {
  const from = req.from ?? { owner: null, fence: null };
  const fence = cx.db
    .prepare(
      `UPDATE files SET claim_owner = ?, claim_fence = claim_fence + 1, claim_until = ?, claim_host = ?, claim_pid = ?, claim_pid_start = ?
       WHERE batch_num = ${batchNumOf()} AND id = ? AND status <> 'downloaded'
         AND (claim_owner IS NULL OR claim_until < ? OR (claim_owner = ? AND claim_fence = ?)) RETURNING claim_fence`,
    )
    .pluck()
    .get(h.owner, now + req.leaseMs, h.host, h.pid, h.pidStart, batchId, id, now, from.owner, from.fence) as number | undefined;
  return fence === undefined ? null : { owner: h.owner, fence };
}

/** Who holds the file's claim now. */
export function fileClaimHolder(cx: SqliteContext, batchId: string, id: string): (FileHolder & { fence: number }) | null {
  const r = cx.db
    .prepare(`SELECT claim_owner, claim_fence, claim_host, claim_pid, claim_pid_start FROM files WHERE batch_num = ${batchNumOf()} AND id = ? AND claim_owner IS NOT NULL`)
    .get(batchId, id) as HolderRow | undefined;
  return r ? { owner: r.claim_owner, fence: r.claim_fence, host: r.claim_host ?? '', pid: r.claim_pid ?? 0, pidStart: r.claim_pid_start } : null;
}

/** Extends a claim still held. */
export function renewFileClaim(cx: SqliteContext, batchId: string, id: string, c: FileClaim, leaseMs: number, now: number): boolean {
  return cx.db.prepare(`UPDATE files SET claim_until = ? WHERE batch_num = ${batchNumOf()} AND id = ? ${fenced()}`).run(now + leaseMs, batchId, id, c.owner, c.fence).changes > 0;
}

/** Lets a claim still held go. */
export function releaseFileClaim(cx: SqliteContext, batchId: string, id: string, c: FileClaim): boolean {
  return cx.db.prepare(`UPDATE files SET claim_owner = NULL, claim_until = NULL WHERE batch_num = ${batchNumOf()} AND id = ? ${fenced()}`).run(batchId, id, c.owner, c.fence).changes > 0;
}
