import type { SqliteContext } from './database.js';
import type { NewOutboxEvent, OutboxClaim, OutboxOutcome, OutboxState } from '../roles/outbox.js';
import { claimFromRow, factIds, type HeldRow, heldFromRow, type OutboxRow } from '../rows/outbox.js';
import { batchNumOf, marks } from './statement-cache.js';
import { heldEventData, heldPlan, type HeldAnswer, runHeldPlan } from '../common/held-plan.js';

// The outbox of the SQLite adapter (its table and triggers: migrations/017-outbox.ts, as 020
// left them: migrations/020-outbox.ts). Every function runs inside the store's write
// transaction, or as one read.

// Statements of fixed text are the connection's prepared ones (cx.stmt); a `?` list of varying
// length is prepared per call: its texts are unbounded.

export function addEvent(cx: SqliteContext, batchId: string, e: NewOutboxEvent, now: number): boolean {
  const r = cx.stmt
    .get(`INSERT OR IGNORE INTO outbox (batch_num, key, type, status, data, created_at) VALUES (${batchNumOf()}, ?, ?, 'pending', ?, ?)`)
    .run(batchId, e.key, e.type, JSON.stringify(e.data), now);
  return r.changes === 1;
}

function addHeldEvent(cx: SqliteContext, batchId: string, key: string, facts: number[], reminder: boolean, now: number): void {
  cx.stmt.get(`INSERT OR IGNORE INTO outbox (batch_num, key, type, status, data, created_at) VALUES (${batchNumOf()}, ?, 'items.held', 'pending', ?, ?)`)
    .run(batchId, key, heldEventData(facts, reminder), now);
  cx.db.prepare(`UPDATE outbox SET status = 'folded', due_at = ? WHERE id IN (${marks(facts.length)})`).run(now, ...facts);
}

/** The digest and reminder plan (common/held-plan.ts), each step one statement. */
export function collateHeld(cx: SqliteContext, batchId: string, o: { digestMs: number; remindMs: number | null }, now: number): number {
  return runHeldPlan(heldPlan(o, now), (s): HeldAnswer => {
    switch (s.kind) {
      case 'lastDigest':
        return cx.stmt.get(`SELECT max(created_at) FROM outbox WHERE batch_num = ${batchNumOf()} AND type = 'items.held' AND key LIKE 'digest:%'`).pluck().get(batchId) as number | null;
      case 'facts':
        return cx.stmt.get(`SELECT id FROM outbox WHERE batch_num = ${batchNumOf()} AND type = 'item.held' AND status = 'fact' ORDER BY id`).pluck().all(batchId) as number[];
      case 'add':
        addHeldEvent(cx, batchId, s.key, s.facts, s.reminder, now);
        return undefined;
      case 'dropAnswered':
        cx.stmt.get(
          `UPDATE outbox SET status = 'done' WHERE batch_num = ${batchNumOf()} AND type = 'item.held' AND status = 'folded'
             AND NOT EXISTS (SELECT 1 FROM items i WHERE i.batch_num = outbox.batch_num AND i.id = outbox.item_id AND i.state = 'held' AND i.run_id IS outbox.run_id)`,
        ).run(batchId);
        return undefined;
      case 'due':
        return cx.stmt
          .get(`SELECT id FROM outbox WHERE batch_num = ${batchNumOf()} AND type = 'item.held' AND status = 'folded' AND due_at <= ? ORDER BY id`)
          .pluck()
          .all(batchId, s.before) as number[];
    }
  });
}

function heldOf(cx: SqliteContext, data: Record<string, unknown>) {
  const ids = factIds(data);
  if (ids.length === 0) return [];
  const rows = cx.db
    .prepare(`SELECT f.item_id, f.run_id, f.reason, f.created_at, r.required_action FROM outbox f LEFT JOIN runs r ON r.id = f.run_id WHERE f.id IN (${marks(ids.length)}) ORDER BY f.id`)
    .all(...ids) as HeldRow[];
  return rows.map(heldFromRow);
}

export function claim(cx: SqliteContext, owner: string, o: { leaseMs: number; limit: number; batchIds?: readonly string[] | null }, now: number): OutboxClaim[] {
  const only = o.batchIds ? `AND batch_num IN (SELECT num FROM batches WHERE id IN (${marks(o.batchIds.length)}))` : '';
  if (o.batchIds?.length === 0) return [];
  const rows = cx.db
    .prepare(
      `UPDATE outbox SET owner = ?, lease_until = ?, fence = fence + 1, attempts = attempts + 1
       WHERE id IN (SELECT id FROM outbox WHERE status = 'pending' AND due_at <= ? AND (lease_until IS NULL OR lease_until < ?) ${only} ORDER BY id LIMIT ?)
       RETURNING *, (SELECT id FROM batches WHERE num = batch_num) AS batch_id`,
    )
    .all(owner, now + o.leaseMs, now, now, ...(o.batchIds ?? []), o.limit) as OutboxRow[];
  return rows.sort((a, b) => Number(a.id) - Number(b.id)).map((r) => claimFromRow(r, r.type === 'items.held' ? heldOf(cx, JSON.parse(r.data) as Record<string, unknown>) : []));
}

export function settle(cx: SqliteContext, c: OutboxClaim, out: OutboxOutcome, now: number): boolean {
  // Narrowed with `in`, not by `sent`: tslab's TypeScript (no strictNullChecks) narrows no boolean discriminant.
  const r = !('retryInMs' in out)
    ? cx.stmt.get(`UPDATE outbox SET status = 'sent', sent_at = ?, owner = NULL, lease_until = NULL WHERE id = ? AND owner = ? AND fence = ? AND status = 'pending'`).run(now, c.row, c.owner, c.fence)
    : cx.stmt
        .get(
          `UPDATE outbox SET due_at = ?, last_error = ?, last_error_at = ?, delivered = ?, attempts = attempts - ?, owner = NULL, lease_until = NULL
           WHERE id = ? AND owner = ? AND fence = ? AND status = 'pending'`,
        )
        .run(now + out.retryInMs, out.error, now, JSON.stringify(out.delivered), out.deferred ? 1 : 0, c.row, c.owner, c.fence);
  return r.changes === 1;
}

export function state(cx: SqliteContext, batchId: string): OutboxState {
  const undelivered = cx.stmt.get(`SELECT count(*) FROM outbox WHERE batch_num = ${batchNumOf()} AND status = 'pending'`).pluck().get(batchId) as number;
  const err = cx.stmt
    .get(`SELECT last_error, last_error_at FROM outbox WHERE batch_num = ${batchNumOf()} AND status = 'pending' AND last_error IS NOT NULL ORDER BY last_error_at DESC LIMIT 1`)
    .get(batchId) as { last_error: string; last_error_at: number } | undefined;
  // The latest change: an item's row (claimed, held, ended) or a step of its flight (flights, 019_lean_items).
  const changed = cx.stmt
    .get(
      `SELECT max(at) FROM (SELECT max(updated_at) AS at FROM items INDEXED BY items_for_web_sort WHERE batch_num = ${batchNumOf()} AND state <> 'queued'
         UNION ALL SELECT max(updated_at) FROM flights WHERE batch_num = ${batchNumOf()})`,
    )
    .pluck()
    .get(batchId, batchId) as string | null;
  return { undelivered, lastError: err?.last_error ?? null, lastErrorAt: err ? Number(err.last_error_at) : null, lastChangeAt: changed };
}
