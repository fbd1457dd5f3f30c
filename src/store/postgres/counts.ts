import type { Queryable } from './pool.js';
import { zeroCounts } from '../item-states.js';
import type { ItemState } from '../types.js';
import { all, BATCH_NUM, scalar } from './sql.js';

/**
 * The counts by state of the PostgreSQL adapter. The items table's counts are kept by the
 * triggers of migration 012 (one row per server backend that changed the batch, summed), and
 * change only when an item row is written: queued, claimed, held, ended. An item in flight
 * keeps on its row the state it entered flight in; its state now is its `flights` row's, so the
 * states in flight are read from `flights` (at most the batch's concurrency rows, index
 * flights_for_claim): each flight moves one item from its row's state to its flight's.
 */
export async function itemCounts(c: Queryable, batchId: string): Promise<Record<ItemState, number>> {
  const out = zeroCounts();
  const rows = await all<{ state: ItemState; n: number }>(
    c,
    `SELECT state, sum(n) AS n FROM (
       SELECT state, n FROM item_counts WHERE batch_id = $1
       UNION ALL
       SELECT i.state, -1 FROM flights f JOIN items i ON i.key = f.item_key WHERE f.batch_num = ${BATCH_NUM('$1')}
       UNION ALL
       SELECT f.state, 1 FROM flights f WHERE f.batch_num = ${BATCH_NUM('$1')}) t
     GROUP BY state`,
    [batchId],
  );
  for (const r of rows) out[r.state] = Number(r.n);
  return out;
}

/**
 * Runs in flight for the web view: the kept counts of the states in flight, less the answered
 * items no worker has sent yet (read from `flights`), in one statement (one snapshot).
 */
export async function runsInFlight(c: Queryable, batchId: string): Promise<number> {
  return Number(
    await scalar<string | number>(
      c,
      `SELECT coalesce((SELECT sum(n) FROM item_counts WHERE batch_id = $1 AND state IN ('submitting', 'running', 'waiting')), 0)
         - (SELECT count(*) FROM flights WHERE batch_num = ${BATCH_NUM('$1')} AND state = 'waiting' AND lease_until IS NULL)`,
      [batchId],
    ),
  );
}
