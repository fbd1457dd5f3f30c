import { isoNow } from '../../clock.js';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { idempotencyKey } from '../keys.js';
import type { Claim, ClaimRequest, Lease } from '../port.js';
import { ACTIVE_STATES, type ItemState, TERMINAL_STATES, sqlStates } from '../item-states.js';
import type { ItemRecord, WorkerRecord, WorkerStart } from '../types.js';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';
import { StatementCache } from './statement-cache.js';
import { type ItemRepo, UNFINISHED } from './items.js';
import { itemFromRow, type ItemRow, workerFromRow, type WorkerRow } from '../rows.js';
import type { ThreadRepo } from './threads.js';

/** How many queued rows a claim reads at a time while looking for claimable ones. */
const QUEUED_PAGE = 64;

/**
 * Runs in flight over every worker (`@batch`: the batch id): items whose run is (or may be)
 * going at the service. An answered (`waiting`) item counts once a worker has held it, since
 * its respond may have been sent (a worker that held it and died leaves `lease_until` set,
 * owner gone). One a person answered and no worker held yet waits for a slot like a queued
 * one: its run ended. Read from the counts the triggers of migration 012 keep by state
 * (claims run on a migrated file), less those answered items: a walk of the batch's
 * `waiting` entries only (items_state, which the query must name with its `<> 'queued'` for
 * SQLite to take it; items_active's IN list makes SQLite walk every active entry), so a claim
 * costs the same at any number of runs in flight.
 */
export const IN_FLIGHT = `SELECT coalesce((SELECT sum(n) FROM item_counts WHERE batch_id = @batch AND state IN ${sqlStates(ACTIVE_STATES)}), 0)
  - (SELECT count(*) FROM items INDEXED BY items_state
       WHERE batch_id = @batch AND state <> 'queued' AND state = 'waiting' AND lease_until IS NULL)`;

/**
 * The items a worker holds. Only items with work at the service have an owner (a claim gives
 * one, every way out of those states takes it), so items_active finds them, a probe per batch
 * of the file and state: migration 013 dropped the index on the owner alone, whose two
 * entries (claimed, ended) every run wrote.
 */
export const OWNED_BY = `batch_id IN (SELECT id FROM batches) AND state IN ${sqlStates(ACTIVE_STATES)} AND owner = ?`;

/**
 * Items in a state with work at the service whose lease is gone (owner dead, stopped, or
 * none), and which the claiming worker does not hold itself: a worker whose own leases ran
 * out in a stall is still driving those items, and a second driver of its own would record
 * a second decision for one pause.
 */
const orphaned = (states: readonly ItemState[]): string => `SELECT * FROM items INDEXED BY items_active
  WHERE batch_id = ? AND state IN ${sqlStates(ACTIVE_STATES)} AND state IN ${sqlStates(states)}
    AND (owner IS NULL OR (lease_until < ? AND owner <> ?))
  LIMIT ?`;

/** The worker and lease bookkeeping of the SQLite adapter; every function runs inside a write transaction. */
export class Claims {
  readonly #sql: StatementCache;
  readonly #items: ItemRepo;
  readonly #threads: ThreadRepo;

  constructor(db: Db, items: ItemRepo, threads: ThreadRepo) {
    this.#sql = new StatementCache(db);
    this.#items = items;
    this.#threads = threads;
  }

