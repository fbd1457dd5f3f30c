import { stateOf, UNFINISHED_ROWS } from './flights.js';
import type { ThreadWaits } from '../roles/reads.js';
import type { ItemState } from '../item-states.js';

/**
 * The queued items that wait behind an unfinished earlier item of their thread, each with the
 * item it waits behind (the first unfinished item of the thread, its state as readers see it),
 * as standard SQL both adapters run. `batchNum`: the batch's integer key as an SQL expression
 * (bound once, used three times); `itemId`: a bound parameter naming the one item to read, if
 * any. Columns `id`, `seq`, `thread_key`, `behind_id`, `behind_state`.
 */
export function threadWaitsSql(batchNum: string, itemId?: string): string {
  return `WITH heads AS (
      SELECT thread_key, MIN(seq) AS seq FROM items
      WHERE batch_num = ${batchNum} AND thread_key IS NOT NULL AND state IN ${UNFINISHED_ROWS}
      GROUP BY thread_key
    )
    SELECT q.id AS id, q.seq AS seq, q.thread_key AS thread_key, hi.id AS behind_id, ${stateOf('hi', 'f')} AS behind_state
    FROM heads h
    JOIN items hi ON hi.batch_num = ${batchNum} AND hi.thread_key = h.thread_key AND hi.seq = h.seq
    LEFT JOIN flights f ON f.item_key = hi.key
    JOIN items q ON q.batch_num = ${batchNum} AND q.thread_key = h.thread_key AND q.seq > h.seq AND q.state = 'queued'${itemId ? ` AND q.id = ${itemId}` : ''}`;
}

/** A row of {@link threadWaitsSql}. */
export interface ThreadWaitRow {
  id: string;
  thread_key: string;
  behind_id: string;
  behind_state: string;
}

/** {@link ThreadWaits} from the counts by the waited-on item's state and the first rows. */
export function threadWaitsOf(counts: readonly { state: string; n: number | string }[], rows: readonly ThreadWaitRow[]): ThreadWaits {
  const byState: ThreadWaits['byState'] = {};
  for (const c of counts) byState[c.state as ItemState] = Number(c.n);
  return { byState, first: rows.map((r) => ({ id: r.id, threadKey: r.thread_key, behindId: r.behind_id, behindState: r.behind_state as ItemState })) };
}
