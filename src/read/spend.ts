import type { ReadStore } from '../store/port.js';

/** The batch budget a stored policy sets (confirm_scope.batch_budget), or null. */
export function budgetOf(policy: unknown): number | null {
  const b = (policy as { confirm_scope?: { batch_budget?: unknown } } | null)?.confirm_scope?.batch_budget;
  return typeof b === 'number' && Number.isFinite(b) ? b : null;
}

/** Upper bounds (seconds) of the `resq_held_wait_seconds` histogram's buckets; +Inf follows. */
export const HELD_WAIT_BUCKETS = [5, 15, 30, 60, 300, 900, 1800, 3600, 7200, 14400, 43200, 86400, 259200] as const;

/** A Prometheus histogram: cumulative counts per upper bound, the count and the sum. */
export interface Histogram {
  buckets: { le: number; count: number }[];
  count: number;
  sum: number;
}

/** Values as a cumulative histogram over `bounds`. */
export function histogramOf(values: readonly number[], bounds: readonly number[]): Histogram {
  return {
    buckets: bounds.map((le) => ({ le, count: values.filter((v) => v <= le).length })),
    count: values.length,
    sum: values.reduce((s, v) => s + v, 0),
  };
}

/**
 * How long each item a person answered waited for them: from the pause being recorded (the
 * item held) to the person's decision, in seconds (never below 0), in the order recorded.
 */
export async function heldWaitSeconds(store: Pick<ReadStore, 'batchPauses'>, batchId: string): Promise<number[]> {
  const out: number[] = [];
  for (const p of await store.batchPauses(batchId, { decidedBy: 'person' })) {
    if (!p.pausedAt || !p.decision) continue;
    const ms = Date.parse(p.decision.decidedAt) - Date.parse(p.pausedAt);
    if (Number.isFinite(ms)) out.push(Math.max(0, ms) / 1000);
  }
  return out;
}

/** How long held items waited for a person in a batch, as the `resq_held_wait_seconds` histogram. */
export async function readHeldWaits(store: Pick<ReadStore, 'batchPauses'>, batchId: string): Promise<Histogram> {
  return histogramOf(await heldWaitSeconds(store, batchId), HELD_WAIT_BUCKETS);
}
