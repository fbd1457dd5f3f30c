import { FORECAST_COLUMNS, forecastOfRow, type ForecastRow, forecastValues } from '../common/forecasts.js';
import type { ForecastTarget, KeptForecast } from '../roles/forecasts.js';
import type { SqliteContext } from './database.js';

// Forecasts `resq forecast` made (migration 028_forecasts). Plain statements: a forecast is rare.

/** Keeps a forecast. */
export function keepForecast(cx: SqliteContext, f: KeptForecast): void {
  cx.db.prepare(`INSERT INTO forecasts (${FORECAST_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(...forecastValues(f));
}

/** The last forecast of a batch (see ForecastStore.lastForecastOf). */
export function lastForecastOf(cx: SqliteContext, b: ForecastTarget): KeptForecast | null {
  const row = cx.db
    .prepare(
      `SELECT * FROM forecasts WHERE for_batch_id = ? OR (for_batch_id IS NULL AND file_sha256 = ? AND made_at <= ?)
       ORDER BY made_at DESC, seq DESC LIMIT 1`,
    )
    .get(b.id, b.sourceSha256, b.createdAt) as ForecastRow | undefined;
  return row ? forecastOfRow(row) : null;
}
