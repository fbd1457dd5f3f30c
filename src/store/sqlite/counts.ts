import { ACTIVE_STATES, type ItemState, sqlStates } from '../item-states.js';
import type { SqliteContext } from './database.js';
import { batchNumOf } from './statement-cache.js';
import { countsOf, runNotGoing } from '../common/flights.js';

// The counts of a batch's items: by state (exact, for the overview of a 1,000,000-item batch)
// and in flight (for claims and the live view).

/**
 * Runs in flight over every worker (`@batch`: the batch id): items whose run is (or may be)
 * going at the service. An answered (`waiting`) item counts once a worker has held it, since
 * its respond may have been sent (a worker that held it and died leaves `lease_until` set,
 * owner gone). One a person answered and no worker held yet waits for a slot like a queued
 * one: its run ended. Read from the counts the triggers of migration 012 keep by state (a row
 * sent unclaimed by its own state) and of 030 keep of the flights (the row 'flight'), less those
 * answered items: a seek in flights_unsent (owner and lease null, waiting), so a claim costs the
 * same at any number of runs in flight.
 */
const IN_FLIGHT = `SELECT coalesce((SELECT sum(n) FROM item_counts WHERE batch_num = ${batchNumOf('@batch')} AND state IN ${sqlStates(ACTIVE_STATES).slice(0, -1)}, 'flight')), 0)
  - (SELECT count(*) FROM flights INDEXED BY flights_unsent
       WHERE batch_num = ${batchNumOf('@batch')} AND ${runNotGoing()})`;

/** Runs in flight over every worker ({@link IN_FLIGHT}): what claims count against the cap and the live view shows. */
export function runsInFlight(cx: SqliteContext, batchId: string): number {
  return cx.stmt.get(IN_FLIGHT).pluck().get({ batch: batchId }) as number;
}

/**
 * Item counts by state: the rows the triggers of migration 012 keep (an item in flight counted
 * by its row, queued) and the batch's flights by their state (at most its runs in flight).
 */
export function itemCounts(cx: SqliteContext, batchId: string): Record<ItemState, number> {
  const kept = cx.stmt.get(`SELECT state, n FROM item_counts WHERE batch_num = ${batchNumOf()}`).all(batchId) as { state: string; n: number }[];
  const flying = cx.stmt.get(
    `SELECT state, count(*) AS n FROM flights WHERE batch_num = ${batchNumOf()} GROUP BY state`,
  ).all(batchId) as { state: string; n: number }[];
  return countsOf(kept, flying);
}
