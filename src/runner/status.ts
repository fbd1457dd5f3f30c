import { systemClock } from '../clock.js';
import { formatProblem } from '../errors.js';
import type { BatchRecord, FileStatus, ItemRecord, ReadStore } from '../store/index.js';
import type { StateCounts } from './events.js';
import { isGoneHere } from './local-process.js';

/** A batch's state for `resq status` and notebooks. */
export interface BatchStatus {
  batch: string;
  batchId: string;
  total: number;
  counts: StateCounts;
  /** Finished items per second over the batch's working span, or null before any finished. */
  rate: number | null;
  /** Seconds to finish the unfinished (not held) items at that rate, or null. */
  etaSeconds: number | null;
  held: { id: string; question: string; tool: string | null; input: Record<string, unknown> | null; reason: string | null }[];
  /** Items whose create request may or may not have reached the service; resume re-sends them with the same key. */
  unknownSubmission: string[];
  /** Cost approved so far (policy and people). */
  approvedCost: number;
  files: Record<FileStatus, number>;
  invalidRows: number;
  /** The rows `--skip-invalid` left out, as `file:line: field: reason` (the first 100). */
  skipped: string[];
  /**
   * The first failed and errored items in file order (at most {@link FAILED_LISTED}, read
   * with a limit: a batch of any size costs one short query), with why each ended so.
   */
  failed: FailedItem[];
  /** How many items failed or errored in all (`resq export BATCH --failed` lists every one). */
  failedTotal: number;
  /**
   * Workers attached to the batch now, with their heartbeat age and the items they have
   * claimed. `gone`: a worker of this host whose process ended (killed, crashed) or whose pid
   * another program now has; its items go to the other workers at their next look, whatever
   * its heartbeat's age. Another host's worker is live while its heartbeat is fresh.
   */
  workers: { id: string; host: string; pid: number; gone: boolean; heartbeatAgeMs: number; items: number }[];
}

/** A failed or errored item as status lists it. */
export interface FailedItem {
  id: string;
  question: string;
  status: 'failed' | 'error';
  /** The service's error code (`agent_error`, …), or null when it gave none. */
  errorCode: string | null;
  /** The service's message verbatim (untrusted text), or resq's for a refused request. */
  error: string | null;
}

/** How many failed or errored items a status lists by name. */
export const FAILED_LISTED = 10;

/** Whether a live worker holds the item (its submission is in hand, not unknown). */
function isLive(it: ItemRecord, nowMs: number): boolean {
  return it.owner !== null && (it.leaseUntil ?? 0) >= nowMs;
}

/** Summarises a batch from the store. */
export async function batchStatus(store: ReadStore, batch: BatchRecord, nowMs = systemClock.now()): Promise<BatchStatus> {
  const o = await store.overview(batch.id, nowMs);
  const counts = o.counts;
  const span = await store.finishedSpan(batch.id);
  const finished = counts.completed + counts.failed + counts.error;
  let rate: number | null = null;
  if (span.first && span.last && finished > 0) {
    const secs = Math.max(0.001, (Date.parse(span.last) - Date.parse(span.first)) / 1000);
    rate = finished / secs;
  }
  const remaining = counts.queued + counts.submitting + counts.running + counts.waiting;
  const held = [];
  for (const it of await store.listItems(batch.id, { states: ['held'] })) {
    const run = it.runId ? await store.getRun(it.runId) : null;
    held.push({
      id: it.id,
      question: it.question,
      tool: run?.requiredAction?.tool ?? null,
      input: run?.requiredAction?.input ?? null,
      reason: it.holdReason,
    });
  }
  return {
    batch: batch.name,
    batchId: batch.id,
    total: batch.totalItems,
    counts,
    rate,
    etaSeconds: rate && remaining > 0 ? remaining / rate : remaining === 0 ? 0 : null,
    held,
    unknownSubmission: (await store.listItems(batch.id, { states: ['submitting'] })).filter((it) => !isLive(it, nowMs)).map((it) => it.id),
    approvedCost: o.approvedCost,
    files: o.files,
    invalidRows: batch.invalidRows.length,
    skipped: batch.invalidRows.slice(0, 100).map(formatProblem),
    failed: (await store.listItems(batch.id, { states: ['failed', 'error'], limit: FAILED_LISTED })).map((it) => ({
      id: it.id,
      question: it.question,
      status: it.state === 'error' ? 'error' : 'failed',
      errorCode: it.errorCode,
      error: it.error,
    })),
    failedTotal: counts.failed + counts.error,
    workers: o.workers.map((w) => ({ id: w.id, host: w.host, pid: w.pid, gone: isGoneHere(w), heartbeatAgeMs: Math.max(0, nowMs - w.heartbeatAt), items: w.items })),
  };
}
