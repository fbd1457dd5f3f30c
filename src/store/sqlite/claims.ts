import { isoNow } from '../../clock.js';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Claim, ClaimRequest, Lease } from '../port.js';
import { type ItemState, TERMINAL_STATES, sqlStates } from '../item-states.js';
import type { ItemRecord, WorkerRecord, WorkerStart } from '../types.js';
import { batchNum, itemKey, noteEnded, type SqliteContext } from './database.js';
import { batchNumOf, ITEM_KEY, marks } from './statement-cache.js';
import { runsInFlight } from './counts.js';
import { startFlight } from './flights.js';
import { itemFromRow, type ItemRow, workerFromRow, type WorkerRow } from '../rows/records.js';
import { itemColumns, queuedRow, runGoing, UNFINISHED_ROWS } from '../common/flights.js';
import { ClaimBudget, effectiveCap, inSeqOrder, ownedPlan, pickOrphans, queuedPageSize, submitPlan, takeOverStates } from '../common/claim-plan.js';

/**
 * The flights of a worker (`@w`: its id), read from the flights table itself (at most the
 * runs in flight; it has no index a lease's renewal would move).
 */
const OWNED_BY = `owner = @w`;

/**
 * Items in a state with work at the service whose lease is gone (owner dead, stopped, or
 * none), and which the claiming worker does not hold itself: a worker whose own leases ran
 * out in a stall is still driving those items, and a second driver of its own would record
 * a second decision for one pause. Read from the flights (the table itself, at most the runs in flight), each
 * joined to its item by key.
 */
const orphaned = (states: readonly ItemState[]): string => `SELECT ? AS batch_id, f.item_key, ${itemColumns()}
  FROM flights f JOIN items i ON i.key = f.item_key
  WHERE f.batch_num = ? AND f.state IN ${sqlStates(states)}
    AND (f.owner IS NULL OR (f.lease_until < ? AND f.owner <> ?))
  LIMIT ?`;

/** Registers a worker on the batch. */
export function register(cx: SqliteContext, batchId: string, w: WorkerStart, now: number): WorkerRecord {
  const id = `${w.host || hostname()}:${w.pid}:${randomUUID().slice(0, 8)}`;
  const startedAt = new Date(now).toISOString();
  const pidStart = w.pidStart ?? null;
  cx.stmt.get(`INSERT INTO workers (id, batch_num, host, pid, pid_start, started_at, heartbeat_at) VALUES (?, ${batchNumOf()}, ?, ?, ?, ?, ?)`)
    .run(id, batchId, w.host, w.pid, pidStart, startedAt, now);
  return { id, batchId, host: w.host, pid: w.pid, pidStart, startedAt, heartbeatAt: now, items: 0 };
}

/** A worker's heartbeat: its leases extended; says whether the batch was cancelled and its cap. */
export function heartbeat(cx: SqliteContext, lease: Lease, now: number): { cancelled: boolean; capLimit: number | null } {
  cx.stmt.get('UPDATE workers SET heartbeat_at = ? WHERE id = ?').run(now, lease.workerId);
  cx.stmt.get(`UPDATE flights SET lease_until = @t WHERE ${OWNED_BY}`).run({ w: lease.workerId, t: now + lease.leaseMs });
  const b = cx.stmt.get('SELECT b.cancelled_at, b.cap_limit FROM workers w JOIN batches b ON b.num = w.batch_num WHERE w.id = ?')
    .get(lease.workerId) as { cancelled_at: string | null; cap_limit: number | null } | undefined;
  return { cancelled: (b?.cancelled_at ?? null) !== null, capLimit: b?.cap_limit ?? null };
}

/** Sets the batch's adaptive cap (null: none). */
export function setCapLimit(cx: SqliteContext, batchId: string, capLimit: number | null): void {
  cx.stmt.get('UPDATE batches SET cap_limit = ? WHERE id = ?').run(capLimit, batchId);
}

/** A worker stops: what it held is free to take. */
export function retire(cx: SqliteContext, workerId: string, now: number): void {
  // lease_until 0: held before (an answered item's respond may be out), free to take now.
  cx.stmt.get(`UPDATE flights SET owner = NULL, lease_until = 0 WHERE ${OWNED_BY}`).run({ w: workerId });
  cx.stmt.get('UPDATE workers SET stopped_at = ?, heartbeat_at = ? WHERE id = ?').run(new Date(now).toISOString(), now, workerId);
}

