import { queuedRow, stateOf, UNFINISHED_ROWS } from './flights.js';
import type { ThreadWaits } from '../roles/reads.js';
import type { ItemState } from '../item-states.js';

/** Which thread waits to read: one item's (`item`: a bound parameter naming it), or only those behind a held item. */
export interface ThreadWaitsScope {
  item?: string | undefined;
  /** Only the items behind a held item: read from the held items (few) up, never every thread. */
  heldOnly?: boolean | undefined;
}

/**
 * The queued items that wait behind an unfinished earlier item of their thread, each with the
 * item it waits behind (the first unfinished item of the thread, its state as readers see it),
 * as standard SQL both adapters run. `batchNum`: the batch's integer key as an SQL expression
 * (bound once, used several times). Columns `id`, `seq`, `thread_key`, `behind_id`, `behind_state`.
 */
export function threadWaitsSql(batchNum: string, scope: ThreadWaitsScope = {}): string {
  // A held item has no flight: its row says `held`, found through the state index (`<> 'queued'`:
  // the partial index's own condition, for SQLite's planner; one without a thread joins no item).
  const heads = scope.heldOnly
    ? `SELECT thread_key, seq FROM items x
      WHERE x.batch_num = ${batchNum} AND x.state <> 'queued' AND x.state = 'held'
        AND NOT EXISTS (SELECT 1 FROM items e WHERE e.batch_num = ${batchNum} AND e.thread_key = x.thread_key AND e.seq < x.seq AND e.state IN ${UNFINISHED_ROWS})`
    : `SELECT thread_key, MIN(seq) AS seq FROM items
      WHERE batch_num = ${batchNum} AND thread_key IS NOT NULL AND state IN ${UNFINISHED_ROWS}${
        // One item: its own thread only, not every thread of the batch.
        scope.item ? ` AND thread_key = (SELECT t.thread_key FROM items t WHERE t.batch_num = ${batchNum} AND t.id = ${scope.item})` : ''
      }
      GROUP BY thread_key`;
  // Materialized: the few heads first, so no planner starts from every queued item.
  return `WITH heads AS ${scope.heldOnly ? 'MATERIALIZED ' : ''}(${heads})
    SELECT q.id AS id, q.seq AS seq, q.thread_key AS thread_key, hi.id AS behind_id, ${stateOf('hi', 'f')} AS behind_state
    FROM heads h
    JOIN items hi ON hi.batch_num = ${batchNum} AND hi.thread_key = h.thread_key AND hi.seq = h.seq
    LEFT JOIN flights f ON f.item_key = hi.key
    JOIN items q ON q.batch_num = ${batchNum} AND q.thread_key = h.thread_key AND q.seq > h.seq AND ${queuedRow('q')}${scope.item ? ` AND q.id = ${scope.item}` : ''}`;
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
