/** One line of the benchmark table. */
export interface BenchRow {
  scenario: string;
  figure: string;
  /** What was measured, with its unit (e.g. `10.4 s`). */
  measured: string;
  /** The ideal or reference it is held against (e.g. `ideal 10.0 s`); empty when none. */
  reference: string;
  /** measured against reference, oriented so that higher is better; null when none. */
  ratio: number | null;
  /** The target from issue 7 (e.g. `>= 0.95`); empty when none. */
  target: string;
  /** Whether the target was met; null when there is none. */
  met: boolean | null;
}

/** Prefix of the one stdout line through which a scenario hands its rows to run.ts. */
export const ROWS_MARK = 'BENCH_ROWS ';

/** Prints a scenario's rows for run.ts (the last line of its stdout). */
export function emitRows(rows: BenchRow[]): void {
  process.stdout.write(`${ROWS_MARK}${JSON.stringify(rows)}\n`);
}

/** Builds a row; `met` is decided by `check` on the ratio or the measured number. */
export function row(
  scenario: string,
  figure: string,
  measured: string,
  reference = '',
  ratio: number | null = null,
  target = '',
  met: boolean | null = null,
): BenchRow {
  return { scenario, figure, measured, reference, ratio, target, met };
}

/** The q-quantile (0..1) of numbers, nearest rank. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/** Formats a number with a fixed number of decimals and a unit. */
export function fmt(n: number, decimals: number, unit = ''): string {
  return `${n.toFixed(decimals)}${unit ? ` ${unit}` : ''}`;
}

/** Renders rows as an aligned text table. */
export function renderTable(rows: readonly BenchRow[]): string {
  const head = ['scenario', 'figure', 'measured', 'ideal / reference', 'ratio', 'target', ''];
  const body = rows.map((r) => [
    r.scenario,
    r.figure,
    r.measured,
    r.reference,
    r.ratio === null ? '' : r.ratio.toFixed(2),
    r.target,
    r.met === null ? '' : r.met ? 'ok' : 'MISSED',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