/** The batch's workers seen within `staleMs`, each with how many items it holds. */
export function live(cx: SqliteContext, batchId: string, staleMs: number, now: number): WorkerRecord[] {
  const rows = cx.stmt.get(
      `SELECT w.*, @b AS batch_id, (SELECT count(*) FROM flights f
           WHERE f.batch_num = w.batch_num AND f.owner = w.id) AS n FROM workers w
       WHERE w.batch_num = ${batchNumOf('@b')} AND w.stopped_at IS NULL AND w.heartbeat_at >= @since ORDER BY w.started_at`,
    )
    .all({ b: batchId, since: now - staleMs }) as WorkerRow[];
  return rows.map(workerFromRow);
}

/** How many of these items the store still counts in flight. */
function stillActive(cx: SqliteContext, batchId: string, ids: readonly string[]): number {
  if (ids.length === 0) return 0;
  // One primary-key lookup per id, by its kept key, or (a flight landed since, its key let go)
  // by the key looked up in the same statement: an IN over json_each walked the batch's active items.
  const byKey = cx.stmt.get(`SELECT 1 FROM flights WHERE item_key = ? AND ${runGoing()}`).pluck();
  const byIds = cx.stmt.get(`SELECT 1 FROM flights WHERE item_key = ${ITEM_KEY} AND ${runGoing()}`).pluck();
  let n = 0;
  for (const id of ids) {
    const key = cx.keys.get(batchId, id);
    if ((key === undefined ? byIds.get(batchId, id) : byKey.get(key)) !== undefined) n++;
  }
  return n;
}

/** Runs in flight over every worker (counts.ts runsInFlight). */
export function inFlight(cx: SqliteContext, batchId: string): number {
  return runsInFlight(cx, batchId);
}

function capLimitOf(cx: SqliteContext, batchId: string): number | null {
  return (cx.stmt.get('SELECT cap_limit FROM batches WHERE id = ?').pluck().get(batchId) as number | null | undefined) ?? null;
}

function cancelled(cx: SqliteContext, batchId: string): boolean {
  return cx.stmt.get('SELECT cancelled_at IS NOT NULL FROM batches WHERE id = ?').pluck().get(batchId) === 1;
}

/**
 * Takes items over under the worker's lease, each with its next fencing token, in one
 * statement: their flights alone are written (a resume takes ten thousand at once). `keys`:
 * the items' keys as their rows gave them (not the kept ones: the keep lets all go when full).
 */
function ownAll(cx: SqliteContext, items: readonly ItemRecord[], keys: readonly number[], lease: Lease, now: number): ItemRecord[] {
  if (items.length === 0) return [];
  const at = isoNow(cx.clock);
  const info = cx.stmt.get(`UPDATE flights SET owner = ?, lease_until = ?, fence = fence + 1, updated_at = ? WHERE item_key IN (SELECT value FROM json_each(?))`)
    .run(lease.workerId, now + lease.leaseMs, at, JSON.stringify(keys));
  // Every flight named was read in this transaction; one not written would be an item said taken and not held.
  if (info.changes !== items.length) throw new Error(`takeover wrote ${info.changes} of ${items.length} flights`);
  return items.map((it) => ({ ...it, ...ownedPlan(it, lease, now), updatedAt: at }));
}

/** The service thread id opened for a thread key, or null before its first run. */
function threadOf(cx: SqliteContext, batchId: string, threadKey: string): string | null {
  const r = cx.stmt.get(`SELECT thread_id FROM threads WHERE batch_num = ${batchNumOf()} AND thread_key = ?`)
    .get(batchId, threadKey) as { thread_id: string } | undefined;
  return r?.thread_id ?? null;
}

/** Moves a queued item to `submitting` under the worker's lease, its key stored: its flight starts. */
function submit(cx: SqliteContext, it: ItemRecord, lease: Lease, now: number): ItemRecord {
  const threadId = it.threadKey ? threadOf(cx, it.batchId, it.threadKey) : null;
  const plan = submitPlan(it, lease, now, threadId);
  return startFlight(cx, { ...it, state: 'submitting', ...plan });
}

