import { stringify } from 'csv-stringify/sync';
import type { BatchRecord, Store } from '../../store/index.js';
import { CSV_COLUMNS, exportRows, flattenRow } from '../export-rows.js';

/** What to export. */
export interface ExportOptions {
  /** JSONL (one row object a line) or CSV (a header, lists as JSON text). @default 'jsonl' */
  format?: 'jsonl' | 'csv';
  /** The rows `--skip-invalid` left out (file, line, field, reason) instead of the items. @default false */
  invalid?: boolean;
}

const INVALID_COLUMNS = ['file', 'line', 'field', 'reason'] as const;

/**
 * A batch's export as text, a line at a time (CSV: the header first), in file order:
 * what `resq export` writes to a file and the web view streams to a download. Reads the
 * store a page at a time, so a batch of any size takes little memory.
 */
export async function* exportLines(store: Store, batch: BatchRecord, o: ExportOptions = {}): AsyncGenerator<string> {
  const csv = o.format === 'csv';
  if (o.invalid) {
    if (csv) yield stringify([[...INVALID_COLUMNS]]);
    for (const p of batch.invalidRows) {
      const row = { file: p.file, line: p.line ?? null, field: p.field ?? null, reason: p.reason };
      yield csv ? stringify([INVALID_COLUMNS.map((c) => String(row[c] ?? ''))]) : `${JSON.stringify(row)}\n`;
    }
    return;
  }
  if (csv) yield stringify([[...CSV_COLUMNS]]);
  for await (const row of exportRows(store, batch)) {
    if (!csv) {
      yield `${JSON.stringify(row)}\n`;
      continue;
    }
    const flat = flattenRow(row);
    yield stringify([CSV_COLUMNS.map((c) => flat[c])]);
  }
}
