import { type Clock, isoNow } from '../../clock.js';
import { FLIGHT_COLUMNS, type FlightColumn, IN_FLIGHT_MARK, LANDED_COLUMNS } from '../common/flights.js';
import type { Holding } from '../common/fencing.js';
import type { ItemRecord } from '../types.js';
import type { BatchRepo } from './batches.js';
import type { Db } from './database.js';
import { type ItemColumn, patched } from './items.js';
import { StatementCache } from './statement-cache.js';
import { batchNumOf, ITEM_KEY } from './reads.js';

/** A value as stored (JSON columns as text). */
const stored = (v: unknown): unknown => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v);

type FlightRow = Record<FlightColumn, unknown> & { item_key: number };

/**
 * The flights table (migration 019): an item's life in flight, one narrow integer-keyed row
 * per item a worker carries, written on every transition in flight; the item's own row only
 * when its flight starts (the mark) and lands (its final state). Every write of a driver is
 * conditioned on the flight's owner and fencing token.
 */
export class FlightRepo {
  readonly #sql: StatementCache;
  readonly #clock: Clock;
  readonly #batches: BatchRepo;

  constructor(db: Db, clock: Clock, batches: BatchRepo) {
    this.#sql = new StatementCache(db);
    this.#clock = clock;
    this.#batches = batches;
  }

  /**
   * Starts an item's flight: its flight row takes the in-flight fields of `next` (its start
   * time among them). A claim (no `fromRest`) writes the flight alone: the item's row stays as
   * it was queued. An item entering flight from another state (a held item answered) has its
   * row take the mark of one in flight with `fromRest` (hold_reason) over it. Returns `next` as stored.
   */
  start(next: ItemRecord, fromRest?: Partial<Record<'hold_reason', unknown>>): ItemRecord {
    const now = isoNow(this.#clock);
    const num = this.#batches.num(next.batchId);
    if (fromRest) {
      const cols = Object.keys(fromRest);
      const sets = cols.map((c) => `, ${c} = ?`).join('');
      const info = this.#sql
        .get(`UPDATE items SET state = '${IN_FLIGHT_MARK}'${sets}, owner = NULL, lease_until = NULL, updated_at = ? WHERE batch_num = ? AND id = ?`)
        .run(...cols.map((c) => stored(fromRest[c as keyof typeof fromRest])), now, num, next.id);
      if (info.changes !== 1) throw new Error(`item ${next.batchId}/${next.id} not found`);
    }
    const info = this.#sql
      .get(`INSERT INTO flights (item_key, batch_num, ${FLIGHT_COLUMNS.join(', ')}) SELECT key, batch_num, ${FLIGHT_COLUMNS.map(() => '?').join(', ')} FROM items WHERE batch_num = ? AND id = ?`)
      .run(
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
        num,
        next.id,
      );
    if (info.changes !== 1) throw new Error(`item ${next.batchId}/${next.id} not found`);
    return { ...next, updatedAt: now };
  }

  /**
   * Changes an item's flight, while `held` (a driver's owner and token) still holds it when
   * given; returns the `updated_at` written, or null when nothing changed (not so held, or no flight).
   */
  patch(batchId: string, itemId: string, patch: Partial<Record<FlightColumn, unknown>>, held?: Holding): string | null {
    const cols = Object.keys(patch) as FlightColumn[];
    const now = isoNow(this.#clock);
    const sets = cols.map((c) => `${c} = ?, `).join('');
    const values = cols.map((c) => stored(patch[c]));
    const info = held
      ? this.#sql.get(`UPDATE flights SET ${sets}updated_at = ? WHERE item_key = ${ITEM_KEY} AND owner IS ? AND fence = ?`).run(...values, now, batchId, itemId, held.owner, held.fence)
      : this.#sql.get(`UPDATE flights SET ${sets}updated_at = ? WHERE item_key = ${ITEM_KEY}`).run(...values, now, batchId, itemId);
    return info.changes === 1 ? now : null;
  }

  /** {@link patch} of a driver's item: the item as it is now, or null when it is no longer the driver's. */
  patchHeld(item: ItemRecord, patch: Partial<Record<FlightColumn, unknown>>): ItemRecord | null {
    const at = this.patch(item.batchId, item.id, patch, item);
    return at === null ? null : patched(item, patch as Partial<Record<ItemColumn, unknown>>, at);
  }

  /**
   * Ends an item's flight: the flight row goes and the item's row takes its in-flight fields
   * with `patch` over them (its final state, or held), owner and lease gone. With `held`, only
   * while so held: false and nothing changed otherwise. An item with no flight (a models
   * batch's row, a held item) has `patch` written to its row alone. Returns the `updated_at`
   * written, or null when not so held.
   */
  land(batchId: string, itemId: string, patch: Partial<Record<ItemColumn, unknown>>, held?: Holding): string | null {
    const row = (
      held
        ? this.#sql.get(`DELETE FROM flights WHERE item_key = ${ITEM_KEY} AND owner IS ? AND fence = ? RETURNING *`).get(batchId, itemId, held.owner, held.fence)
        : this.#sql.get(`DELETE FROM flights WHERE item_key = ${ITEM_KEY} RETURNING *`).get(batchId, itemId)
    ) as FlightRow | undefined;
    if (!row && held) return null;
    const values: Record<string, unknown> = {};
    if (row) for (const c of LANDED_COLUMNS) values[c] = row[c];
    for (const [c, v] of Object.entries(patch)) values[c] = stored(v);
    values.owner = null;
    values.lease_until = null;
    const cols = Object.keys(values);
    const now = isoNow(this.#clock);
    const sets = cols.map((c) => `${c} = ?, `).join('');
    const info = row
      ? this.#sql.get(`UPDATE items SET ${sets}updated_at = ? WHERE key = ?`).run(...cols.map((c) => values[c]), now, row.item_key)
      : this.#sql.get(`UPDATE items SET ${sets}updated_at = ? WHERE batch_num = ${batchNumOf()} AND id = ?`).run(...cols.map((c) => values[c]), now, batchId, itemId);
    if (info.changes !== 1) throw new Error(`item ${batchId}/${itemId} not found`);
    return now;
  }

  /**
   * {@link land} of a driver's item: the item as it is now (the driver's copy with `patch`, no
   * owner, no lease: no read of the row), or null when it is no longer the driver's.
   */
  landHeld(item: ItemRecord, patch: Partial<Record<ItemColumn, unknown>>): ItemRecord | null {
    const at = this.land(item.batchId, item.id, patch, item);
    return at === null ? null : { ...patched(item, patch, at), owner: null, leaseUntil: null };
  }
}