/** A worker's claim: orphans taken over, then queued items in file order, up to the cap. */
export function claim(cx: SqliteContext, batchId: string, req: ClaimRequest, now: number): Claim {
  const counted = inFlight(cx, batchId) - stillActive(cx, batchId, req.ended ?? []);
  // The batch's adaptive cap (lowered after HTTP 429) binds every worker.
  const budget = new ClaimBudget(req, effectiveCap(req.cap, capLimitOf(cx, batchId)), counted);
  if (cancelled(cx, batchId)) return { items: [], cursor: req.afterSeq, fresh: 0, inFlight: counted, cancelled: true };
  const out: ItemRecord[] = [];
  const states = takeOverStates(req);
  // Orphans are few and looked for on the worker's regular tick, not on every freed slot.
  const orphans = states.length
    ? pickOrphans(cx.stmt.get(orphaned(states)).all(batchId, batchNum(cx, batchId), now, req.workerId, req.max + (req.skip?.length ?? 0)) as ItemRow[], req.skip, req.max)
    : [];
  const taken: ItemRecord[] = [];
  const keys: number[] = [];
  for (const row of orphans) {
    const it = itemFromRow(row);
    if (!budget.takeOrphan(it)) continue;
    const key = (row as ItemRow & { item_key: number }).item_key;
    cx.keys.keep(batchId, it.id, key);
    taken.push(it);
    keys.push(key);
  }
  for (const it of ownAll(cx, taken, keys, req, now)) out.push(it);
  let cursor = req.afterSeq;
  // The LIMIT is written into the statement (one per size, at most QUEUED_PAGE of them): a
  // bound LIMIT makes SQLite prepare the statement again at every call (its value may
  // change the plan), most of a claim's cost. The walk of items_for_claim gives the rows in seq
  // order; that order is checked below rather than asked for with an ORDER BY.
  const num = batchNum(cx, batchId);
  const page = (limit: number): ItemRow[] =>
    inSeqOrder(cx.stmt.get(`SELECT ? AS batch_id, * FROM items INDEXED BY items_for_claim WHERE batch_num = ? AND seq > ? AND ${queuedRow('items')} LIMIT ${limit}`).all(batchId, num, cursor) as ItemRow[]);
  // Rows passed over so far (later items of a thread): each page reads as many more.
  let passed = 0;
  scan: while (budget.roomForQueued) {
    // The rows this claim can take, and as many more as it passed over: a claim for a few
    // freed slots reads a few rows, not a whole page (each row read has its cost).
    const rows = page(queuedPageSize(budget.wantQueued, passed));
    if (rows.length === 0) break;
    for (const row of rows) {
      if (!budget.roomForQueued) break scan;
      cursor = row.seq;
      const it = itemFromRow(row);
      // Later items of a thread are reached through the thread once the earlier ones end.
      if (it.threadKey && hasUnfinishedBefore(cx, batchId, it.threadKey, it.seq)) {
        passed++;
        continue;
      }
      // Its key, read with its row, is what its flight's statements seek by (database.ts itemKey).
      cx.keys.keep(batchId, it.id, (row as ItemRow & { key: number }).key);
      out.push(submit(cx, it, req, now));
      budget.takeQueued();
    }
  }
  if (out.length > 0) alive(cx, req.workerId, now);
  return { items: out, cursor, fresh: budget.fresh, inFlight: budget.inFlight, cancelled: false };
}

/**
 * A claim is a sign of life: the worker's heartbeat is never older than a lease it set, so
 * a worker judged gone by its heartbeat holds no lease still running (a waiting worker
 * that saw it go takes its items over on its next look, instead of leaving them behind).
 */
function alive(cx: SqliteContext, workerId: string, now: number): void {
  cx.stmt.get('UPDATE workers SET heartbeat_at = ? WHERE id = ? AND heartbeat_at < ?').run(now, workerId, now);
}

/** The first queued item of a thread after `afterSeq`, or null. */
function nextQueuedInThread(cx: SqliteContext, batchId: string, threadKey: string, afterSeq: number): ItemRecord | null {
  const r = cx.stmt.get(
    `SELECT ? AS batch_id, * FROM items INDEXED BY items_for_thread_claim WHERE batch_num = ${batchNumOf()} AND thread_key = ? AND seq > ? AND ${queuedRow('items')} ORDER BY seq LIMIT 1`,
  ).get(batchId, batchId, threadKey, afterSeq) as ItemRow | undefined;
  return r ? itemFromRow(r) : null;
}

