import type pg from 'pg';
import type { Queryable } from './pool.js';
import type { NewOutboxEvent, OutboxClaim, OutboxOutcome, OutboxState } from '../roles/outbox.js';
import { claimFromRow, factIds, type HeldRow, heldFromRow, type OutboxRow } from '../rows/outbox.js';
import { all, BATCH_NUM, dbNow, one, scalar } from './sql.js';
import { heldEventData, heldPlan, type HeldAnswer, runHeldPlanAsync } from '../common/held-plan.js';

// The outbox of the PostgreSQL adapter (its table and triggers: migrations/017-outbox.ts, as 020
// left them: migrations/020-batch-num-keys.ts). Times are the database's clock unless a test
// gives its own (`now`), as for items' leases.

async function timeOf(c: Queryable, now: number | null): Promise<number> {
  return Number(await scalar<string>(c, `SELECT ${dbNow('$1')}`, [now]));
}

export async function addEvent(c: Queryable, batchId: string, e: NewOutboxEvent, now: number | null): Promise<boolean> {
  const r = await c.query(
    // index outbox_for_key
    `INSERT INTO outbox (batch_num, key, type, status, data, created_at) VALUES (${BATCH_NUM('$1')}, $2, $3, 'pending', $4, ${dbNow('$5')})
     ON CONFLICT (batch_num, key) DO NOTHING`,
    [batchId, e.key, e.type, JSON.stringify(e.data), now],
  );
  return r.rowCount === 1;
}

async function addHeldEvent(c: pg.ClientBase, batchId: string, key: string, facts: number[], reminder: boolean, t: number): Promise<void> {
  await c.query(`INSERT INTO outbox (batch_num, key, type, status, data, created_at) VALUES (${BATCH_NUM('$1')}, $2, 'items.held', 'pending', $3, $4) ON CONFLICT (batch_num, key) DO NOTHING`, [
    batchId, key, heldEventData(facts, reminder), t,
  ]);
  await c.query(`UPDATE outbox SET status = 'folded', due_at = $1 WHERE id = ANY($2::bigint[])`, [t, facts]);
}

/** One collator of a batch at a time (an advisory lock for the transaction): a fact goes in one digest. The plan: common/held-plan.ts. */
export async function collateHeld(c: pg.ClientBase, batchId: string, o: { digestMs: number; remindMs: number | null }, now: number | null): Promise<number> {
  await c.query(`SELECT pg_advisory_xact_lock(hashtext('resq.outbox:' || $1))`, [batchId]);
  const t = await timeOf(c, now);
  return runHeldPlanAsync(heldPlan(o, t), async (s): Promise<HeldAnswer> => {
    switch (s.kind) {
      case 'lastDigest': {
        const last = await scalar<string | null>(c, `SELECT max(created_at) FROM outbox WHERE batch_num = ${BATCH_NUM('$1')} AND type = 'items.held' AND key LIKE 'digest:%'`, [batchId]);
        return last === null ? null : Number(last);
      }
      case 'facts':
        return (await all<{ id: string }>(c, `SELECT id FROM outbox WHERE batch_num = ${BATCH_NUM('$1')} AND type = 'item.held' AND status = 'fact' ORDER BY id`, [batchId])).map((r) => Number(r.id));
      case 'add':
        await addHeldEvent(c, batchId, s.key, s.facts, s.reminder, t);
        return undefined;
      case 'dropAnswered':
        await c.query(
          `UPDATE outbox o SET status = 'done' WHERE o.batch_num = ${BATCH_NUM('$1')} AND o.type = 'item.held' AND o.status = 'folded'
             AND NOT EXISTS (SELECT 1 FROM items i WHERE i.batch_num = o.batch_num AND i.id = o.item_id AND i.state = 'held' AND i.run_id IS NOT DISTINCT FROM o.run_id)`,
          [batchId],
        );
        return undefined;
      case 'due':
        return (await all<{ id: string }>(c, `SELECT id FROM outbox WHERE batch_num = ${BATCH_NUM('$1')} AND type = 'item.held' AND status = 'folded' AND due_at <= $2 ORDER BY id`, [batchId, s.before])).map((r) => Number(r.id));
    }
  });
}

