import { afterEach, describe, expect, it } from 'vitest';
import type { KeptForecast, Store } from '../../src/store/port.js';

/**
 * The forecasts role (issue 38.5), written against `Store` only: a kept forecast is found again
 * as the last forecast of the batch it was for, by the batch (its rest) or by its file's content
 * (made before the batch was created), the newest first.
 */

const SHA = 'a'.repeat(64);
const kept = (over: Partial<KeptForecast>): KeptForecast => ({
  madeAt: '2026-01-01T00:00:00.000Z',
  filePath: '/data/q.csv',
  fileSha256: SHA,
  forBatchId: null,
  learnedFrom: ['june'],
  questions: 360,
  cost: { estimate: 290, low: 225, high: 355 },
  held: { estimate: 4, low: 1, high: 7 },
  ...over,
});

export function forecastsContract(name: string, open: () => Promise<Store>): void {
  describe(`forecasts kept in the store (${name})`, () => {
    const opened: Store[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });
    const fresh = async (): Promise<Store> => {
      const s = await open();
      opened.push(s);
      return s;
    };

    it('finds the last forecast of a batch by its file content made before it, or made for its rest', async () => {
      const s = await fresh();
      const batch = { id: 'b-1', sourceSha256: SHA, createdAt: '2026-01-02T00:00:00.000Z' };
      expect(await s.lastForecastOf(batch)).toBeNull();
      await s.keepForecast(kept({ madeAt: '2025-12-31T00:00:00.000Z', cost: { estimate: 1, low: 0, high: 2 } }));
      await s.keepForecast(kept({}));
      // Made after the batch was created, for a batch still to come: not this one's.
      await s.keepForecast(kept({ madeAt: '2026-01-03T00:00:00.000Z', cost: { estimate: 9, low: 9, high: 9 } }));
      // Of another file.
      await s.keepForecast(kept({ madeAt: '2026-01-01T12:00:00.000Z', fileSha256: 'b'.repeat(64) }));
      expect(await s.lastForecastOf(batch)).toEqual(kept({}));
      const rest = kept({ madeAt: '2026-01-04T00:00:00.000Z', forBatchId: 'b-1', learnedFrom: ['june', 'july'], cost: null, held: null, questions: 2 });
      await s.keepForecast(rest);
      expect(await s.lastForecastOf(batch)).toEqual(rest);
      expect(await s.lastForecastOf({ ...batch, id: 'b-2', createdAt: '2026-01-05T00:00:00.000Z' })).toEqual(kept({ madeAt: '2026-01-03T00:00:00.000Z', cost: { estimate: 9, low: 9, high: 9 } }));
    });
  });
}
