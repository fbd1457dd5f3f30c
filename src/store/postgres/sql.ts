import type { Queryable } from './pool.js';
import type pg from 'pg';
import { isoNow } from '../../clock.js';
import { FLIGHT_COLUMNS, type FlightColumn, IN_FLIGHT_MARK, isFlightColumn, layFlight, overFlight, storedStates } from '../common/flights.js';
import { itemFromRow, type ItemRow } from '../rows/records.js';
import type { ItemRecord, ItemState } from '../types.js';
import { ACTIVE_STATES } from '../item-states.js';

const names = new Map<string, string>();

/**
 * Marks a statement every run sends (a claim's, a transition's): prepared once per connection
 * under a name of its own, so the server parses and plans it once, not on every run. The text
 * is returned as it is; the few shapes a statement takes (the columns a transition sets) each
 * get a name.
 */
export function hot(text: string): string {
  if (!names.has(text)) names.set(text, `resq_${names.size}`);
  return text;
}

/** A statement as sent: by its name when it is {@link hot}. */
function statement(text: string, values: unknown[], rowMode?: 'array'): pg.QueryConfig {
  const name = names.get(text);
  return { ...(name ? { name } : {}), text, values, ...(rowMode ? { rowMode } : {}) };
}

/** Rows of a query. */
export async function all<T>(c: Queryable, text: string, params: unknown[] = []): Promise<T[]> {
  return (await c.query(statement(text, params))).rows as T[];
}

/** The first row of a query, or null. */
export async function one<T>(c: Queryable, text: string, params: unknown[] = []): Promise<T | null> {
  return ((await c.query(statement(text, params))).rows[0] as T | undefined) ?? null;
}

/** The first column of the first row. */
export async function scalar<T>(c: Queryable, text: string, params: unknown[] = []): Promise<T> {
  const r = await c.query(statement(text, params, 'array'));
  return r.rows[0]?.[0] as T;
}

/**
 * Ends a client's transaction once (COMMIT or ROLLBACK) and gives the client back to its
 * pool; later calls do nothing, so an error path and a caller's rollback cannot end it twice.
 */
export function transactionEnd(c: pg.PoolClient): (sql: 'COMMIT' | 'ROLLBACK') => Promise<void> {
  let open = true;
  return async (sql) => {
    if (!open) return;
    open = false;
    try {
      await c.query(sql);
    } finally {
      c.release();
    }
  };
}

/** The integer key of a batch inside a statement (`param` its text id): common/batch-num.ts, as the SQLite adapter's. */
export { batchNumOf as BATCH_NUM } from '../common/batch-num.js';

/**
 * The statements of a claim and of a transition, each {@link hot}: prepared once per
 * connection. Their texts are constant (or take one of a few shapes): claims.ts,
 * transitions.ts and flights.ts send theirs through these.
 */
export const prepared = {
  all: <T>(c: Queryable, text: string, params: unknown[] = []): Promise<T[]> => all<T>(c, hot(text), params),
  one: <T>(c: Queryable, text: string, params: unknown[] = []): Promise<T | null> => one<T>(c, hot(text), params),
  scalar: <T>(c: Queryable, text: string, params: unknown[] = []): Promise<T> => scalar<T>(c, hot(text), params),
  exec: <T extends pg.QueryResultRow = pg.QueryResultRow>(c: Queryable, text: string, params: unknown[] = []): Promise<pg.QueryResult<T>> =>
    c.query<T>(statement(hot(text), params)),
};

/** The text time a claim writes: the caller's (a test clock's) ms, else the store's clock. */
export const stamp = (now: number | null): string => (now === null ? isoNow() : new Date(now).toISOString());

/**
 * The time a lease or heartbeat is written with, in ms since the epoch: the database's own
 * clock as the statement runs (clock_timestamp(), not the transaction's start), unless the
 * caller gives a time of its own ($n, a test's clock). Never a time read on the worker before
 * the statement: after a stall (a black-holed connection, a frozen process) a lease written
 * so would land already expired, and the worker's items would go to another worker at once.
 */
export const dbNow = (param: string): string => `coalesce(${param}::bigint, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)`;

// How an item is read, PostgreSQL adapter (migration 019): joined with its `flights` row, the
// flight's columns laid over the item's row, and remembered with where it lives (flights.ts
// writes it back by its key).

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