async function heldOf(c: Queryable, data: Record<string, unknown>) {
  const ids = factIds(data);
  if (ids.length === 0) return [];
  const rows = await all<HeldRow>(
    c,
    `SELECT f.item_id, f.run_id, f.reason, f.created_at, r.required_action FROM outbox f LEFT JOIN runs r ON r.id = f.run_id WHERE f.id = ANY($1::bigint[]) ORDER BY f.id`,
    [ids],
  );
  return rows.map(heldFromRow);
}

/** Claims due events FOR UPDATE SKIP LOCKED: two senders never take the same row. */
export async function claim(c: pg.ClientBase, owner: string, o: { leaseMs: number; limit: number; batchIds?: readonly string[] | null }, now: number | null): Promise<OutboxClaim[]> {
  if (o.batchIds?.length === 0) return [];
  const t = await timeOf(c, now);
  const rows = await all<OutboxRow>(
    c,
    // The rows keep the batch's number (020): its id joined back for the claim.
    `UPDATE outbox o SET owner = $1, lease_until = $2::bigint + $3, fence = o.fence + 1, attempts = o.attempts + 1
     FROM batches b
     WHERE b.num = o.batch_num
       AND o.id IN (SELECT id FROM outbox WHERE status = 'pending' AND due_at <= $2 AND (lease_until IS NULL OR lease_until < $2)
                    AND ($5::text[] IS NULL OR batch_num IN (SELECT num FROM batches WHERE id = ANY($5))) ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED)
     RETURNING o.*, b.id AS batch_id`,
    [owner, t, o.leaseMs, o.limit, o.batchIds ?? null],
  );
  const out: OutboxClaim[] = [];
  for (const r of rows.sort((a, b) => Number(a.id) - Number(b.id)))
    out.push(claimFromRow(r, r.type === 'items.held' ? await heldOf(c, JSON.parse(r.data) as Record<string, unknown>) : []));
  return out;
}

export async function settle(c: Queryable, cl: OutboxClaim, out: OutboxOutcome, now: number | null): Promise<boolean> {
  // Narrowed with `in`, not by `sent`: tslab's TypeScript (no strictNullChecks) narrows no boolean discriminant.
  const r = !('retryInMs' in out)
    ? await c.query(`UPDATE outbox SET status = 'sent', sent_at = ${dbNow('$1')}, owner = NULL, lease_until = NULL WHERE id = $2 AND owner = $3 AND fence = $4 AND status = 'pending'`, [
        now, cl.row, cl.owner, cl.fence,
      ])
    : await c.query(
        `UPDATE outbox SET due_at = ${dbNow('$1')} + $2, last_error = $3, last_error_at = ${dbNow('$1')}, delivered = $4, attempts = attempts - $8, owner = NULL, lease_until = NULL
         WHERE id = $5 AND owner = $6 AND fence = $7 AND status = 'pending'`,
        [now, out.retryInMs, out.error, JSON.stringify(out.delivered), cl.row, cl.owner, cl.fence, out.deferred ? 1 : 0],
      );
  return r.rowCount === 1;
}

export async function state(c: Queryable, batchId: string): Promise<OutboxState> {
  const [n, err, changed] = await Promise.all([
    scalar<string>(c, `SELECT count(*) FROM outbox WHERE batch_num = ${BATCH_NUM('$1')} AND status = 'pending'`, [batchId]),
    one<{ last_error: string; last_error_at: string }>(
      c,
      `SELECT last_error, last_error_at FROM outbox WHERE batch_num = ${BATCH_NUM('$1')} AND status = 'pending' AND last_error IS NOT NULL ORDER BY last_error_at DESC LIMIT 1`,
      [batchId],
    ),
    // The latest change: an item's row (claimed, held, ended) or a step of its flight (flights, 019_lean_items).
    scalar<string | null>(
      c,
      `SELECT max(at) FROM (SELECT max(updated_at) AS at FROM items WHERE batch_num = ${BATCH_NUM('$1')} AND state <> 'queued'
         UNION ALL SELECT max(updated_at) FROM flights WHERE batch_num = ${BATCH_NUM('$1')}) t`,
      [batchId],
    ),
  ]);
  return { undelivered: Number(n), lastError: err?.last_error ?? null, lastErrorAt: err ? Number(err.last_error_at) : null, lastChangeAt: changed };
}
