import { isoNow } from '../../clock.js';
import { FLIGHT_COLUMNS, type FlightColumn, IN_FLIGHT_MARK, LANDED_COLUMNS } from '../common/flights.js';
import type { Holding } from '../common/fencing.js';
import { type ItemRow, itemFromRow } from '../rows/records.js';
import type { ItemRecord, ItemState } from '../types.js';
import { batchNum, itemKey, noteEnded, type SqliteContext } from './database.js';
import { isTerminal } from '../item-states.js';
import { batchNumOf, ITEM_KEY, ITEM_SELECT } from './statement-cache.js';

/**
 * An item and its life in flight, SQLite adapter (migration 019): the flights table, one
 * narrow integer-keyed row per item a worker carries, written on every transition in flight;
 * the item's own row only when its flight starts (the mark) and lands (its final state). Every
 * write of a driver is conditioned on the flight's owner and fencing token. Transitions:
 * transitions.ts; claims: claims.ts.
 */

/** A value as stored (JSON columns as text). */
const stored = (v: unknown): unknown => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v);

type FlightRow = Record<FlightColumn, unknown> & { item_key: number };

/** Columns the runner may change (an item's row, or its flight's where the flight has them). */
export type ItemPatch = Partial<Record<
  'state' | 'step' | 'pending_key' | 'pending_answer' | 'run_id' | 'thread_id' | 'run_status' | 'text' | 'error' | 'error_code' |
  'hold_reason' | 'started_at' | 'finished_at' | 'owner' | 'lease_until' | 'attempt' | 'fence', unknown>>;

/**
 * One item, or null. Found by its key (ITEM_KEY, a seek in the (batch_num, id) key): with
 * the join's WHERE on batch_num and id instead, SQLite prepares the statement again at every
 * new binding (its planner weighs the bound values): a prepare per read.
 */
export function getItem(cx: SqliteContext, batchId: string, id: string): ItemRecord | null {
  const r = cx.stmt.get(`${ITEM_SELECT} WHERE i.key = ${ITEM_KEY}`).get(batchId, batchId, id) as
    | ItemRow
    | undefined;
  return r ? itemFromRow(r) : null;
}

/** The item a driver carries, read again as it is now (by its ids), or null. */
export function getItemAgain(cx: SqliteContext, item: ItemRecord): ItemRecord | null {
  return getItem(cx, item.batchId, item.id);
}

/** Column update of the item's own row (never its flight), at the store's clock; returns the `updated_at` it wrote. */
export function updateItem(cx: SqliteContext, batchId: string, id: string, patch: ItemPatch): string {
  const cols = Object.keys(patch) as (keyof ItemPatch)[];
  const sets = cols.map((c) => `${c} = ?`).join(', ');
  const values = cols.map((c) => {
    const v = patch[c];
    return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
  });
  const updatedAt = isoNow(cx.clock);
  const info = cx.stmt.get(`UPDATE items SET ${sets}, updated_at = ? WHERE batch_num = ${batchNumOf()} AND id = ?`).run(...values, updatedAt, batchId, id);
  if (info.changes !== 1) throw new Error(`item ${batchId}/${id} not found`);
  if (typeof patch.state === 'string' && isTerminal(patch.state as ItemState)) noteEnded(cx, batchNum(cx, batchId));
  return updatedAt;
}

/**
 * Starts an item's flight: its flight row takes the in-flight fields of `next` (its start
 * time among them). A claim (no `fromRest`) writes the flight alone: the item's row stays as
 * it was queued. An item entering flight from another state (a held item answered) has its
 * row take the mark of one in flight with `fromRest` (hold_reason) over it. Returns `next` as stored.
 */
