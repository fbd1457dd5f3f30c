import { rateWords } from '../read/score-rates.js';
import type { ScoreRate } from '../read/status-schema.js';
import { barChart, type Bar } from '../charts/svg-chart.js';
import { type MimeBundle } from './bundle.js';
import { table } from './table.js';

/** Colours of a scorer's bar: passed, failed, unscored. */
export const VERDICT_COLORS = { passed: '#59a14f', failed: '#e15759', unscored: '#bab0ac' } as const;

const pct = (x: number | null): string => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);

/** Each scorer's pass rate as a table: scorer, version, pass rate, its 95% interval, passed, failed, unscored. */
export function scoresTable(rows: readonly ScoreRate[], o: { batch?: string } = {}): MimeBundle {
  return table(
    rows.map((r) => ({ scorer: r.name, version: r.version, pass_rate: pct(r.passRate), interval_95: r.low === null ? '—' : `${pct(r.low)}–${pct(r.high)}`, passed: r.passed, failed: r.failed, unscored: r.unscored })),
    { caption: `Pass rates${o.batch ? ` of ${o.batch}` : ''} (over the judged items; 95% Wilson interval)`, empty: 'no scorer judges this batch' },
  );
}

/** Each scorer as a bar of its completed items (passed, failed, unscored stacked), its pass rate and interval after it. */
export function scoresChart(rows: readonly ScoreRate[], o: { title?: string } = {}): MimeBundle {
  const bars: Bar[] = rows.map((r) => ({
    label: r.name,
    value: r.passed + r.failed + r.unscored,
    segments: [
      { value: r.passed, color: VERDICT_COLORS.passed, label: `${r.passed} passed` },
      { value: r.failed, color: VERDICT_COLORS.failed, label: `${r.failed} failed` },
      { value: r.unscored, color: VERDICT_COLORS.unscored, label: `${r.unscored} unscored` },
    ],
    text: rateWords(r),
  }));
  const legend = (Object.keys(VERDICT_COLORS) as (keyof typeof VERDICT_COLORS)[]).map((k) => ({ label: k, color: VERDICT_COLORS[k] }));
  return barChart(bars, { title: o.title ?? 'Pass rates', empty: 'no scorer judges this batch', legend });
}
