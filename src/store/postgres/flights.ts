import type pg from 'pg';
import type { Queryable } from './pool.js';
import { FLIGHT_COLUMNS, IN_FLIGHT_MARK, isFlightColumn, LANDED_COLUMNS, flightSelect } from '../common/flights.js';
import { ACTIVE_STATES } from '../item-states.js';
import type { ItemRow } from '../rows/records.js';
import type { ItemRecord, ItemState } from '../types.js';
import { BATCH_NUM, ITEM_COLS, itemFromJoined, itemFromParts, ITEMS_FROM, type JoinedRow, type KeyedRow, type Located, prepared, whereIs } from './sql.js';
import { leaseLost } from '../common/fencing.js';

/** Sent prepared: parsed and planned once per connection (sql.ts `hot`). */
const { one } = prepared;

/**
 * An item and its life in flight, PostgreSQL adapter (migration 019): every read of an item
 * joins its `flights` row and lays the flight's columns over the item's row (sql.ts
 * `itemFromJoined`); every transition writes the flight alone while the item stays in flight,
 * and the item's row when it enters flight, is held or ends. Transitions:
 * src/store/postgres/transitions.ts; claims: claims.ts.
 */

/** One item with its flight, its item row locked for the rest of the transaction when `lock`. */
export async function getItem(c: Queryable, batchId: string, id: string, lock = false): Promise<ItemRecord | null> {
  // items_by_id, the batch's number looked up inside the statement.
  const r = await one<JoinedRow>(c, `SELECT ${ITEM_COLS} FROM ${ITEMS_FROM} WHERE i.batch_num = ${BATCH_NUM('$1')} AND i.id = $2${lock ? ' FOR NO KEY UPDATE OF i' : ''}`, [batchId, id]);
  return r ? itemFromJoined(r, batchId) : null;
}

/**
 * An item read again by the key of a record this adapter read (a transition's re-read of the
 * item it carries: items_by_key, no look-up of the batch's number), its row locked when `lock`.
 * A record built elsewhere is looked up by its ids ({@link getItem}).
 */
export async function getItemAgain(c: Queryable, item: ItemRecord, lock = false): Promise<ItemRecord | null> {
  const w = whereIs(item);
  if (!w) return getItem(c, item.batchId, item.id, lock);
  const r = await one<JoinedRow>(c, `SELECT ${ITEM_COLS} FROM ${ITEMS_FROM} WHERE i.key = $1${lock ? ' FOR NO KEY UPDATE OF i' : ''}`, [w.key]);
  return r ? itemFromJoined(r, item.batchId) : null;
}

/** Columns a transition may change. */
export type ItemPatch = Partial<Record<
  'state' | 'step' | 'pending_key' | 'pending_answer' | 'run_id' | 'thread_id' | 'run_status' | 'text' | 'error' | 'error_code' |
  'hold_reason' | 'started_at' | 'finished_at' | 'owner' | 'lease_until' | 'attempt', unknown>>;

const stored = (v: unknown): unknown => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v);

/**
 * Writes a transition of one item (objects stored as JSON text), stamping updated_at, and
 * returns the item as it is now. In flight (a state of submitting, running or waiting, before
 * and after) only its `flights` row is written ({@link patchFlight}); entering flight writes the
 * item row once and adds the flights row ({@link startFlight}); leaving it (held, ended, queued
 * again) deletes the flights row and writes its columns, the patch's over them, to the item row
 * once ({@link landFlight}). `from` is the record the caller read in this transaction (its place
 * remembered); without it the item is looked up.
 */
export async function updateItem(c: pg.ClientBase, batchId: string, id: string, patch: ItemPatch, at: string, from?: ItemRecord): Promise<ItemRecord> {
  let where = from ? whereIs(from) : null;
  if (!where) {
    const cur = await getItem(c, batchId, id);
    if (!cur) throw new Error(`item ${batchId}/${id} not found`);
    where = whereIs(cur)!;
  }
  const nextState = (patch.state as string | undefined) ?? null;
  const staysInFlight = where.flying && (nextState === null || ACTIVE_STATES.includes(nextState as ItemState));
  if (staysInFlight) return patchFlight(c, batchId, id, where, patch, at, from);
  const entering = nextState !== null && ACTIVE_STATES.includes(nextState as ItemState);
  const i = await landFlight(c, batchId, id, where, patch, at, entering);
  if (!entering) return itemFromParts(batchId, i, null);
  return startFlight(c, batchId, where, i, nextState);
}