export function startFlight(cx: SqliteContext, next: ItemRecord, fromRest?: Partial<Record<'hold_reason', unknown>>): ItemRecord {
  const now = isoNow(cx.clock);
  const num = batchNum(cx, next.batchId);
  const key = itemKey(cx, next.batchId, next.id);
  if (key === null) throw new Error(`item ${next.batchId}/${next.id} not found`);
  if (fromRest) {
    const cols = Object.keys(fromRest);
    const sets = cols.map((c) => `, ${c} = ?`).join('');
    const info = cx.stmt
      .get(`UPDATE items SET state = '${IN_FLIGHT_MARK}'${sets}, owner = NULL, lease_until = NULL, updated_at = ? WHERE key = ?`)
      .run(...cols.map((c) => stored(fromRest[c as keyof typeof fromRest])), now, key);
    if (info.changes !== 1) throw new Error(`item ${next.batchId}/${next.id} not found`);
  }
  cx.stmt
    .get(`INSERT INTO flights (item_key, batch_num, ${FLIGHT_COLUMNS.join(', ')}) VALUES (?, ?, ${FLIGHT_COLUMNS.map(() => '?').join(', ')})`)
    .run(
      key,
      num,
      next.state,
      next.step,
      next.pendingKey,
      stored(next.pendingAnswer),
      next.runId,
      next.threadId,
      next.runStatus,
      next.text,
      next.owner,
      next.leaseUntil,
      next.fence,
      next.startedAt,
      now,
    );
  cx.keys.keep(next.batchId, next.id, key);
  return { ...next, updatedAt: now };
}

/**
 * Changes an item's flight, while `held` (a driver's owner and token) still holds it when
 * given; returns the `updated_at` written, or null when nothing changed (not so held, or no flight).
 */
export function patchFlight(cx: SqliteContext, batchId: string, itemId: string, patch: Partial<Record<FlightColumn, unknown>>, held?: Holding): string | null {
  const cols = Object.keys(patch) as FlightColumn[];
  const now = isoNow(cx.clock);
  const sets = cols.map((c) => `${c} = ?, `).join('');
  const values = cols.map((c) => stored(patch[c]));
  const key = itemKey(cx, batchId, itemId);
  const info = held
    ? cx.stmt.get(`UPDATE flights SET ${sets}updated_at = ? WHERE item_key = ? AND owner IS ? AND fence = ?`).run(...values, now, key, held.owner, held.fence)
    : cx.stmt.get(`UPDATE flights SET ${sets}updated_at = ? WHERE item_key = ?`).run(...values, now, key);
  return info.changes === 1 ? now : null;
}

/**
 * Ends an item's flight: the flight row goes and the item's row takes its in-flight fields
 * with `patch` over them (its final state, or held), owner and lease gone. With `held`, only
 * while so held: false and nothing changed otherwise. An item with no flight (a models
 * batch's row, a held item) has `patch` written to its row alone. Returns the `updated_at`
 * written, or null when not so held.
 */
export function landFlight(cx: SqliteContext, batchId: string, itemId: string, patch: ItemPatch, held?: Holding): string | null {
  const key = itemKey(cx, batchId, itemId);
  const row = (
    held
      ? cx.stmt.get(`DELETE FROM flights WHERE item_key = ? AND owner IS ? AND fence = ? RETURNING *`).get(key, held.owner, held.fence)
      : cx.stmt.get(`DELETE FROM flights WHERE item_key = ? RETURNING *`).get(key)
  ) as FlightRow | undefined;
  if (!row && held) return null;
  cx.keys.drop(batchId, itemId);
  const values: Record<string, unknown> = {};
  if (row) for (const c of LANDED_COLUMNS) values[c] = row[c];
  for (const [c, v] of Object.entries(patch)) values[c] = stored(v);
  values.owner = null;
  values.lease_until = null;
  const cols = Object.keys(values);
  const now = isoNow(cx.clock);
  const sets = cols.map((c) => `${c} = ?, `).join('');
  const info = cx.stmt.get(`UPDATE items SET ${sets}updated_at = ? WHERE key = ?`).run(...cols.map((c) => values[c]), now, key);
  if (info.changes !== 1) throw new Error(`item ${batchId}/${itemId} not found`);
  if (typeof values.state === 'string' && isTerminal(values.state as ItemState)) noteEnded(cx, batchNum(cx, batchId));
  return now;
}
