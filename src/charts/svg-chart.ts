import { escapeHtml as esc } from '../text/escape-text.js';

/**
 * A chart as the notebook and the page both take it: the SVG document and the same figures as
 * plain text (a notebook's MIME bundle holds both as they are; the page serves the SVG).
 */
export interface SvgChart {
  'image/svg+xml': string;
  'text/plain': string;
}

/** One part of a stacked bar. */
export interface BarSegment {
  value: number;
  color?: string;
  /** Tooltip text. */
  label?: string;
}

/** One bar: its value, or stacked segments whose sum is the value. */
export interface Bar {
  label: string;
  value: number;
  color?: string;
  segments?: readonly BarSegment[];
  /** Text after the bar; @default the value with the unit */
  text?: string;
}

/** Options of {@link barChart}. */
export interface BarChartOptions {
  title: string;
  /** Unit after values, e.g. "s" or "credits". */
  unit?: string;
  /** @default 640 */
  width?: number;
  /** Message drawn when there are no bars. @default "no data" */
  empty?: string;
  /** Colour keys shown under the title. */
  legend?: readonly { label: string; color: string }[];
}

/** Colours the charts use, in order. */
export const PALETTE: readonly string[] = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

const BAR_H = 18;
const GAP = 6;
const FONT = 'font-family="sans-serif" font-size="12"';

/** A round step near `raw` (1, 2 or 5 times a power of ten), for axis ticks and bins. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  const f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/** A number as short text: at most three significant decimals. */
export function formatNumber(v: number): string {
  if (Number.isInteger(v)) return String(v);
  const abs = Math.abs(v);
  return String(Number(v.toFixed(abs >= 100 ? 0 : abs >= 1 ? 2 : 3)));
}

function cut(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

function svgBundle(svg: string, plain: string): SvgChart {
  return { 'image/svg+xml': svg, 'text/plain': plain };
}

/**
 * A horizontal bar chart as a standalone SVG document (no scripts, no external fonts or
 * links, so it shows offline), with the same figures as plain text.
 */
export function barChart(bars: readonly Bar[], o: BarChartOptions): SvgChart {
  const width = o.width ?? 640;
  const unit = o.unit ? ` ${o.unit}` : '';
  const legendH = o.legend?.length ? 20 : 0;
  const top = 30 + legendH;
  const title = `<text x="8" y="20" font-family="sans-serif" font-size="14" font-weight="bold">${esc(o.title)}</text>`;
  if (bars.length === 0) {
    const msg = o.empty ?? 'no data';
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="60" viewBox="0 0 ${width} 60">${title}<text x="8" y="46" ${FONT} fill="#666">${esc(msg)}</text></svg>`;
    return svgBundle(svg, `${o.title}: ${msg}`);
  }
  const labelW = Math.min(220, 12 + 7 * Math.max(...bars.map((b) => cut(b.label, 30).length)));
  const texts = bars.map((b) => cut(b.text ?? `${formatNumber(b.value)}${unit}`, 60));
  const textW = Math.min(300, 12 + 6.6 * Math.max(...texts.map((t) => t.length)));
  // Long labels or notes widen the chart rather than squeeze the bars.
  const plotW = Math.max(300, width - labelW - textW - 8);
  const fullW = Math.ceil(labelW + plotW + textW + 8);
  const max = Math.max(0, ...bars.map((b) => b.value));
  const step = niceStep(max / 5);
  const axisMax = max > 0 ? Math.ceil(max / step) * step : 1;
  const x = (v: number): number => labelW + (Math.max(0, v) / axisMax) * plotW;
  const plotH = bars.length * (BAR_H + GAP);
  const height = top + plotH + 28;
  const parts: string[] = [title];
  o.legend?.forEach((l, i) => {
    const lx = 8 + i * 130;
    parts.push(`<rect x="${lx}" y="${top - 26}" width="10" height="10" fill="${esc(l.color)}"/>`);
    parts.push(`<text x="${lx + 14}" y="${top - 17}" ${FONT}>${esc(cut(l.label, 16))}</text>`);
  });
  for (let t = 0; t <= axisMax + step / 2; t += step) {
    const tx = x(t).toFixed(1);
    parts.push(`<line x1="${tx}" y1="${top - 4}" x2="${tx}" y2="${top + plotH}" stroke="#ddd"/>`);
    parts.push(`<text x="${tx}" y="${top + plotH + 16}" ${FONT} text-anchor="middle" fill="#555">${esc(formatNumber(t))}</text>`);
  }
  bars.forEach((b, i) => {
    const y = top + i * (BAR_H + GAP);
    parts.push(`<text x="${labelW - 6}" y="${y + 13}" ${FONT} text-anchor="end">${esc(cut(b.label, 30))}</text>`);
    const segs = b.segments?.length ? b.segments : [{ value: b.value, color: b.color ?? PALETTE[0] }];
    let from = 0;
    segs.forEach((s, j) => {
      const x0 = x(from);
      const w = Math.max(0, x(from + s.value) - x0);
      const tip = s.label ?? `${b.label}: ${formatNumber(s.value)}${unit}`;
      parts.push(`<rect x="${x0.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${BAR_H}" fill="${esc(s.color ?? PALETTE[j % PALETTE.length] ?? '#888')}" stroke="#fff" stroke-width="0.5"><title>${esc(tip)}</title></rect>`);
      from += s.value;
    });
    parts.push(`<text x="${(x(b.value) + 4).toFixed(1)}" y="${y + 13}" ${FONT} fill="#333">${esc(texts[i] ?? '')}</text>`);
  });
  parts.push(`<line x1="${labelW}" y1="${top - 4}" x2="${labelW}" y2="${top + plotH}" stroke="#888"/>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${fullW}" height="${height}" viewBox="0 0 ${fullW} ${height}">\n${parts.join('\n')}\n</svg>`;
  const plain = [o.title, ...bars.map((b) => `  ${b.label}: ${b.text ?? `${formatNumber(b.value)}${unit}`}`)].join('\n');
  return svgBundle(svg, plain);
}

/** Options of {@link histogram}. */
export interface HistogramOptions extends BarChartOptions {
  /** About how many bins. @default 10 */
  bins?: number;
}

/** Counts of values in round-width bins, drawn as a bar chart (one bar per bin). */
export function histogram(values: readonly number[], o: HistogramOptions): SvgChart {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return barChart([], o);
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  const width = niceStep((hi - lo) / (o.bins ?? 10) || Math.abs(hi) / 10 || 1);
  const start = Math.floor(lo / width) * width;
  const n = Math.max(1, Math.floor((hi - start) / width) + 1);
  const counts = new Array<number>(n).fill(0);
  for (const v of finite) counts[Math.min(n - 1, Math.floor((v - start) / width))]! += 1;
  const unit = o.unit ? ` ${o.unit}` : '';
  const bars = counts.map((c, i) => ({
    label: `${formatNumber(start + i * width)}–${formatNumber(start + (i + 1) * width)}${unit}`,
    value: c,
    color: PALETTE[0],
    text: String(c),
  }));
  return barChart(bars, { ...o, unit: '' });
}
