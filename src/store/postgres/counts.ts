import type { Queryable } from './pool.js';
import { countsOf, runGoing } from '../common/flights.js';
import { ACTIVE_STATES, sqlStates } from '../item-states.js';
import type { ItemState } from '../types.js';
import { all, BATCH_NUM, scalar } from './sql.js';

/**
 * The counts by state of the PostgreSQL adapter. The items table's counts are kept by the
 * triggers of migration 012 (one row per server backend that changed the batch, summed), and
 * change only when an item row is written: queued, claimed (to the mark of an item in flight),
 * held, ended. The states in flight are counted from `flights` (at most the batch's
 * concurrency rows, index flights_for_claim). Both in one statement (one snapshot).
 */
export async function itemCounts(c: Queryable, batchId: string): Promise<Record<ItemState, number>> {
  const rows = await all<{ src: 'kept' | 'flying'; state: string; n: number }>(
    c,
    `SELECT 'kept' AS src, state, sum(n) AS n FROM item_counts WHERE batch_num = ${BATCH_NUM('$1')} GROUP BY state
     UNION ALL
     SELECT 'flying', state, count(*) FROM flights WHERE batch_num = ${BATCH_NUM('$1')} GROUP BY state`,
    [batchId],
  );
  return countsOf(rows.filter((r) => r.src === 'kept'), rows.filter((r) => r.src === 'flying'));
}

/**
 * Runs in flight for the web view: the flights of the batch less the answered items no worker
 * has sent yet, and any item in a state in flight with no flight (written behind the store's back).
 */
export async function runsInFlight(c: Queryable, batchId: string): Promise<number> {
  return Number(
    await scalar<string | number>(
      c,
      `SELECT coalesce((SELECT sum(n) FROM item_counts WHERE batch_num = ${BATCH_NUM('$1')} AND state IN ${sqlStates(ACTIVE_STATES)}), 0)
         + (SELECT count(*) FROM flights WHERE batch_num = ${BATCH_NUM('$1')} AND ${runGoing()})`,
      [batchId],
    ),
  );
}
