import { describe, expect, it } from 'vitest';
import { forecastOfRow, forecastValues, type ForecastRow } from '../../../src/store/common/forecasts.js';

const row: ForecastRow = {
  made_at: '2026-01-01T00:00:00.000Z', file_path: '/q.csv', file_sha256: 'a'.repeat(64), for_batch_id: null, learned_from: '["june",7,"july"]', questions: '360',
  cost_estimate: 290, cost_low: 225, cost_high: 355, held_estimate: null, held_low: null, held_high: null,
};

describe('a kept forecast row', () => {
  it('reads back what it wrote, trusting nothing in the row: names that are not text left out, a bad list read as none', () => {
    const f = forecastOfRow(row);
    expect(f).toEqual({ madeAt: row.made_at, filePath: '/q.csv', fileSha256: row.file_sha256, forBatchId: null, learnedFrom: ['june', 'july'], questions: 360, cost: { estimate: 290, low: 225, high: 355 }, held: null });
    expect(forecastValues(f)).toEqual([row.made_at, '/q.csv', row.file_sha256, null, '["june","july"]', 360, 290, 225, 355, null, null, null]);
    expect(forecastOfRow({ ...row, learned_from: 'not json' }).learnedFrom).toEqual([]);
    expect(forecastOfRow({ ...row, learned_from: '{"a":1}' }).learnedFrom).toEqual([]);
  });
});
