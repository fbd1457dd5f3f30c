import type { ItemState } from '../store/types.js';

/** Counts of a batch's rows by state (the item states; `submitting` = outcome unknown when idle). */
export type RowCounts = Record<ItemState, number>;

/** What a model batch reports while it works. The CLI renders these; tests and notebooks read them. */
export type ModelBatchEvent =
  | {
      type: 'start';
      batch: string;
      batchId: string;
      model: string;
      total: number;
      counts: RowCounts;
      /** Rows with a model run id, read again. */
      resumed: number;
      /** Rows whose create request may or may not have reached the service. */
      unknown: number;
      /** Whether those are re-sent with their stored key. */
      resubmitUnknown: boolean;
    }
  | { type: 'item'; id: string; state: ItemState; modelRunId: string | null; status: string | null; credits: number | null; detail?: string }
  | { type: 'retry-later'; id: string; delayMs: number; reason: string }
  /** The batch's in-flight cap moved (lowered after HTTP 429, raised as admissions go through). */
  | { type: 'cap'; cap: number; reason: string }
  | { type: 'warning'; message: string }
  | { type: 'progress'; counts: RowCounts; inFlight: number; total: number; credits: number }
  | {
      type: 'end';
      counts: RowCounts;
      interrupted: boolean;
      stalled: number;
      fatal: string | null;
      unknown: string[];
      credits: number;
    };