  /** The prepared statement for `sql` (prepared once per connection). */
  #stmt(sql: string): Statement {
    return this.#sql.get(sql);
  }

  register(batchId: string, w: WorkerStart, now: number): WorkerRecord {
    const id = `${w.host || hostname()}:${w.pid}:${randomUUID().slice(0, 8)}`;
    const startedAt = new Date(now).toISOString();
    const pidStart = w.pidStart ?? null;
    this.#stmt('INSERT INTO workers (id, batch_id, host, pid, pid_start, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, batchId, w.host, w.pid, pidStart, startedAt, now);
    return { id, batchId, host: w.host, pid: w.pid, pidStart, startedAt, heartbeatAt: now, items: 0 };
  }

  heartbeat(lease: Lease, now: number): { cancelled: boolean; capLimit: number | null } {
    this.#stmt('UPDATE workers SET heartbeat_at = ? WHERE id = ?').run(now, lease.workerId);
    this.#stmt(`UPDATE items INDEXED BY items_active SET lease_until = ? WHERE ${OWNED_BY}`).run(now + lease.leaseMs, lease.workerId);
    const b = this.#stmt('SELECT b.cancelled_at, b.cap_limit FROM workers w JOIN batches b ON b.id = w.batch_id WHERE w.id = ?')
      .get(lease.workerId) as { cancelled_at: string | null; cap_limit: number | null } | undefined;
    return { cancelled: (b?.cancelled_at ?? null) !== null, capLimit: b?.cap_limit ?? null };
  }

  setCapLimit(batchId: string, capLimit: number | null): void {
    this.#stmt('UPDATE batches SET cap_limit = ? WHERE id = ?').run(capLimit, batchId);
  }

  retire(workerId: string, now: number): void {
    // lease_until 0: held before (an answered item's respond may be out), free to take now.
    this.#stmt(`UPDATE items INDEXED BY items_active SET owner = NULL, lease_until = 0 WHERE ${OWNED_BY}`).run(workerId);
    this.#stmt('UPDATE workers SET stopped_at = ?, heartbeat_at = ? WHERE id = ?').run(new Date(now).toISOString(), now, workerId);
  }

  live(batchId: string, staleMs: number, now: number): WorkerRecord[] {
    const rows = this.#stmt(
        `SELECT w.*, (SELECT count(*) FROM items i INDEXED BY items_active
             WHERE i.batch_id = w.batch_id AND i.state IN ${sqlStates(ACTIVE_STATES)} AND i.owner = w.id) AS n FROM workers w
         WHERE w.batch_id = ? AND w.stopped_at IS NULL AND w.heartbeat_at >= ? ORDER BY w.started_at`,
      )
      .all(batchId, now - staleMs) as WorkerRow[];
    return rows.map(workerFromRow);
  }

  /** How many of these items the store still counts in flight. */
  #stillActive(batchId: string, ids: readonly string[]): number {
    if (ids.length === 0) return 0;
    // One primary-key lookup per id: an IN over json_each walked the batch's active items.
    const one = this.#stmt(
      `SELECT 1 FROM items WHERE batch_id = ? AND id = ?
         AND state IN ${sqlStates(ACTIVE_STATES)} AND (state <> 'waiting' OR lease_until IS NOT NULL)`,
    ).pluck();
    let n = 0;
    for (const id of ids) if (one.get(batchId, id) !== undefined) n++;
    return n;
  }

  inFlight(batchId: string): number {
    return this.#stmt(IN_FLIGHT).pluck().get({ batch: batchId }) as number;
  }

  #capLimit(batchId: string): number | null {
    return (this.#stmt('SELECT cap_limit FROM batches WHERE id = ?').pluck().get(batchId) as number | null | undefined) ?? null;
  }

  #cancelled(batchId: string): boolean {
    return this.#stmt('SELECT cancelled_at IS NOT NULL FROM batches WHERE id = ?').pluck().get(batchId) === 1;
  }

  /** Takes an item over under the worker's lease with the next fencing token. */
  #own(it: ItemRecord, lease: Lease, now: number): ItemRecord {
    return this.#items.patch(it, { owner: lease.workerId, lease_until: now + lease.leaseMs, fence: it.fence + 1 });
  }

  /** Moves a queued item to `submitting` under the worker's lease, its key stored. */
  #submit(it: ItemRecord, lease: Lease, now: number): ItemRecord {
    const threadId = it.threadKey ? this.#threads.get(it.batchId, it.threadKey) : null;
    return this.#items.patch(it, {
      state: 'submitting',
      pending_key: idempotencyKey(it.batchId, it.id, it.step, it.attempt),
      thread_id: threadId,
      started_at: it.startedAt ?? new Date(now).toISOString(),
      owner: lease.workerId,
      lease_until: now + lease.leaseMs,
      fence: it.fence + 1,
    });
  }

  claim(batchId: string, req: ClaimRequest, now: number): Claim {
    let inFlight = this.inFlight(batchId) - this.#stillActive(batchId, req.ended ?? []);
    // The batch's adaptive cap (lowered after HTTP 429) binds every worker.
    const limit = this.#capLimit(batchId);
    if (limit !== null && limit < req.cap) req = { ...req, cap: limit };
    if (this.#cancelled(batchId)) return { items: [], cursor: req.afterSeq, fresh: 0, inFlight, cancelled: true };
    const out: ItemRecord[] = [];
    const states = (req.takeOver ?? ACTIVE_STATES).filter((s) => ACTIVE_STATES.includes(s));
    // Orphans are few and looked for on the worker's regular tick, not on every freed slot.
    const skip = req.skip?.length ? new Set(req.skip) : null;
    const orphans = states.length
      ? (this.#stmt(orphaned(states)).all(batchId, now, req.workerId, req.max + (skip?.size ?? 0)) as ItemRow[])
          .filter((r) => !skip?.has(r.id))
          .slice(0, req.max)
          .sort((a, b) => a.seq - b.seq)
      : [];
    for (const row of orphans) {
      const it = itemFromRow(row);
      // An answered item no worker has held has no run going: sending it takes a slot.
      if (it.state === 'waiting' && it.leaseUntil === null) {
        if (inFlight >= req.cap) continue;
        inFlight++;
      }
      out.push(this.#own(it, req, now));
    }
    let cursor = req.afterSeq;
    let fresh = 0;
    const maxQueued = req.maxQueued ?? req.max;
    // The LIMIT is written into the statement (one per size, at most QUEUED_PAGE of them): a
    // bound LIMIT makes SQLite prepare the statement again at every call (its value may
    // change the plan), most of a claim's cost. The walk of items_seq gives the rows in seq
    // order; that order is checked below rather than asked for with an ORDER BY.
    const page = (limit: number): ItemRow[] =>
      inSeqOrder(this.#stmt(`SELECT * FROM items INDEXED BY items_seq WHERE batch_id = ? AND seq > ? AND state = 'queued' LIMIT ${limit}`).all(batchId, cursor) as ItemRow[]);
    // Rows passed over so far (later items of a thread): each page reads as many more.
    let passed = 0;
    scan: while (out.length < req.max && inFlight < req.cap && fresh < maxQueued) {
      // The rows this claim can take, and as many more as it passed over: a claim for a few
      // freed slots reads a few rows, not a whole page (each row read has its cost).
      const want = Math.min(req.max - out.length, req.cap - inFlight, maxQueued - fresh);
      const rows = page(Math.min(QUEUED_PAGE, Math.max(1, Math.ceil(want + passed))));
      if (rows.length === 0) break;
      for (const row of rows) {
        if (out.length >= req.max || inFlight >= req.cap || fresh >= maxQueued) break scan;
        cursor = row.seq;
        const it = itemFromRow(row);
        // Later items of a thread are reached through the thread once the earlier ones end.
        if (it.threadKey && this.#items.hasUnfinishedBefore(batchId, it.threadKey, it.seq)) {
          passed++;
          continue;
        }
        out.push(this.#submit(it, req, now));
        inFlight++;
        fresh++;
      }
    }
    if (out.length > 0) this.#alive(req.workerId, now);
    return { items: out, cursor, fresh, inFlight, cancelled: false };
  }

  /**
   * A claim is a sign of life: the worker's heartbeat is never older than a lease it set, so
   * a worker judged gone by its heartbeat holds no lease still running (a waiting worker
   * that saw it go takes its items over on its next look, instead of leaving them behind).
   */
  #alive(workerId: string, now: number): void {
    this.#stmt('UPDATE workers SET heartbeat_at = ? WHERE id = ? AND heartbeat_at < ?').run(now, workerId, now);
  }

  claimNextInThread(batchId: string, threadKey: string, afterSeq: number, req: Lease & { cap: number }, now: number): ItemRecord | null {
    if (this.#cancelled(batchId)) return null;
    const next = this.#items.nextQueuedInThread(batchId, threadKey, afterSeq);
    if (!next || this.#items.hasUnfinishedBefore(batchId, threadKey, next.seq)) return null;
    if (this.inFlight(batchId) >= Math.min(req.cap, this.#capLimit(batchId) ?? Infinity)) return null;
    this.#alive(req.workerId, now);
    return this.#submit(next, req, now);
  }

  /** Gives an item's lease up, while the worker still holds it (by the token of its claim, when given). */
  release(batchId: string, itemId: string, workerId: string, fence?: number): void {
    if (fence === undefined) this.#stmt('UPDATE items SET owner = NULL, lease_until = 0 WHERE batch_id = ? AND id = ? AND owner = ?').run(batchId, itemId, workerId);
    else this.#stmt('UPDATE items SET owner = NULL, lease_until = 0 WHERE batch_id = ? AND id = ? AND owner = ? AND fence = ?').run(batchId, itemId, workerId, fence);
  }

  /** Marks the batch cancelled and ends every queued item; returns how many. */
  cancel(batchId: string, now: number): number {
    this.#stmt('UPDATE batches SET cancelled_at = coalesce(cancelled_at, ?) WHERE id = ?').run(new Date(now).toISOString(), batchId);
    return this.#stmt(`UPDATE items SET state = 'cancelled', finished_at = ?, updated_at = ? WHERE batch_id = ? AND state = 'queued'`)
      .run(new Date(now).toISOString(), new Date(now).toISOString(), batchId).changes;
  }

  /** Puts finished items back to `queued` as a new attempt; returns their ids. */
  requeue(batchId: string, ids: readonly string[] | null, states: readonly string[]): string[] {
    const pick = ids
      ? (ids.map((id) => this.#stmt('SELECT id, state FROM items WHERE batch_id = ? AND id = ?').get(batchId, id)).filter(Boolean) as { id: string; state: string }[])
      : (this.#stmt(`SELECT id, state FROM items INDEXED BY items_state WHERE batch_id = ? AND state <> 'queued' AND state IN (${states.map(() => '?').join(',')}) ORDER BY seq`)
          .all(batchId, ...states) as { id: string; state: string }[]);
    const done: string[] = [];
    const upd = this.#stmt(
      `UPDATE items SET state = 'queued', attempt = attempt + 1, step = 0, pending_key = NULL, pending_answer = NULL, run_id = NULL,
         run_status = NULL, text = NULL, error = NULL, hold_reason = NULL, finished_at = NULL, owner = NULL, lease_until = NULL,
         thread_id = CASE WHEN thread_key IS NULL THEN NULL ELSE thread_id END, updated_at = ?
       WHERE batch_id = ? AND id = ? AND state IN ${sqlStates(TERMINAL_STATES)}`,
    );
    for (const p of pick) if (states.includes(p.state) && upd.run(isoNow(), batchId, p.id).changes === 1) done.push(p.id);
    if (done.length > 0) this.#stmt('UPDATE batches SET cancelled_at = NULL WHERE id = ?').run(batchId);
    return done;
  }
}

export { UNFINISHED };

/** The rows in seq order: as read (an index walk), or sorted should they ever come otherwise. */
function inSeqOrder(rows: ItemRow[]): ItemRow[] {
  for (let i = 1; i < rows.length; i++) if (rows[i]!.seq < rows[i - 1]!.seq) return rows.sort((a, b) => a.seq - b.seq);
  return rows;
}
