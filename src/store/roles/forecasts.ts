/** An estimate with its p10–p90 spread, as kept. */
export interface KeptSpread {
  estimate: number;
  low: number;
  high: number;
}

/** A forecast as kept (migration 028_forecasts): enough to hold it against what the batch then did. */
export interface KeptForecast {
  /** When it was made (ISO 8601). */
  madeAt: string;
  /** The forecast file's path and its content's SHA-256: a batch later loaded from that content is the one it was for. */
  filePath: string;
  fileSha256: string;
  /** The batch it was for when it forecast a batch's rest (that batch's id), else null: a batch of this file still to come. */
  forBatchId: string | null;
  /** Names of the batches it learned from. */
  learnedFrom: string[];
  questions: number;
  /** The batch's whole cost (what it had spent, plus the questions forecast). */
  cost: KeptSpread | null;
  /** Pauses held for a person. */
  held: KeptSpread | null;
}

/** What a kept forecast can be of: a batch, by its id, its file's content and when it was made. */
export interface ForecastTarget {
  id: string;
  sourceSha256: string;
  createdAt: string;
}

/**
 * The forecasts role: every forecast `resq forecast` made, so the next one says how far off the
 * last forecast of a batch was once that batch ended.
 */
export interface ForecastStore {
  /** Keeps a forecast. */
  keepForecast(f: KeptForecast): Promise<void>;
  /**
   * The last forecast of a batch: the newest made for its rest, or made for a file of its content
   * before the batch was created; null when there is none.
   */
  lastForecastOf(batch: ForecastTarget): Promise<KeptForecast | null>;
}
