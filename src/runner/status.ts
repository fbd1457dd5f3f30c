import type { BatchRecord, FileStatus, Store } from '../store/index.js';
import type { StateCounts } from './events.js';

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
}

/** Summarises a batch from the store. */
export function batchStatus(store: Store, batch: BatchRecord): BatchStatus {
  const counts = store.items.counts(batch.id);
  const span = store.items.finishedSpan(batch.id);
  const finished = counts.completed + counts.failed + counts.error;
  let rate: number | null = null;
  if (span.first && span.last && finished > 0) {
    const secs = Math.max(0.001, (Date.parse(span.last) - Date.parse(span.first)) / 1000);
    rate = finished / secs;
  }
  const remaining = counts.queued + counts.submitting + counts.running + counts.waiting;
  const held = store.items.list(batch.id, { states: ['held'] }).map((it) => {
    const run = it.runId ? store.runs.get(it.runId) : null;
    return {
      id: it.id,
      question: it.question,
      tool: run?.requiredAction?.tool ?? null,
      input: run?.requiredAction?.input ?? null,
      reason: it.holdReason,
    };
  });
  return {
    batch: batch.name,
    batchId: batch.id,
    total: batch.totalItems,
    counts,
    rate,
    etaSeconds: rate && remaining > 0 ? remaining / rate : remaining === 0 ? 0 : null,
    held,
    unknownSubmission: store.items.list(batch.id, { states: ['submitting'] }).map((it) => it.id),
    approvedCost: store.decisions.approvedCost(batch.id),
    files: store.files.counts(batch.id),
    invalidRows: batch.invalidRows.length,
  };
}
