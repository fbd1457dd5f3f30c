import type pg from 'pg';
import type { Queryable } from './pool.js';
import { FLIGHT_COLUMNS, type FlightColumn, IN_FLIGHT_MARK, isFlightColumn, LANDED_COLUMNS, flightSelect, layFlight, overFlight, storedStates } from '../common/flights.js';
import { ACTIVE_STATES } from '../item-states.js';
import { itemFromRow, type ItemRow } from '../rows/records.js';
import type { ItemRecord, ItemState } from '../types.js';
import { BATCH_NUM, prepared } from './sql.js';
import { leaseLost } from '../common/fencing.js';

/** Sent prepared: parsed and planned once per connection (sql.ts `hot`). */
const { one } = prepared;

/**
 * An item and its life in flight, PostgreSQL adapter (migration 019): every read of an item
 * joins its `flights` row and lays the flight's columns over the item's row; every transition
 * writes the flight alone while the item stays in flight, and the item's row when it enters
 * flight, is held or ends. Transitions: src/store/postgres/transitions.ts; claims: claims.ts.
 */

/*
 * The columns a flight carries and how it lays over its item: common/flights.ts, as in the
 * SQLite adapter. The `flights` table of 019 has a `hold_reason` column too; it is the item
 * row's alone (an item in flight is held by none), so the flight's stays null.
 */

/**
 * An item as read with its flights row: the item's row, its key, and the flight's columns
 * prefixed `f_` (null: not in flight). The row has no batch id (020: the batch's integer key
 * only): the reader gives the one it read by ({@link itemFromJoined}).
 */
export type JoinedRow = Omit<ItemRow, 'batch_id'> & { key: number; batch_num: number } & Partial<Record<`f_${FlightColumn}` | 'f_item_key' | 'f_batch_num', unknown>>;
/** An items row as RETURNING gives it (no batch id since 020) and its key. */
export type KeyedRow = Omit<ItemRow, 'batch_id'> & { key: number; batch_num: number };

/** The FROM of every read of items: each item with its flights row when it has one (alias i, f). */
export const ITEMS_FROM = 'items i LEFT JOIN flights f ON f.item_key = i.key';
/** The SELECT list matching ITEMS_FROM, read back with {@link itemFromJoined}. */
export const ITEM_COLS = `i.*, f.item_key AS f_item_key, f.batch_num AS f_batch_num, ${FLIGHT_COLUMNS.map((c) => `f.${c} AS f_${c}`).join(', ')}`;
/** An item column as readers see it: the flight's while the item is in flight, else the item row's. */
export const col = (c: string): string => (isFlightColumn(c) ? `(${overFlight(c)})` : overFlight(c));

/** Where an item is: its key, its batch's number, whether it is in flight. */
export interface Located {
  key: number;
  batchNum: number;
  flying: boolean;
  /** The item's row as read (its own columns; a flight's are laid over them on return). */
  row: ItemRow & { key: number; batch_num: number };
}
const located = new WeakMap<ItemRecord, Located>();

/** Where a record read by this adapter lives (null for a record built elsewhere). */
export function whereIs(item: ItemRecord): Located | null {
  return located.get(item) ?? null;
}

/** The integer key of the batch of a record this adapter read (every transition's record is). */
export function numOf(item: ItemRecord): number {
  const w = located.get(item);
  if (!w) throw new Error(`item ${item.batchId}/${item.id} was not read by this store`);
  return w.batchNum;
}

/** The item row with its flight's columns over it, as every reader saw it before `flights`, with the batch id it was read by. */
export function flatRow(r: JoinedRow, batchId: string): ItemRow & { key: number; batch_num: number } {
  const flying = r.f_item_key !== null && r.f_item_key !== undefined;
  const out: Record<string, unknown> = { batch_id: batchId };
  for (const [k, v] of Object.entries(r)) if (!k.startsWith('f_')) out[k] = v;
  if (flying) layFlight(out, r, 'f_');
  return out as unknown as ItemRow & { key: number; batch_num: number };
}

/** The record of a joined row of the batch `batchId`, remembered with where it lives. */
export function itemFromJoined(r: JoinedRow, batchId: string): ItemRecord {
  const row = flatRow(r, batchId);
  const item = itemFromRow(row);
  const flying = r.f_item_key !== null && r.f_item_key !== undefined;
  located.set(item, { key: Number(r.key), batchNum: Number(r.batch_num), flying, row });
  return item;
}

/** The record of an item row of the batch `batchId` and its (new) flights row, as RETURNING gives them. */
export function itemFromParts(batchId: string, r: KeyedRow, f: Record<string, unknown> | null): ItemRecord {
  const i = { ...r, batch_id: batchId };
  const item = itemFromRow((f ? layFlight({ ...i }, f) : i) as ItemRow);
  located.set(item, { key: Number(i.key), batchNum: Number(r.batch_num), flying: f !== null, row: i });
  return item;
}

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
 * and after) only its `flights` row is written; entering flight writes the item row once and
 * adds the flights row; leaving it (held, ended, queued again) deletes the flights row and
 * writes its columns, the patch's over them, to the item row once. `from` is the record the
 * caller read in this transaction (its place remembered); without it the item is looked up.
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
  if (staysInFlight) {
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
  // The item row is written once: the flight's columns (when leaving flight: its row deleted
  // in the same statement) with the patch over them.
  const values: Record<string, string> = {};
  const params: unknown[] = [where.key];
  const p = (v: unknown): string => {
    params.push(v);
    return `$${params.length}`;
  };
  if (where.flying) for (const k of LANDED_COLUMNS) values[k] = `gone.${k}`;
  const entering = nextState !== null && ACTIVE_STATES.includes(nextState as ItemState);
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
  if (!entering) return itemFromParts(batchId, i, null);
  // Entering flight (an answer to a held item, a model run sent): the flights row from the row just written.
  const f = await one<Record<string, unknown>>(
    c,
    `INSERT INTO flights (item_key, batch_num, ${FLIGHT_COLUMNS.join(', ')})
     SELECT key, batch_num, ${flightSelect({ state: '$2' })} FROM items WHERE key = $1 RETURNING *`,
    [where.key, nextState],
  );
  return itemFromParts(batchId, i, f);
}

/**
 * The condition that an item (ITEMS_FROM) is in one of `states`, `arg` binding a value. An
 * item in flight keeps its row as queued (the mark): states none of which is queued nor in
 * flight are the item row's alone (the filter goes below the join, an index of the items table
 * serves it); with queued among them, the row's state narrows the rows and the flight tells
 * theirs; with states in flight but not queued, the items at rest come through the state index
 * and those in flight through their flights' keys (never a walk of the queued rows).
 */
export function statesWhere(arg: (v: unknown) => string, states: readonly string[]): string {
  const rows = storedStates(states as readonly ItemState[]);
  if (!rows.includes(IN_FLIGHT_MARK)) return `i.state = ANY(${arg(rows)})`;
  const exact = `${col('state')} = ANY(${arg(states)})`;
  if (states.includes(IN_FLIGHT_MARK)) return `(i.state = ANY(${arg(rows)}) AND ${exact})`;
  const flying = states.filter((s) => ACTIVE_STATES.includes(s as ItemState));
  return `(${exact} AND ((i.state = ANY(${arg(states)}) AND i.state <> 'queued')
    OR i.key = ANY(ARRAY(SELECT item_key FROM flights WHERE state = ANY(${arg(flying)})))))`;
}
