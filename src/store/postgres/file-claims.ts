import type { Queryable } from './pool.js';
import type { FileClaim, FileClaimRequest, FileHolder } from '../roles/files.js';
import { BATCH_NUM, dbNow, one } from './sql.js';

type Q = Queryable;

/** The condition of a fenced write of a file row: its claim is still the writer's (owner and token as parameters $n, $n+1). */
export const fenced = (n: number): string => `AND claim_owner = $${n} AND claim_fence = $${n + 1}`;

/**
 * Claims a file not yet downloaded that is free, whose claim ran out, or held by `req.from`
 * still (see FileStore.claimFile); the lease from the database's clock ($5 null) in the same statement.
 */
export async function claimFile(c: Q, batchId: string, id: string, h: FileHolder, req: FileClaimRequest, now: number | null): Promise<FileClaim | null> {
  const r = await one<{ fence: string | number }>(
    c,
    `WITH t AS (SELECT ${dbNow('$5')} AS now)
     UPDATE files SET claim_owner = $3, claim_fence = claim_fence + 1, claim_until = (SELECT now FROM t) + $4::bigint,
       claim_host = $6, claim_pid = $7, claim_pid_start = $8
     WHERE batch_num = ${BATCH_NUM('$1')} AND id = $2 AND status <> 'downloaded'
       AND (claim_owner IS NULL OR claim_until < (SELECT now FROM t) OR (claim_owner = $9 AND claim_fence = $10))
     RETURNING claim_fence AS fence`,
    [batchId, id, h.owner, req.leaseMs, now, h.host, h.pid, h.pidStart, req.from?.owner ?? null, req.from?.fence ?? null],
  );
  return r ? { owner: h.owner, fence: Number(r.fence) } : null;
}

/** Who holds the file's claim now. */
export async function fileClaimHolder(c: Q, batchId: string, id: string): Promise<(FileHolder & { fence: number }) | null> {
  const r = await one<{ claim_owner: string; claim_fence: string | number; claim_host: string | null; claim_pid: number | null; claim_pid_start: string | null }>(
    c,
    `SELECT claim_owner, claim_fence, claim_host, claim_pid, claim_pid_start FROM files WHERE batch_num = ${BATCH_NUM('$1')} AND id = $2 AND claim_owner IS NOT NULL`,
    [batchId, id],
  );
  return r ? { owner: r.claim_owner, fence: Number(r.claim_fence), host: r.claim_host ?? '', pid: r.claim_pid ?? 0, pidStart: r.claim_pid_start } : null;
}

/** Extends a claim still held (same owner and token), from the database's clock. */
export async function renewFileClaim(c: Q, batchId: string, id: string, cl: FileClaim, leaseMs: number, now: number | null): Promise<boolean> {
  const r = await c.query(`UPDATE files SET claim_until = ${dbNow('$5')} + $6::bigint WHERE batch_num = ${BATCH_NUM('$1')} AND id = $2 ${fenced(3)}`, [batchId, id, cl.owner, cl.fence, now, leaseMs]);
  return (r.rowCount ?? 0) > 0;
}

/** Lets a claim still held go. */
export async function releaseFileClaim(c: Q, batchId: string, id: string, cl: FileClaim): Promise<boolean> {
  const r = await c.query(`UPDATE files SET claim_owner = NULL, claim_until = NULL WHERE batch_num = ${BATCH_NUM('$1')} AND id = $2 ${fenced(3)}`, [batchId, id, cl.owner, cl.fence]);
  return (r.rowCount ?? 0) > 0;
}
