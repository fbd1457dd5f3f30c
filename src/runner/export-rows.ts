import type { BatchRecord, FileRecord, FileStatus, ItemState, Store } from '../store/index.js';

/** Item status as exported: `submitting` is reported as `running` (the run may exist). */
export type ExportStatus = 'queued' | 'running' | 'waiting' | 'held' | 'completed' | 'failed' | 'error' | 'cancelled';

/** One exported row: exactly the fields of DESIGN.md's export row. */
export interface ExportRow {
  id: string;
  question: string;
  status: ExportStatus;
  run_status: string | null;
  thread_id: string | null;
  run_ids: string[];
  text: string | null;
  decisions: { tool: string; input: Record<string, unknown>; answer: Record<string, unknown>; by: 'policy' | 'person' }[];
  files: { id: string; role: string | null; name: string | null; path: string | null; bytes: number | null; sha256: string | null; status: FileStatus }[];
  error: string | null;
  meta: Record<string, unknown>;
}

/** A file as the export rows show it. */
export type ExportFile = ExportRow['files'][number];

/** Reduces a stored file to its export fields. */
export function exportFile(f: Pick<FileRecord, 'id' | 'role' | 'name' | 'path' | 'bytes' | 'sha256' | 'status'>): ExportFile {
  return { id: f.id, role: f.role, name: f.name, path: f.path, bytes: f.bytes, sha256: f.sha256, status: f.status };
}

function exportStatus(s: ItemState): ExportStatus {
  return s === 'submitting' ? 'running' : s;
}

/** Streams a batch's export rows in file order, a page of aggregates at a time. */
export async function* exportRows(store: Store, batch: BatchRecord, pageSize = 500): AsyncGenerator<ExportRow> {
  for (let after = -1; ; ) {
    const page = await store.aggregates(batch.id, after, pageSize);
    if (page.length === 0) return;
    for (const a of page) {
      const it = a.item;
      after = it.seq;
      yield {
        id: it.id,
        question: it.question,
        status: exportStatus(it.state),
        run_status: it.runStatus,
        thread_id: it.threadId,
        run_ids: a.runIds,
        text: it.text,
        decisions: a.decisions.map((d) => ({ tool: d.tool, input: d.input, answer: d.answer, by: d.by })),
        files: a.files.map(exportFile),
        error: it.error,
        meta: it.meta,
      };
    }
  }
}

/** Column order of the CSV export. */
export const CSV_COLUMNS = [
  'id',
  'question',
  'status',
  'run_status',
  'thread_id',
  'run_ids',
  'text',
  'decisions',
  'files',
  'error',
  'meta',
] as const;

/** Flattens a row for CSV: lists and objects become JSON text, run ids join with spaces. */
export function flattenRow(r: ExportRow): Record<(typeof CSV_COLUMNS)[number], string> {
  return {
    id: r.id,
    question: r.question,
    status: r.status,
    run_status: r.run_status ?? '',
    thread_id: r.thread_id ?? '',
    run_ids: r.run_ids.join(' '),
    text: r.text ?? '',
    decisions: JSON.stringify(r.decisions),
    files: JSON.stringify(r.files),
    error: r.error ?? '',
    meta: JSON.stringify(r.meta),
  };
}