/** A step in flight: the item's flight written, fenced by the token of `from` (null: any); the item as it is now. */
export async function patchFlight(c: pg.ClientBase, batchId: string, id: string, where: Located, patch: ItemPatch, at: string, from?: ItemRecord): Promise<ItemRecord> {
  // Only the flight's columns change in flight; any other (a model run's started_at) goes to the item row.
  // An item column the patch leaves as read (a run's `hold_reason: null`) is not written.
  const fl = Object.keys(patch).filter(isFlightColumn);
  const rest = Object.keys(patch).filter((k) => !isFlightColumn(k) && stored(patch[k as keyof ItemPatch]) !== where.row[k as keyof ItemRow]);
  const fv = fl.map((k) => stored(patch[k as keyof ItemPatch]));
  // Fenced: the flight is written only while it has the token of the record read (null: any).
  const f = await one<Record<string, unknown>>(
    c,
    `UPDATE flights SET ${[...fl.map((k, n) => `${k} = $${n + 1}`), `updated_at = $${fl.length + 1}`].join(', ')}
     WHERE item_key = $${fl.length + 2} AND fence = coalesce($${fl.length + 3}::bigint, fence) RETURNING *`,
    [...fv, at, where.key, from?.fence ?? null],
  );
  if (!f) throw leaseLost(id, await getItem(c, batchId, id), from ?? { owner: null, fence: -1 });
  // The item's row unchanged: the one read in this transaction, the flight laid over it.
  const i = rest.length
    ? await one<KeyedRow>(c, `UPDATE items SET ${rest.map((k, n) => `${k} = $${n + 1}`).join(', ')} WHERE key = $${rest.length + 1} RETURNING *`, [
        ...rest.map((k) => stored(patch[k as keyof ItemPatch])),
        where.key,
      ])
    : where.row;
  return itemFromParts(batchId, i!, f);
}

/**
 * The item row written once: the flight's columns (when leaving flight: its row deleted in the
 * same statement) with the patch over them; `entering` flight, its row takes the mark. Returns the row.
 */
export async function landFlight(c: pg.ClientBase, batchId: string, id: string, where: Located, patch: ItemPatch, at: string, entering: boolean): Promise<KeyedRow> {
  const values: Record<string, string> = {};
  const params: unknown[] = [where.key];
  const p = (v: unknown): string => {
    params.push(v);
    return `$${params.length}`;
  };
  if (where.flying) for (const k of LANDED_COLUMNS) values[k] = `gone.${k}`;
  // An item in flight has the mark on its row; its state is its flight's.
  for (const [k, v] of Object.entries(patch)) values[k] = p(entering && k === 'state' ? IN_FLIGHT_MARK : stored(v));
  values.updated_at = p(at);
  const sets = Object.entries(values).map(([k, v]) => `${k} = ${v}`).join(', ');
  const i = await one<KeyedRow>(
    c,
    where.flying
      ? `WITH gone AS (DELETE FROM flights WHERE item_key = $1 RETURNING *)
         UPDATE items AS i SET ${sets} FROM gone WHERE i.key = gone.item_key RETURNING i.*`
      : `UPDATE items AS i SET ${sets} WHERE i.key = $1 RETURNING i.*`,
    params,
  );
  if (!i) throw new Error(`item ${batchId}/${id} not found`);
  return i;
}

/** Entering flight (an answer to a held item, a model run sent): the flights row from the row just written (`i`), in `state`. */
export async function startFlight(c: pg.ClientBase, batchId: string, where: Located, i: KeyedRow, state: string): Promise<ItemRecord> {
  const f = await one<Record<string, unknown>>(
    c,
    `INSERT INTO flights (item_key, batch_num, ${FLIGHT_COLUMNS.join(', ')})
     SELECT key, batch_num, ${flightSelect({ state: '$2' })} FROM items WHERE key = $1 RETURNING *`,
    [where.key, state],
  );
  return itemFromParts(batchId, i, f);
}
