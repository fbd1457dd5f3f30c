import type { BatchAppender, BatchLoader, NewBatch, NewItemColumns } from '../shapes.js';
import type { BatchRecord, BatchSettings } from '../types.js';

/** The batches role: a batch created, grown, found, listed and re-set (what loading and opening a batch need). */
export interface BatchStore {
  /** Starts loading a new batch; everything lands in one transaction, or nothing does. */
  beginBatchLoad(batch: NewBatch, opts?: { bulk?: boolean }): Promise<BatchLoader>;
  /**
   * Starts appending a grown question set's new rows to a batch (`resq run --append`), in
   * one transaction that other appends of the batch wait for.
   */
  beginBatchAppend(batchId: string): Promise<BatchAppender>;
  /**
   * Appends rows to a batch whose workers may be running (an agent judge's judgings, made as
   * each answer completes), in one write; rows the batch has are kept as they are.
   */
  appendItems(batchId: string, cols: NewItemColumns): Promise<{ appended: number }>;
  /** A batch by name or id. */
  findBatch(nameOrId: string): Promise<BatchRecord | null>;
  /** Every batch, newest first (the order `resq batches` and the notebooks show). */
  listBatches(kind?: BatchRecord['kind']): Promise<BatchRecord[]>;
  /** The newest batch, or null. */
  latestBatch(kind?: BatchRecord['kind']): Promise<BatchRecord | null>;
  /** Replaces what a batch runs with (a later `run`/`resume` with overrides). */
  updateBatchSettings(id: string, settings: BatchSettings, policy: unknown, baseUrl: string | null): Promise<void>;
}
