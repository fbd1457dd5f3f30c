import { FORECAST_COLUMNS, forecastOfRow, type ForecastRow, forecastValues } from '../common/forecasts.js';
import type { ForecastTarget, KeptForecast } from '../roles/forecasts.js';
import type { Queryable } from './pool.js';
import { one } from './sql.js';

// Forecasts resq forecast made (migration 028_forecasts). Plain statements: a forecast is rare.

/** Keeps a forecast. */
export async function keepForecast(c: Queryable, f: KeptForecast): Promise<void> {
  await c.query(`INSERT INTO forecasts (${FORECAST_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, forecastValues(f));
}

/** The last forecast of a batch (see ForecastStore.lastForecastOf). */
export async function lastForecastOf(c: Queryable, b: ForecastTarget): Promise<KeptForecast | null> {
  const row = await one<ForecastRow>(
    c,
    `SELECT * FROM forecasts WHERE for_batch_id = $1 OR (for_batch_id IS NULL AND file_sha256 = $2 AND made_at <= $3)
     ORDER BY made_at DESC, seq DESC LIMIT 1`,
    [b.id, b.sourceSha256, b.createdAt],
  );
  return row ? forecastOfRow(row) : null;
}
