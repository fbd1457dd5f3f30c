import type { BatchDecision, BatchTotals, ItemQuery, ItemStats, RunTime } from '../shapes.js';
import type { ItemRecord } from '../types.js';

/** The notebook role: the projections the notebook helpers explore a batch with. */
export interface NotebookStore {
  queryItems(batchId: string, q?: ItemQuery): Promise<ItemRecord[]>;
  itemStats(batchId: string): Promise<Map<string, ItemStats>>;
  batchTotals(batchId: string): Promise<BatchTotals>;
  itemSeconds(batchId: string): Promise<number[]>;
  runTimes(batchId: string): Promise<RunTime[]>;
  batchDecisions(batchId: string): Promise<BatchDecision[]>;
}
