import type { ExportStatus } from '../read/export-rows.js';
import type { FileStore, ModelStore, NotebookStore, ReadStore } from '../store/port.js';
import type { BatchRecord, FileStatus, ItemState } from '../store/types.js';
import { ITEM_STATES } from '../store/item-states.js';
import { formatBytes } from '../format-bytes.js';
import { type MimeBundle } from './bundle.js';
import { statusOf } from './items.js';
import { formatNumber } from '../charts/svg-chart.js';
import { table } from './table.js';
import { budgetOf } from '../read/spend.js';

/** A batch at a glance. */
export interface BatchSummary {
  batch: string;
  batchId: string;
  kind: 'runs' | 'models';
  createdAt: string;
  total: number;
  /** Items by status, as exports name them. */
  counts: Record<ExportStatus, number>;
  /** Agent runs started (every run of every chain); 0 for a models batch. */
  runs: number;
  decisions: number;
  /** Cost of the plans approved (by the policy and by people). */
  approvedCost: number;
  /** The policy's `confirm_scope.batch_budget`, when it has one. */
  budget: number | null;
  /** Credits the service reported for a models batch's runs; null for agent batches. */
  credits: number | null;
  files: Record<FileStatus, number>;
  /** Bytes of the files on disk. */
  fileBytes: number;
  /** Median seconds from submission to the end, over finished items. */
  medianSeconds: number | null;
  /** Rows of the question set skipped as invalid (--skip-invalid). */
  invalidRows: number;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Summarises a batch from the store. */
export async function batchSummary(store: NotebookStore & ReadStore & FileStore & ModelStore, batch: BatchRecord): Promise<BatchSummary> {
  const counts = Object.fromEntries(ITEM_STATES.filter((s) => s === statusOf(s)).map((s) => [s, 0])) as Record<ExportStatus, number>;
  for (const [state, n] of Object.entries(await store.itemCounts(batch.id))) counts[statusOf(state as ItemState)] += n;
  const totals = await store.batchTotals(batch.id);
  return {
    batch: batch.name,
    batchId: batch.id,
    kind: batch.kind,
    createdAt: batch.createdAt,
    total: batch.totalItems,
    counts,
    runs: totals.runs,
    decisions: totals.decisions,
    approvedCost: totals.approvedCost,
    budget: budgetOf(batch.policy),
    credits: batch.kind === 'models' ? (await store.modelCredits(batch.id)).spent : null,
    files: await store.fileCounts(batch.id),
    fileBytes: totals.fileBytes,
    // julianday arithmetic carries float noise; milliseconds are what the timestamps hold.
    medianSeconds: median((await store.itemSeconds(batch.id)).map((x) => Math.round(x * 1000) / 1000)),
    invalidRows: batch.invalidRows.length,
  };
}

/** A summary as a two-column table (what, value). */
export function summaryTable(s: BatchSummary): MimeBundle {
  const statuses = Object.entries(s.counts).filter(([, n]) => n > 0);
  const fileParts = Object.entries(s.files).filter(([, n]) => n > 0);
  const rows: { what: string; value: string }[] = [
    { what: 'batch', value: `${s.batch} (${s.kind}, created ${s.createdAt})` },
    { what: 'items', value: String(s.total) },
    ...statuses.map(([k, n]) => ({ what: `  ${k}`, value: `${n} (${Math.round((100 * n) / Math.max(1, s.total))}%)` })),
    ...(s.kind === 'runs' ? [{ what: 'runs started', value: String(s.runs) }, { what: 'decisions', value: String(s.decisions) }] : []),
    ...(s.kind === 'runs' ? [{ what: 'cost approved', value: `${formatNumber(s.approvedCost)}${s.budget !== null ? ` of budget ${formatNumber(s.budget)}` : ''}` }] : []),
    ...(s.credits !== null ? [{ what: 'credits spent', value: formatNumber(s.credits) }] : []),
    { what: 'median time per item', value: s.medianSeconds === null ? '—' : `${formatNumber(s.medianSeconds)} s` },
    { what: 'files', value: fileParts.length ? `${fileParts.map(([k, n]) => `${n} ${k}`).join(', ')} (${formatBytes(s.fileBytes)} on disk)` : 'none' },
    ...(s.invalidRows ? [{ what: 'rows skipped as invalid', value: String(s.invalidRows) }] : []),
  ];
  if (s.total === 0) rows.splice(2, 0, { what: 'note', value: `batch "${s.batch}" has no items` });
  return table(rows, { caption: `Summary of ${s.batch}` });
}
