import type { ModelStore, ReadStore } from '../store/port.js';
import type { BatchRecord, ItemRecord } from '../store/types.js';
import type { MimeBundle } from './bundle.js';
import { STATUS_COLORS } from './charts.js';
import { barChart, formatNumber, PALETTE, type Bar } from '../charts/svg-chart.js';

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

/** The row status `--output` shows: the service's once finished, else where the row is. */
function rowStatus(item: ItemRecord, serviceStatus: string | null): string {
  if (item.state === 'completed' || item.state === 'failed') return serviceStatus ?? item.state;
  if (item.state === 'submitting') return 'unknown';
  return item.state === 'waiting' || item.state === 'held' ? 'running' : item.state;
}

/** A `models` batch's rows in file order (the lines `resq models batch --output` writes, plus inputs). */
export async function modelRows(store: ReadStore & ModelStore, batch: BatchRecord): Promise<ModelRow[]> {
  const rows: ModelRow[] = [];
  for (let after = -1; ; ) {
    const [page, aggs] = await Promise.all([store.modelRuns(batch.id, after, 1000), store.aggregates(batch.id, after, 1000)]);
    if (aggs.length === 0) return rows;
    const runs = new Map(page.map((p) => [p.item.id, p.run]));
    for (const a of aggs) {
      after = a.item.seq;
      const mr = runs.get(a.item.id) ?? null;
      rows.push({
        id: a.item.id,
        status: rowStatus(a.item, mr?.status ?? null),
        inputs: mr?.inputs ?? {},
        outputs: mr?.outputs ?? null,
        credits: mr?.credits ?? null,
        error: mr?.error ?? (a.item.state === 'error' ? a.item.error : null),
        model_run_id: mr?.modelRunId ?? null,
        files: a.files.length,
      });
    }
  }
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
