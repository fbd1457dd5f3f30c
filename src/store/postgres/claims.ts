import type { Queryable } from './pool.js';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { idempotencyKey } from '../keys.js';
import type { Claim, ClaimRequest, Lease } from '../port.js';
import { workerFromRow, type WorkerRow } from '../rows/records.js';
import { TERMINAL_STATES, sqlStates } from '../item-states.js';
import type { ItemRecord, WorkerRecord, WorkerStart } from '../types.js';
import { FLIGHT_COLUMNS, flightSelect, queuedRow, runGoing, UNFINISHED_ROWS } from '../common/flights.js';
import { ClaimBudget, effectiveCap, pickOrphans, queuedPageSize, takeOverStates } from '../common/claim-plan.js';
import { BATCH_NUM, dbNow, ITEM_COLS, itemFromJoined, itemFromParts, type JoinedRow, type KeyedRow, numOf, prepared, stamp, whereIs } from './sql.js';

/** Sent prepared: parsed and planned once per connection (sql.ts `hot`). */
const { all, one, scalar, exec } = prepared;

/**
 * Runs in flight over every worker, read from `flights` (at most the batch's concurrency
 * rows): an answered item no worker has held yet has no run going and takes no slot.
 */
const IN_FLIGHT = `SELECT count(*) FROM flights WHERE batch_num = $1 AND ${runGoing()}`;

