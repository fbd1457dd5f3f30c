import { ACTIVE_STATES, type ItemState, sqlStates, UNFINISHED_STATES, zeroCounts } from '../item-states.js';

/**
 * An item's life in flight, as both adapters keep it: while a worker carries an
 * item, the state it has only then (owner, fencing token, lease, pending key, run id, step…)
 * lives in a narrow table `flights` keyed by the item's integer key, written on every
 * transition; the item's own row is written when it is queued, claimed (it takes the mark
 * {@link IN_FLIGHT_MARK}), held and ended. Readers overlay the flight on the item
 * ({@link itemColumns}), so every reader sees the item as before. Pure: names and SQL text only.
 */

/** The `items.state` of an item whose life in flight is in `flights` (never shown: readers overlay the flight's state). */
export const IN_FLIGHT_MARK = 'flight';

/** The columns an item's flight carries, by their items column name (same names in `flights`). */
export const FLIGHT_COLUMNS = [
  'state',
  'step',
  'pending_key',
  'pending_answer',
  'run_id',
  'thread_id',
  'run_status',
  'text',
  'owner',
  'lease_until',
  'fence',
  'updated_at',
] as const;

export type FlightColumn = (typeof FLIGHT_COLUMNS)[number];

/**
 * The condition on a `flights` row (alias `f`, none when '') that its run is going at the
 * service, so it takes a slot of the batch's cap: every flight but an answered (`waiting`)
 * item no worker has held yet. A worker that held one may have sent its respond (one that
 * gave it up or died leaves `lease_until` set, 0 or past), so it counts from then on.
 */
export function runGoing(f = ''): string {
  const p = f ? `${f}.` : '';
  return `(${p}state <> 'waiting' OR ${p}lease_until IS NOT NULL)`;
}

/**
 * The condition that a flight's run is not going: exactly NOT {@link runGoing}. `owner IS NULL`
 * adds nothing (a lease is set with its owner and kept, 0 or past, when the owner goes) but is
 * spelled so the condition seeks SQLite's flights_for_leases (batch_num, owner, lease_until).
 */
export function runNotGoing(f = ''): string {
  const p = f ? `${f}.` : '';
  return `${p}owner IS NULL AND ${p}lease_until IS NULL AND ${p}state = 'waiting'`;
}

/** The item columns that never change in flight, read from the item's row as they are. */
const ITEM_ONLY = ['id', 'seq', 'line', 'question', 'thread_key', 'meta', 'error', 'error_code', 'hold_reason', 'started_at', 'finished_at', 'attempt'] as const;

/**
 * The select list of an item as readers see it: the item's row (`i`) with its flight (`f`,
 * LEFT JOINed on the item's key) laid over it, column for column, under the items column
 * names (the shared ItemRow) but `batch_id`, which the caller gives (the items' rows name
 * their batch by its integer `batch_num` since 020). Standard SQL.
 */
export function itemColumns(i = 'i', f = 'f'): string {
  const flight = FLIGHT_COLUMNS.map((c) => `CASE WHEN ${f}.item_key IS NULL THEN ${i}.${c} ELSE ${f}.${c} END AS ${c}`);
  return [...ITEM_ONLY.map((c) => `${i}.${c}`), ...flight].join(', ');
}

/** The item's state as readers see it, as an SQL expression. */
export function stateOf(i = 'i', f = 'f'): string {
  return `CASE WHEN ${f}.item_key IS NULL THEN ${i}.state ELSE ${f}.state END`;
}

/**
 * The `items.state` values that hold items in `states` as readers see them: the states
 * themselves and, when any is a state in flight, the mark (the flight tells which).
 */
export function storedStates(states: readonly ItemState[]): string[] {
  const out: string[] = [...states];
  if (states.some((s) => ACTIVE_STATES.includes(s))) out.push(IN_FLIGHT_MARK);
  return out;
}

/** The `items.state` values of an unfinished item, the mark of one in flight among them, as an SQL list. */
export const UNFINISHED_ROWS = sqlStates(storedStates(UNFINISHED_STATES));

/**
 * The counts by state readers see: the kept counts of the items' rows (the mark left out)
 * and the flights of the batch counted by their state.
 */
export function countsOf(kept: readonly { state: string; n: number }[], flying: readonly { state: string; n: number }[]): Record<ItemState, number> {
  const out = zeroCounts();
  for (const r of kept) if (r.state !== IN_FLIGHT_MARK) out[r.state as ItemState] += Number(r.n);
  for (const r of flying) out[r.state as ItemState] += Number(r.n);
  return out;
}
