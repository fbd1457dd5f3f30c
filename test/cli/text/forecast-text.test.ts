import { describe, expect, it } from 'vitest';
import { durationText, figure, forecastText, missText } from '../../../src/cli/text/forecast-text.js';
import { forecast } from '../../../src/forecast/estimate.js';
import { missOf } from '../../../src/forecast/hindsight.js';

describe('forecast as text', () => {
  it('rounds figures and durations for reading', () => {
    expect([figure(4), figure(7.2), figure(10.9381), figure(1234.6), figure(0.123456)]).toEqual(['4', '7.2', '10.9', '1235', '0.123']);
    expect([durationText(45.4), durationText(725), durationText(12_000)]).toEqual(['45s', '12m 5s', '3h 20m']);
  });

  it('escapes the file and batch names and says what it cannot estimate', () => {
    const f = { ...forecast({ questions: 3, costs: [1], holds: [0], seconds: [], cap: 2, budget: null }), file: 'q\u001b[2J.csv', from: 'b\u0007', rest: false, fileRows: 3, policy: 'reference' as const, cap: 2, match: 'none' as const, batchFile: 'x.csv', learnedFrom: [{ name: 'b\u0007', questions: 1 }], now: { spent: 0, heldPauses: 0, heldCost: 0 }, spent: 0, lastForecast: null };
    const text = forecastText(f, 'p\u001b.yaml');
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('for 3 questions of q\\x1b[2J.csv, from 1 question that ran in batch b\\x07; policy: p\\x1b.yaml');
    expect(text).toContain('  budget: none set (--budget, or batch_budget in the policy)');
    expect(text).toContain('  wall time: unknown (no run of the reference batch ended)');
  });

  it('says a kept estimate against the actual with its sign and share', () => {
    expect(missText(missOf({ estimate: 290, low: 225, high: 320 }, 350), 'the batch cost')).toBe('about 290 (225–320); the batch cost 350: off by +60 (+21%), outside its p10–p90');
    expect(missText(missOf({ estimate: 4, low: 1, high: 7 }, 3), 'the batch held')).toBe('about 4 (1–7); the batch held 3: off by −1 (−25%), within its p10–p90');
    expect(missText(missOf({ estimate: 0, low: 0, high: 0 }, 0), 'the batch held')).toBe('about 0 (0–0); the batch held 0: off by ±0, within its p10–p90');
  });
});
