import { isGoneHere } from '../../local-process.js';
import type { BatchOverview } from '../../store/index.js';
import { oneLine } from '../../text/printable.js';
import { alignColumns } from './columns.js';

/** A batch's line of `resq batches` as data (what --json prints). */
export interface BatchLine {
  name: string;
  kind: 'runs' | 'models';
  created: string;
  items: number;
  counts: BatchOverview['counts'];
  cost: number;
  files: number;
  filesOnDisk: number;
  workers: number;
  cancelled: boolean;
}

/** Reduces an overview to its line. */
export function batchLine(o: BatchOverview): BatchLine {
  const f = o.files;
  return {
    name: o.batch.name,
    kind: o.batch.kind,
    created: o.batch.createdAt,
    items: o.batch.totalItems,
    counts: o.counts,
    cost: o.approvedCost,
    files: f.pending + f.downloaded + f.failed + f.expired + f.missing,
    filesOnDisk: f.downloaded,
    // Live ones: a worker of this host whose process ended is not.
    workers: o.workers.filter((w) => !isGoneHere(w)).length,
    cancelled: o.batch.cancelledAt !== null,
  };
}

function countsText(l: BatchLine): string {
  const c = l.counts;
  const parts = [
    `${c.completed} done`,
    c.failed + c.error ? `${c.failed + c.error} failed` : '',
    c.held ? `${c.held} held` : '',
    c.submitting + c.running + c.waiting ? `${c.submitting + c.running + c.waiting} in flight` : '',
    c.queued ? `${c.queued} queued` : '',
    c.cancelled ? `${c.cancelled} cancelled` : '',
  ];
  return parts.filter(Boolean).join(', ');
}

/** `resq batches` as text: one aligned row per batch, newest first. */
export function formatBatches(lines: readonly BatchLine[]): string {
  if (lines.length === 0) return 'no batches yet (start one with resq run)';
  const rows = lines.map((l) => [
    oneLine(l.name, 30),
    l.kind,
    l.created.slice(0, 16).replace('T', ' '),
    String(l.items),
    countsText(l) + (l.cancelled ? ' (cancelled)' : ''),
    l.cost ? String(l.cost) : '-',
    l.files ? `${l.filesOnDisk}/${l.files}` : '-',
    l.workers ? String(l.workers) : '-',
  ]);
  const head = ['batch', 'kind', 'created', 'items', 'state', 'cost', 'files', 'workers'];
  return alignColumns([head, ...rows]).join('\n');
}