/** A time in ms since the epoch (`col`, an SQL expression) as the ISO 8601 text the store keeps times in. */
const isoOf = (col: string): string => `to_char(to_timestamp(${col} / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The runs in flight of the batch numbered `num`, less those of the items `ended` (the claimer's, ended but not yet written): one statement. */
export async function inFlight(c: pg.ClientBase, num: number, ended: readonly string[] = []): Promise<number> {
  if (ended.length === 0) return scalar<number>(c, IN_FLIGHT, [num]);
  return scalar<number>(c, `${IN_FLIGHT} AND item_key NOT IN (SELECT key FROM items WHERE batch_num = $1 AND id = ANY($2))`, [num, ended]);
}

export async function register(c: pg.ClientBase, batchId: string, w: WorkerStart, now: number | null): Promise<WorkerRecord> {
  const id = `${w.host}:${w.pid}:${randomUUID().slice(0, 8)}`;
  const pidStart = w.pidStart ?? null;
  const at = await scalar<number>(
    c,
    `INSERT INTO workers (id, batch_num, host, pid, pid_start, started_at, heartbeat_at)
     SELECT $1, ${BATCH_NUM('$2')}, $3, $4, $6, ${isoOf('t')}, t
       FROM (SELECT ${dbNow('$5')} AS t) n RETURNING heartbeat_at`,
    [id, batchId, w.host, w.pid, now, pidStart],
  );
  return { id, batchId, host: w.host, pid: w.pid, pidStart, startedAt: new Date(at).toISOString(), heartbeatAt: at, items: 0 };
}

export async function heartbeat(c: pg.ClientBase, lease: Lease, now: number | null): Promise<{ cancelled: boolean; capLimit: number | null }> {
  await exec(c, `UPDATE workers SET heartbeat_at = ${dbNow('$1')} WHERE id = $2`, [now, lease.workerId]);
  await exec(c, `UPDATE flights SET lease_until = ${dbNow('$1')} + $3 WHERE owner = $2`, [now, lease.workerId, lease.leaseMs]);
  const b = await one<{ cancelled_at: string | null; cap_limit: number | null }>(
    c,
    'SELECT b.cancelled_at, b.cap_limit FROM workers w JOIN batches b ON b.num = w.batch_num WHERE w.id = $1',
    [lease.workerId],
  );
  return { cancelled: (b?.cancelled_at ?? null) !== null, capLimit: b?.cap_limit ?? null };
}

/** Sets the batch's adaptive cap (null: none). */
export async function setCapLimit(c: Queryable, batchId: string, capLimit: number | null): Promise<void> {
  await c.query('UPDATE batches SET cap_limit = $1 WHERE id = $2', [capLimit, batchId]);
}

export async function retire(c: pg.ClientBase, workerId: string, now: number | null): Promise<void> {
  await exec(c, 'UPDATE flights SET owner = NULL, lease_until = 0 WHERE owner = $1', [workerId]);
  await exec(c,
    `UPDATE workers SET stopped_at = ${isoOf('t')}, heartbeat_at = t
     FROM (SELECT ${dbNow('$1')} AS t) n WHERE id = $2`,
    [now, workerId],
  );
}

export async function live(c: Queryable, batchId: string, staleMs: number, now: number | null): Promise<WorkerRecord[]> {
  const rows = await all<WorkerRow>(
    c,
    // index workers_for_live
    `SELECT w.*, $1::text AS batch_id, (SELECT count(*) FROM flights f WHERE f.owner = w.id) AS n FROM workers w
     WHERE w.batch_num = ${BATCH_NUM('$1')} AND w.stopped_at IS NULL AND w.heartbeat_at >= ${dbNow('$2')} - $3 ORDER BY w.started_at`,
    [batchId, now, staleMs],
  );
  return rows.map(workerFromRow);
}

/**
 * Takes items in flight over under the worker's lease (database time), each with its next
 * fencing token, in one statement: their flights rows only. A resume that finds ten thousand
 * runs of a dead worker takes them in one round trip, not one each.
 */
async function ownAll(c: pg.ClientBase, items: readonly ItemRecord[], lease: Lease, now: number | null): Promise<ItemRecord[]> {
  if (items.length === 0) return [];
  const rows = await all<Record<string, unknown>>(
    c,
    `UPDATE flights f SET owner = $2, lease_until = ${dbNow('$3')} + $4, fence = f.fence + 1, updated_at = $5
     FROM unnest($1::bigint[]) AS v(key) WHERE f.item_key = v.key RETURNING f.*`,
    [items.map((it) => whereIs(it)!.key), lease.workerId, now, lease.leaseMs, stamp(now)],
  );
  // Every flight named was read under this claim's locks; one not written would be an item said taken and not held.
  if (rows.length !== items.length) throw new Error(`takeover wrote ${rows.length} of ${items.length} flights`);
  const byKey = new Map(rows.map((f) => [Number(f.item_key), f]));
  return items.map((it) => {
    const f = byKey.get(Number(whereIs(it)!.key))!;
    return { ...it, state: f.state as ItemRecord['state'], owner: f.owner as string, leaseUntil: Number(f.lease_until), fence: Number(f.fence), updatedAt: f.updated_at as string };
  });
}

/** A claimed item's new flight, from its queued row: `submitting`, under the worker's lease ($4, $5 + $8), stamped $3, with the next fencing token. */
const SUBMITTED = flightSelect({
  state: "'submitting'", owner: '$4', lease_until: `${dbNow('$5')} + $8`, updated_at: '$3', pending_key: 'v.key', thread_id: 'v.thread',
  started_at: 'coalesce(i.started_at, $3)', fence: 'i.fence + 1',
});

/**
 * Moves queued items to `submitting` under the worker's lease, their keys stored, with the next
 * fencing token, in one statement: their flights rows inserted from their rows, which stay as
 * they were queued (no index of the items table nor the counts written). `threads` gives a
 * threaded item its thread's id.
 */
async function submitAll(c: pg.ClientBase, batchId: string, num: number, items: readonly ItemRecord[], threads: ReadonlyMap<string, string | null>, lease: Lease, now: number | null): Promise<ItemRecord[]> {
  if (items.length === 0) return [];
  const keys = items.map((it) => idempotencyKey(it.batchId, it.id, it.step, it.attempt));
  const rows = await all<{ i: KeyedRow; f: Record<string, unknown> }>(
    c,
    `WITH flown AS (
       INSERT INTO flights (item_key, batch_num, ${FLIGHT_COLUMNS.join(', ')})
       SELECT i.key, $2, ${SUBMITTED}
       FROM unnest($1::bigint[], $6::text[], $7::text[]) AS v(item_key, key, thread) JOIN items i ON i.key = v.item_key RETURNING *)
     SELECT row_to_json(i) AS i, row_to_json(flown) AS f FROM flown JOIN items i ON i.key = flown.item_key`,
    [items.map((it) => whereIs(it)!.key), num, stamp(now), lease.workerId, now, keys, items.map((it) => threads.get(it.id) ?? null), lease.leaseMs],
  );
  return rows.map((r) => itemFromParts(batchId, r.i, r.f)).sort((a, b) => a.seq - b.seq);
}

/** The thread's id a threaded item is sent on (null: the thread's first run makes one). */
async function threadOf(c: pg.ClientBase, it: ItemRecord): Promise<string | null> {
  // threads_by_key
  return it.threadKey ? ((await scalar<string | null>(c, 'SELECT thread_id FROM threads WHERE batch_num = $1 AND thread_key = $2', [numOf(it), it.threadKey])) ?? null) : null;
}

/**
 * The claim, in one transaction. The batch row is locked first (FOR NO KEY UPDATE: rows that
 * reference the batch can still be inserted meanwhile): claims of one batch then run one at
 * a time over every machine, so the count of runs in flight that the cap is checked against
 * cannot change under a claim (two claims each seeing one free slot would otherwise both
 * take it). Item rows are read FOR NO KEY UPDATE SKIP LOCKED: a claim never waits on an item
 * another worker is writing.
 */
export async function claim(c: pg.ClientBase, batchId: string, req: ClaimRequest, now: number | null): Promise<Claim> {
  const b = await one<{ num: number; cancelled_at: string | null; cap_limit: number | null }>(c, 'SELECT num, cancelled_at, cap_limit FROM batches WHERE id = $1 FOR NO KEY UPDATE', [batchId]);
  if (!b) return { items: [], cursor: req.afterSeq, fresh: 0, inFlight: 0, cancelled: false };
  const count = await inFlight(c, b.num, req.ended ?? []);
  if (b.cancelled_at !== null) return { items: [], cursor: req.afterSeq, fresh: 0, inFlight: count, cancelled: true };
  const budget = new ClaimBudget(req, effectiveCap(req.cap, b.cap_limit), count);
  const out: ItemRecord[] = [];
  const states = takeOverStates(req);
  if (states.length > 0) {
    const orphans = await all<JoinedRow>(
      c,
      // Never an item the claimer holds itself (see the SQLite adapter's claims.ts). The
      // flights of the batch (index flights_for_claim), their item rows locked.
      `SELECT ${ITEM_COLS} FROM flights f JOIN items i ON i.key = f.item_key
       WHERE f.batch_num = $1 AND f.state = ANY($2)
         AND (f.owner IS NULL OR (f.lease_until < ${dbNow('$3')} AND f.owner <> $5))
       ORDER BY i.seq LIMIT $4 FOR NO KEY UPDATE OF i SKIP LOCKED`,
      [b.num, states, now, req.max + (req.skip?.length ?? 0), req.workerId],
    );
    const taken = pickOrphans(orphans.map((r) => itemFromJoined(r, batchId)), req.skip, req.max).filter((it) => budget.takeOrphan(it));
    for (const it of await ownAll(c, taken, req, now)) out.push(it);
  }
  let cursor = req.afterSeq;
  let passed = 0;
  const taking: ItemRecord[] = [];
  const threads = new Map<string, string | null>();
  scan: while (budget.roomForQueued) {
    // The rows this claim can take and a few more (later thread items are passed over): a
    // claim for a few freed slots locks a few rows, not a whole page other workers must skip.
    const rows = await all<JoinedRow>(
      c,
      // index items_for_claim; a queued item has no flights row (its flight's key looked up).
      `SELECT i.* FROM items i WHERE i.batch_num = $1 AND i.seq > $2 AND ${queuedRow()} ORDER BY i.seq LIMIT $3 FOR NO KEY UPDATE SKIP LOCKED`,
      [b.num, cursor, queuedPageSize(budget.wantQueued, passed + 8)],
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      if (!budget.roomForQueued) break scan;
      cursor = row.seq;
      const it = itemFromJoined(row, batchId);
      // Later items of a thread are reached through the thread once the earlier ones end.
      if (it.threadKey && (await hasUnfinishedBefore(c, b.num, it.threadKey, it.seq))) {
        passed++;
        continue;
      }
      if (it.threadKey) threads.set(it.id, await threadOf(c, it));
      taking.push(it);
      budget.takeQueued();
    }
  }
  // Orphans first, then the queued items in file order, moved in one statement.
  out.push(...(await submitAll(c, batchId, b.num, taking, threads, req, now)));
  if (out.length > 0) await alive(c, req.workerId, now);
  return { items: out, cursor, fresh: budget.fresh, inFlight: budget.inFlight, cancelled: false };
}

export async function claimNextInThread(c: pg.ClientBase, batchId: string, threadKey: string, afterSeq: number, req: Lease & { cap: number }, now: number | null): Promise<ItemRecord | null> {
  const b = await one<{ num: number; cancelled_at: string | null; cap_limit: number | null }>(c, 'SELECT num, cancelled_at, cap_limit FROM batches WHERE id = $1 FOR NO KEY UPDATE', [batchId]);
  if (!b || b.cancelled_at !== null) return null;
  const row = await one<JoinedRow>(
    c,
    // index items_for_thread_claim
    `SELECT i.* FROM items i WHERE i.batch_num = $1 AND i.thread_key = $2 AND i.seq > $3 AND ${queuedRow()} ORDER BY i.seq LIMIT 1 FOR NO KEY UPDATE SKIP LOCKED`,
    [b.num, threadKey, afterSeq],
  );
  if (!row) return null;
  const next = itemFromJoined(row, batchId);
  if (await hasUnfinishedBefore(c, b.num, threadKey, next.seq)) return null;
  if ((await inFlight(c, b.num)) >= effectiveCap(req.cap, b.cap_limit)) return null;
  await alive(c, req.workerId, now);
  const [taken] = await submitAll(c, batchId, b.num, [next], new Map([[next.id, await threadOf(c, next)]]), req, now);
  return taken ?? null;
}

/**
 * A claim is a sign of life: the worker's heartbeat is never older than a lease it set, so
 * a worker judged gone by its heartbeat holds no lease still running (a waiting worker
 * that saw it go takes its items over on its next look, instead of leaving them behind).
 */
async function alive(c: pg.ClientBase, workerId: string, now: number | null): Promise<void> {
  await exec(c, `UPDATE workers SET heartbeat_at = t FROM (SELECT ${dbNow('$1')} AS t) n WHERE id = $2 AND heartbeat_at < t`, [now, workerId]);
}

/** Gives an item's lease up while the worker holds it (by the token of its claim, when given). */
export async function release(c: pg.ClientBase, batchId: string, itemId: string, workerId: string, fence?: number): Promise<void> {
  await exec(c,
    `UPDATE flights SET owner = NULL, lease_until = 0
     WHERE item_key = (SELECT key FROM items WHERE batch_num = ${BATCH_NUM('$1')} AND id = $2) AND owner = $3 AND fence = coalesce($4, fence)`,
    [batchId, itemId, workerId, fence ?? null],
  );
}

export async function cancel(c: pg.ClientBase, batchId: string, now: number | null): Promise<number> {
  const at = stamp(now);
  await exec(c, 'UPDATE batches SET cancelled_at = coalesce(cancelled_at, $1) WHERE id = $2', [at, batchId]);
  // index items_for_claim
  return (await exec(c, `UPDATE items SET state = 'cancelled', finished_at = $1, updated_at = $1 WHERE batch_num = ${BATCH_NUM('$2')} AND ${queuedRow('items')}`, [at, batchId])).rowCount ?? 0;
}

export async function requeue(c: pg.ClientBase, batchId: string, ids: readonly string[] | null, states: readonly string[], at: string): Promise<string[]> {
  const picked = ids
    ? await all<{ id: string; state: string }>(c, `SELECT id, state FROM items WHERE batch_num = ${BATCH_NUM('$1')} AND id = ANY($2) ORDER BY seq`, [batchId, ids])
    : await all<{ id: string; state: string }>(c, `SELECT id, state FROM items WHERE batch_num = ${BATCH_NUM('$1')} AND state = ANY($2) ORDER BY seq`, [batchId, states]);
  const wanted = picked.filter((p) => states.includes(p.state)).map((p) => p.id);
  // One statement for them all: the counts' trigger then writes its rows once, not once per item.
  const back = wanted.length === 0 ? [] : await all<{ id: string; seq: number }>(
    c,
    `UPDATE items SET state = 'queued', attempt = attempt + 1, step = 0, pending_key = NULL, pending_answer = NULL, run_id = NULL,
       run_status = NULL, text = NULL, error = NULL, hold_reason = NULL, finished_at = NULL, owner = NULL, lease_until = NULL,
       thread_id = CASE WHEN thread_key IS NULL THEN NULL ELSE thread_id END, updated_at = $1
     WHERE batch_num = ${BATCH_NUM('$2')} AND id = ANY($3) AND state IN ${sqlStates(TERMINAL_STATES)} RETURNING id, seq`,
    [at, batchId, wanted],
  );
  const done = back.sort((a, b) => a.seq - b.seq).map((r) => r.id);
  if (done.length > 0) await exec(c, 'UPDATE batches SET cancelled_at = NULL WHERE id = $1', [batchId]);
  return done;
}

/** Item-row states before the end of an item's life, the mark of one in flight included (a thread's later items wait for these). */

/** Whether an earlier item of the thread (of the batch numbered `num`) is not yet finished: index items_for_thread_claim. */
export async function hasUnfinishedBefore(c: pg.ClientBase, num: number, threadKey: string, seq: number): Promise<boolean> {
  return (await one(c, `SELECT 1 FROM items WHERE batch_num = $1 AND thread_key = $2 AND seq < $3 AND state IN ${UNFINISHED_ROWS} LIMIT 1`, [num, threadKey, seq])) !== null;
}

