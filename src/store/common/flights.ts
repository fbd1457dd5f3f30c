import { ACTIVE_STATES, type ItemState, sqlStates, UNFINISHED_STATES, zeroCounts } from '../item-states.js';

/**
 * An item's life in flight, as both adapters keep it: while a worker carries an
 * item, the state it has only then (owner, fencing token, lease, pending key, run id, step,
 * the time it started…) lives in a narrow table `flights` keyed by the item's integer key,
 * written on every transition; the item's own row is written when it is queued, held and
 * ended, never when it is claimed: a claim inserts the flight alone, and the row stays as it
 * was queued ({@link IN_FLIGHT_MARK}). An item with a flight is not queued, whatever its row
 * says ({@link queuedRow}). Readers overlay the flight on the item ({@link itemColumns}), so
 * every reader sees the item as before. Pure: names and SQL text only.
 */

/**
 * The `items.state` of an item whose life in flight is in `flights`: `queued`, as it was
 * queued (a claim leaves the row alone; an item entering flight from another state, a held
 * item answered, takes it). Never shown: readers overlay the flight's state.
 */
export const IN_FLIGHT_MARK = 'queued';

/**
 * The condition that an item's row (alias `i`) is queued as readers see it: its row says
 * `queued` and it has no flight. Standard SQL (a seek in the flights' primary key).
 */
export function queuedRow(i = 'i'): string {
  return `${i}.state = 'queued' AND NOT EXISTS (SELECT 1 FROM flights nf WHERE nf.item_key = ${i}.key)`;
}

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
  'started_at',
  'updated_at',
] as const;

export type FlightColumn = (typeof FLIGHT_COLUMNS)[number];

const FLIGHT_SET: ReadonlySet<string> = new Set(FLIGHT_COLUMNS);

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
 * spelled so the condition seeks SQLite's partial index flights_unsent (the index's own condition).
 */
export function runNotGoing(f = ''): string {
  const p = f ? `${f}.` : '';
  return `${p}owner IS NULL AND ${p}lease_until IS NULL AND ${p}state = 'waiting'`;
}

/** The item columns that never change in flight, read from the item's row as they are. */
const ITEM_ONLY = ['id', 'seq', 'line', 'question', 'thread_key', 'meta', 'expected', 'error', 'error_code', 'hold_reason', 'finished_at', 'attempt'] as const;

/**
 * An item column as readers see it, as an SQL expression: the flight's (`f`, LEFT JOINed on
 * the item's key) while the item is in flight, else the item row's (`i`). A column the
 * flight does not carry is the item row's alone. Standard SQL.
 */
export function overFlight(c: string, i = 'i', f = 'f'): string {
  return FLIGHT_SET.has(c) ? `CASE WHEN ${f}.item_key IS NULL THEN ${i}.${c} ELSE ${f}.${c} END` : `${i}.${c}`;
}

/** Whether `c` is a column the flight carries (one of {@link FLIGHT_COLUMNS}). */
export function isFlightColumn(c: string): c is FlightColumn {
  return FLIGHT_SET.has(c);
}

/**
 * The select list of an item as readers see it: the item's row (`i`) with its flight (`f`)
 * laid over it column for column ({@link overFlight}), under the items column names (the
 * shared ItemRow) but `batch_id`, which the caller gives (the items' rows name their batch by
 * its integer `batch_num` since 020). Standard SQL.
 */
export function itemColumns(i = 'i', f = 'f'): string {
  return [...ITEM_ONLY.map((c) => `${i}.${c}`), ...FLIGHT_COLUMNS.map((c) => `${overFlight(c, i, f)} AS ${c}`)].join(', ');
}

/** The item's state as readers see it, as an SQL expression. */
export function stateOf(i = 'i', f = 'f'): string {
  return overFlight('state', i, f);
}

/**
 * The same overlay in JavaScript, for an item row and its flight read apart (the flight's
 * columns named `prefix` + column): each column the flight carries is the flight's.
 */
export function layFlight<R extends Record<string, unknown>>(row: R, flight: Record<string, unknown>, prefix = ''): R {
  const out = row as Record<string, unknown>;
  for (const c of FLIGHT_COLUMNS) out[c] = flight[prefix + c];
  return row;
}

/** The flight's columns an item's row takes when its flight lands (all but `updated_at`, which the landing stamps). */
export const LANDED_COLUMNS: readonly FlightColumn[] = FLIGHT_COLUMNS.filter((c) => c !== 'updated_at');

/**
 * The select list of a new flight row in {@link FLIGHT_COLUMNS} order, for an
 * `INSERT INTO flights (item_key, batch_num, <FLIGHT_COLUMNS>) SELECT <key>, <num>, <this>`:
 * each column as `values` gives it, else the same-named column of the source row.
 */
export function flightSelect(values: Partial<Record<FlightColumn, string>>): string {
  return FLIGHT_COLUMNS.map((c) => values[c] ?? c).join(', ');
}

/**
 * The `items.state` values that hold items in `states` as readers see them: the states
 * themselves and, when any is a state in flight, the mark (the flight tells which).
 */
export function storedStates(states: readonly ItemState[]): string[] {
  const out: string[] = [...states];
  if (states.some((s) => ACTIVE_STATES.includes(s)) && !out.includes(IN_FLIGHT_MARK)) out.push(IN_FLIGHT_MARK);
  return out;
}

/** The `items.state` values of an unfinished item, the mark of one in flight among them, as an SQL list. */
export const UNFINISHED_ROWS = sqlStates(storedStates(UNFINISHED_STATES));

/**
 * The counts by state readers see: the kept counts of the items' rows (an item in flight kept
 * under its row's {@link IN_FLIGHT_MARK}; a kept row of no item state, SQLite's count of its
 * flights, left out) and the flights of the batch counted by their state, taken from the mark.
 */
export function countsOf(kept: readonly { state: string; n: number | string }[], flying: readonly { state: string; n: number | string }[]): Record<ItemState, number> {
  const out = zeroCounts();
  for (const r of kept) if (r.state in out) out[r.state as ItemState] += Number(r.n);
  for (const r of flying) {
    out[r.state as ItemState] += Number(r.n);
    out[IN_FLIGHT_MARK] -= Number(r.n);
  }
  return out;
}
