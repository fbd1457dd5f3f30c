import type { KeptForecast, KeptSpread } from '../roles/forecasts.js';

/** A row of the forecasts table (migration 028_forecasts), as both adapters read it. */
export interface ForecastRow {
  made_at: string;
  file_path: string;
  file_sha256: string;
  for_batch_id: string | null;
  learned_from: string;
  questions: number | string;
  cost_estimate: number | null;
  cost_low: number | null;
  cost_high: number | null;
  held_estimate: number | null;
  held_low: number | null;
  held_high: number | null;
}

/** The columns written, in the order of {@link forecastValues}. */
export const FORECAST_COLUMNS = 'made_at, file_path, file_sha256, for_batch_id, learned_from, questions, cost_estimate, cost_low, cost_high, held_estimate, held_low, held_high';

/** A forecast's values for {@link FORECAST_COLUMNS}. */
export function forecastValues(f: KeptForecast): unknown[] {
  return [f.madeAt, f.filePath, f.fileSha256, f.forBatchId, JSON.stringify(f.learnedFrom), f.questions, f.cost?.estimate ?? null, f.cost?.low ?? null, f.cost?.high ?? null, f.held?.estimate ?? null, f.held?.low ?? null, f.held?.high ?? null];
}

const spreadOf = (estimate: number | null, low: number | null, high: number | null): KeptSpread | null =>
  estimate === null || low === null || high === null ? null : { estimate: Number(estimate), low: Number(low), high: Number(high) };

/** A row read back; names that are not a list of strings are left out (the row is the database's, not trusted). */
export function forecastOfRow(r: ForecastRow): KeptForecast {
  let names: unknown;
  try {
    names = JSON.parse(r.learned_from);
  } catch {
    names = [];
  }
  return {
    madeAt: r.made_at,
    filePath: r.file_path,
    fileSha256: r.file_sha256,
    forBatchId: r.for_batch_id,
    learnedFrom: Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [],
    questions: Number(r.questions),
    cost: spreadOf(r.cost_estimate, r.cost_low, r.cost_high),
    held: spreadOf(r.held_estimate, r.held_low, r.held_high),
  };
}
