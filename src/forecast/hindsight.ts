// How far off the last forecast of a batch was: its kept estimates against what the batch did, once it ended.
import type { ReadStore } from '../store/port.js';
import type { ForecastStore, KeptForecast, KeptSpread } from '../store/roles/forecasts.js';
import type { BatchRecord } from '../store/types.js';

/** One kept estimate against what happened. */
export interface Miss {
  estimate: number;
  low: number;
  high: number;
  actual: number;
  /** actual − estimate. */
  off: number;
  /** off / estimate, or null for an estimate of 0. */
  offShare: number | null;
  /** Whether the actual fell within low–high. */
  inside: boolean;
}

/** The last forecast of a batch and, once the batch ended, how far off each of its estimates was. */
export interface Hindsight {
  batch: string;
  madeAt: string;
  learnedFrom: string[];
  /** No item of the batch is left to run or waits for a person. */
  ended: boolean;
  /** The batch's whole cost (approved), once it ended; null before, or when the forecast had no cost. */
  cost: Miss | null;
  /** Pauses that went to a person, once it ended. */
  held: Miss | null;
}

/** An estimate against the actual. Pure. */
export function missOf(k: KeptSpread, actual: number): Miss {
  const off = actual - k.estimate;
  return { ...k, actual, off, offShare: k.estimate === 0 ? null : off / k.estimate, inside: actual >= k.low && actual <= k.high };
}

/** Pauses of a batch that went to a person: decided by one, or still held. */
export async function pausesToPeople(store: Pick<ReadStore, 'batchPauses'>, batchId: string): Promise<number> {
  return (await store.batchPauses(batchId)).filter((p) => p.decision === null || p.decision.by === 'person').length;
}

/**
 * The last forecast of `batch` (see ForecastStore.lastForecastOf) held against what the batch
 * did: its approved cost and the pauses that went to a person, once no item is left to run or
 * held; null when no forecast of it was kept.
 */
export async function readHindsight(store: Pick<ReadStore, 'batchPauses' | 'itemCounts' | 'approvedCost'> & Pick<ForecastStore, 'lastForecastOf'>, batch: BatchRecord): Promise<Hindsight | null> {
  const last: KeptForecast | null = await store.lastForecastOf(batch);
  if (!last) return null;
  const n = await store.itemCounts(batch.id);
  const ended = n.queued + n.submitting + n.running + n.waiting + n.held === 0;
  const base = { batch: batch.name, madeAt: last.madeAt, learnedFrom: last.learnedFrom, ended };
  if (!ended) return { ...base, cost: null, held: null };
  return {
    ...base,
    cost: last.cost ? missOf(last.cost, await store.approvedCost(batch.id)) : null,
    held: last.held ? missOf(last.held, await pausesToPeople(store, batch.id)) : null,
  };
}
