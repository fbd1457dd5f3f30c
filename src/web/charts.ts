import { STATUS_COLORS } from '../notebook/charts.js';
import { barChart, PALETTE, type Bar } from '../charts/svg-chart.js';
import type { ExportStatus } from '../read/export-rows.js';
import type { ItemState, RunMinute } from '../store/index.js';

/** Items by state as one stacked bar: the notebooks' chart code, drawn for the batch page. */
export function stateBarSvg(name: string, counts: Record<ItemState, number>): string {
  const order: ExportStatus[] = ['completed', 'running', 'waiting', 'held', 'queued', 'failed', 'error', 'cancelled'];
  const value = (s: ExportStatus): number => (s === 'running' ? counts.running + counts.submitting : counts[s]);
  const segments = order.filter((s) => value(s) > 0).map((s) => ({ value: value(s), color: STATUS_COLORS[s], label: `${s}: ${value(s)}` }));
  const total = segments.reduce((n, s) => n + s.value, 0);
  const bars: Bar[] = total ? [{ label: 'items', value: total, segments, text: `${total}` }] : [];
  return barChart(bars, {
    title: `Items by state — ${name}`,
    empty: 'no items',
    legend: order.filter((s) => value(s) > 0).slice(0, 6).map((s) => ({ label: `${s} ${value(s)}`, color: STATUS_COLORS[s] })),
    width: 720,
  })['image/svg+xml'] as string;
}

/** Runs admitted and finished over time (the last `maxBars` buckets), one bar pair per bucket. */
export function runsOverTimeSvg(minutes: readonly RunMinute[], maxBars = 30): string {
  // Many minutes: grouped into wider buckets so at most maxBars rows are drawn.
  const per = Math.max(1, Math.ceil(minutes.length / maxBars));
  const bars: Bar[] = [];
  for (let i = 0; i < minutes.length; i += per) {
    const group = minutes.slice(i, i + per);
    const admitted = group.reduce((n, m) => n + m.admitted, 0);
    const finished = group.reduce((n, m) => n + m.finished, 0);
    const label = `${group[0]!.minute.slice(11)}${per > 1 ? `+${per}m` : ''}`;
    bars.push({
      label,
      value: admitted + finished,
      segments: [
        { value: admitted, color: PALETTE[0], label: `${label}: ${admitted} admitted` },
        { value: finished, color: PALETTE[2], label: `${label}: ${finished} finished` },
      ],
      text: `${admitted} in, ${finished} done`,
    });
  }
  return barChart(bars, {
    title: 'Runs admitted and finished per minute (UTC)',
    empty: 'no runs yet',
    legend: [
      { label: 'admitted', color: PALETTE[0]! },
      { label: 'finished', color: PALETTE[2]! },
    ],
    width: 720,
  })['image/svg+xml'] as string;
}
