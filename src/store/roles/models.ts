import type { CreditTotals, FinishedModelRun, ModelBatchRecord, ModelRunRecord, ModelRunReport, NewBatch, NewModelRow } from '../shapes.js';
import type { ItemRecord } from '../types.js';

/** The models role: a models batch loaded, each row's request sent and ended, and its results and credits read. */
export interface ModelStore {
  /** Records a new models batch, its model and every row: all or nothing. */
  loadModelBatch(batch: NewBatch, model: Omit<ModelBatchRecord, 'batchId'>, rows: readonly NewModelRow[]): Promise<void>;
  modelBatch(batchId: string): Promise<ModelBatchRecord | null>;
  modelRun(batchId: string, itemId: string): Promise<ModelRunRecord | null>;
  modelRuns(batchId: string, afterSeq: number, limit: number): Promise<{ item: ItemRecord; run: ModelRunRecord }[]>;
  /** A row is about to be (re)sent with `key`. */
  markModelSubmitting(batchId: string, itemId: string, key: string, mode: ModelBatchRecord['mode'], resend: boolean): Promise<void>;
  markModelAdmitted(batchId: string, itemId: string, httpStatus: number, run: ModelRunReport): Promise<void>;
  markModelFinished(batchId: string, itemId: string, run: FinishedModelRun, o: { httpStatus: number | null; failed: boolean; polls: number }): Promise<void>;
  markModelError(batchId: string, itemId: string, message: string, polls?: number): Promise<void>;
  /** The request surely never arrived: the row is queued again. */
  markModelUnsent(batchId: string, itemId: string): Promise<void>;
  addModelPolls(batchId: string, itemId: string, polls: number): Promise<void>;
  modelCredits(batchId: string): Promise<CreditTotals>;
  /** Reads of running jobs so far. */
  modelPolls(batchId: string): Promise<number>;
  /** Changes the mode a models batch sends with (a later run with another `--mode`). */
  setModelMode(batchId: string, mode: ModelBatchRecord['mode']): Promise<void>;
}
