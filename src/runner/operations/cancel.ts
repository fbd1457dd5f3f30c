import { CancelUnsupportedError } from '../../api/errors.js';
import { type Clock, systemClock } from '../../clock.js';
import type { ServiceClient } from '../../api/index.js';
import { ACTIVE_STATES } from '../../store/item-states.js';
import type { BatchRecord, ItemRecord, ReadStore, TransitionStore } from '../../store/index.js';

/** What cancelling a batch did. */
export interface CancelReport {
  batch: string;
  /** Queued items that will never be sent. */
  queued: number;
  /** Runs in flight cancelled at the service. */
  cancelled: string[];
  /** Runs the service would not cancel (no cancel route): they finish on their own. */
  left: string[];
  /** Why runs were left, when they were. */
  reason: string | null;
}

/** A connection to the service, opened only when runs in flight need cancelling. */
export interface CancelService {
  client: Pick<ServiceClient, 'cancelRun'>;
  close(): Promise<void>;
}

/** Options of {@link cancelBatch}. */
export interface CancelOptions {
  /**
   * Opens the service (called only when the batch has runs in flight, so a batch with none
   * needs no key). Without it, runs in flight are left to finish, said in `reason`.
   */
  connect?: () => Promise<CancelService>;
  /** Where runs are cancelled, `{id}` for the run id. @default the batch's cancel route, else the client's */
  route?: string;
  /** Time, for lease checks. @default the system clock */
  clock?: Clock;
}

/** No live worker holds the item: nobody else will record its end. */
function isOrphan(it: ItemRecord, nowMs: number): boolean {
  return it.owner === null || (it.leaseUntil ?? 0) < nowMs;
}

/**
 * Cancels a batch: nothing queued is sent any more (state `cancelled`); workers attached to
 * the batch, on any machine, see it at their next heartbeat, stop admitting and leave; runs
 * in flight are cancelled at the service. An item no live worker holds is ended here; one a
 * live worker holds is left to that worker, which records the cancelled run's end. A service
 * without a cancel route (404, 405) is reported in `reason`, and those runs finish on their own.
 */
export async function cancelBatch(store: ReadStore & TransitionStore, batch: BatchRecord, o: CancelOptions = {}): Promise<CancelReport> {
  const clock = o.clock ?? systemClock;
  const now = (): number => clock.now();
  const queued = await store.cancelBatch(batch.id);
  const report: CancelReport = { batch: batch.name, queued, cancelled: [], left: [], reason: null };
  const inFlight = await store.listItems(batch.id, { states: ACTIVE_STATES });
  const withRun = inFlight.filter((it) => it.state === 'running' && it.runId);
  if (withRun.length > 0) {
    if (!o.connect) {
      report.reason = 'no service to cancel them at';
      report.left.push(...withRun.map((it) => it.runId!));
    } else {
      const service = await o.connect();
      try {
        const route = o.route ?? batch.settings.cancelRoute ?? undefined;
        for (const it of withRun) {
          if (report.reason) {
            report.left.push(it.runId!);
            continue;
          }
          try {
            await service.client.cancelRun(it.runId!, route ? { route } : {});
            report.cancelled.push(it.runId!);
            if (isOrphan(it, now())) await store.markCancelled(batch.id, it.id);
          } catch (e) {
            if (!(e instanceof CancelUnsupportedError)) throw e;
            report.reason = e.message;
            report.left.push(it.runId!);
          }
        }
      } finally {
        await service.close();
      }
    }
  }
  // Unsent answers and unknown submissions of no live worker: nothing more goes out for them.
  for (const it of inFlight) if (!(it.state === 'running' && it.runId) && isOrphan(it, now())) await store.markCancelled(batch.id, it.id);
  return report;
}
