import type { ReadStore } from '../store/roles/reads.js';

// Whether a batch ever sent anything to its service: a `--sim` batch that sent nothing (a dry
// run, say) needs no simulator state to go on, since it has no runs to be unknown.

/** Items read per page while looking for one that reached the service. */
const PAGE = 1000;

/**
 * True when nothing of the batch ever reached its service: every item is queued or cancelled
 * with no run (of any attempt) and no thread recorded (a `run --dry-run` leaves it so). Reads only.
 */
export async function batchSentNothing(store: Pick<ReadStore, 'itemCounts' | 'aggregates'>, batchId: string): Promise<boolean> {
  const counts = await store.itemCounts(batchId);
  if (Object.entries(counts).some(([state, n]) => n > 0 && state !== 'queued' && state !== 'cancelled')) return false;
  for (let afterSeq = -1; ; ) {
    // Every run the store holds counts (a retried item's earlier runs included), not only the latest.
    const page = await store.aggregates(batchId, afterSeq, PAGE, ['queued', 'cancelled']);
    if (page.some((a) => a.runIds.length > 0 || a.item.runId !== null || a.item.threadId !== null)) return false;
    if (page.length < PAGE) return true;
    afterSeq = page[page.length - 1]!.item.seq;
  }
}
