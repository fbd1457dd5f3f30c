import { modelResultRows } from '../models/results.js';
import { ModelStore } from '../store/model-store.js';
import type { Store } from '../store/store.js';
import type { BatchRecord } from '../store/types.js';
import type { MimeBundle } from './bundle.js';
import { STATUS_COLORS } from './charts.js';
import { barChart, formatNumber, PALETTE, type Bar } from './svg-chart.js';

/** One row of a `models` batch: its inputs, the service's outputs and what it cost. */
export interface ModelRow {
  id: string;
  /** `succeeded`, `failed`, `cancelled`, … once finished; else queued, running, unknown or error (as in `--output`). */
  status: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown> | null;
  credits: number | null;
  error: string | null;
  model_run_id: string | null;
  files: number;
}

/** A `models` batch's rows in file order (the lines `resq models batch --output` writes, plus inputs). */
export function modelRows(store: Store, batch: BatchRecord): ModelRow[] {
  const ms = new ModelStore(store);
  const rows: ModelRow[] = [];
  for (const r of modelResultRows(ms, batch)) {
    rows.push({
      id: r.id,
      status: r.status,
      inputs: ms.modelRuns.get(batch.id, r.id)?.inputs ?? {},
      outputs: r.outputs,
      credits: r.credits,
      error: r.error,
      model_run_id: r.model_run_id,
      files: r.files.length,
    });
  }
  return rows;
}

/** Options of {@link modelChart}. */
export interface ModelChartOptions {
  title?: string;
  unit?: string;
  /** Bar label of a row. @default its id */
  label?: (row: ModelRow) => string;
}

/**
 * One numeric output of every row as a bar (`credits` works too); rows without a number
 * (failed, refused, still running) show a zero-length bar that says why.
 */
export function modelChart(rows: readonly ModelRow[], output: string, o: ModelChartOptions = {}): MimeBundle {
  const unit = o.unit ? ` ${o.unit}` : '';
  const bars: Bar[] = rows.map((r) => {
    const v = output === 'credits' ? r.credits : r.outputs?.[output];
    const label = o.label ? o.label(r) : r.id;
    if (typeof v === 'number' && Number.isFinite(v)) return { label, value: v, color: PALETTE[0], text: `${formatNumber(v)}${unit}` };
    const why = r.status === 'succeeded' ? `no number in ${output}` : r.status;
    return { label, value: 0, color: STATUS_COLORS.failed, text: r.error ? `${why}: ${r.error}` : why };
  });
  return barChart(bars, { title: o.title ?? `${output} by row`, ...(o.unit ? { unit: o.unit } : {}), empty: 'the batch has no rows' });
}