/** The next item of a thread whose earlier item ended, claimed by the worker that carried the thread, within the cap. */
export function claimNextInThread(cx: SqliteContext, batchId: string, threadKey: string, afterSeq: number, req: Lease & { cap: number }, now: number): ItemRecord | null {
  if (cancelled(cx, batchId)) return null;
  const next = nextQueuedInThread(cx, batchId, threadKey, afterSeq);
  if (!next || hasUnfinishedBefore(cx, batchId, threadKey, next.seq)) return null;
  if (inFlight(cx, batchId) >= effectiveCap(req.cap, capLimitOf(cx, batchId))) return null;
  alive(cx, req.workerId, now);
  return submit(cx, next, req, now);
}

/** Gives an item's lease up, while the worker still holds it (by the token of its claim, when given). */
export function release(cx: SqliteContext, batchId: string, itemId: string, workerId: string, fence?: number): void {
  const key = itemKey(cx, batchId, itemId);
  if (fence === undefined) cx.stmt.get(`UPDATE flights SET owner = NULL, lease_until = 0 WHERE item_key = ? AND owner = ?`).run(key, workerId);
  else cx.stmt.get(`UPDATE flights SET owner = NULL, lease_until = 0 WHERE item_key = ? AND owner = ? AND fence = ?`).run(key, workerId, fence);
}

/** Marks the batch cancelled and ends every queued item; returns how many. */
export function cancel(cx: SqliteContext, batchId: string, now: number): number {
  cx.stmt.get('UPDATE batches SET cancelled_at = coalesce(cancelled_at, ?) WHERE id = ?').run(new Date(now).toISOString(), batchId);
  const ended = cx.stmt.get(`UPDATE items INDEXED BY items_for_claim SET state = 'cancelled', finished_at = ?, updated_at = ? WHERE batch_num = ${batchNumOf()} AND ${queuedRow('items')}`)
    .run(new Date(now).toISOString(), new Date(now).toISOString(), batchId).changes;
  if (ended > 0) noteEnded(cx, batchNum(cx, batchId));
  return ended;
}

/** Puts finished items back to `queued` as a new attempt; returns their ids. */
export function requeue(cx: SqliteContext, batchId: string, ids: readonly string[] | null, states: readonly string[]): string[] {
  const pick = ids
    ? (ids.map((id) => cx.stmt.get(`SELECT id, state FROM items WHERE batch_num = ${batchNumOf()} AND id = ?`).get(batchId, id)).filter(Boolean) as { id: string; state: string }[])
    : (cx.stmt.get(`SELECT id, state FROM items INDEXED BY items_for_state_pages WHERE batch_num = ${batchNumOf()} AND state <> 'queued' AND state IN (${marks(states.length)}) ORDER BY seq`)
        .all(batchId, ...states) as { id: string; state: string }[]);
  const done: string[] = [];
  const upd = cx.stmt.get(
    `UPDATE items SET state = 'queued', attempt = attempt + 1, step = 0, pending_key = NULL, pending_answer = NULL, run_id = NULL,
       run_status = NULL, text = NULL, error = NULL, hold_reason = NULL, finished_at = NULL, owner = NULL, lease_until = NULL,
       thread_id = CASE WHEN thread_key IS NULL THEN NULL ELSE thread_id END, updated_at = ?
     WHERE batch_num = ${batchNumOf()} AND id = ? AND state IN ${sqlStates(TERMINAL_STATES)}`,
  );
  for (const p of pick) if (states.includes(p.state) && upd.run(isoNow(cx.clock), batchId, p.id).changes === 1) done.push(p.id);
  if (done.length > 0) cx.stmt.get('UPDATE batches SET cancelled_at = NULL WHERE id = ?').run(batchId);
  return done;
}

/** Whether an earlier item of the same thread is not yet finished (a thread's later items wait for these). */
export function hasUnfinishedBefore(cx: SqliteContext, batchId: string, threadKey: string, seq: number): boolean {
  return (
    cx.stmt.get(
      `SELECT 1 FROM items INDEXED BY items_for_thread_claim WHERE batch_num = ${batchNumOf()} AND thread_key = ? AND seq < ? AND state IN ${UNFINISHED_ROWS} LIMIT 1`,
    ).get(batchId, threadKey, seq) !== undefined
  );
}
