import type { BatchRecord } from '../../store/index.js';
import { csvExport, csvRecord, UTF8_BOM, type CsvOptions } from '../export-csv.js';
import { exportRows, type ExportStore, FAILED_STATES } from '../../read/export-rows.js';

/** What to export. */
export interface ExportOptions extends CsvOptions {
  /** JSONL (one row object a line) or CSV (a header, one column per meta key, lists as JSON text). @default 'jsonl' */
  format?: 'jsonl' | 'csv';
  /** The rows `--skip-invalid` left out (file, line, field, reason) instead of the items. @default false */
  invalid?: boolean;
  /** Only the failed and errored items. @default false */
  failed?: boolean;
}

const INVALID_COLUMNS = ['file', 'line', 'field', 'reason'] as const;

/**
 * A batch's export as text, a line at a time (CSV: the header first), in file order:
 * what `resq export` writes to a file and the web view streams to a download. Reads the
 * store a page at a time (CSV: its meta keys first, in one query), so a batch of any size
 * takes little memory. CSV cells that a spreadsheet would run as a formula are neutralised
 * unless `raw`.
 */
export async function* exportLines(store: ExportStore, batch: BatchRecord, o: ExportOptions = {}): AsyncGenerator<string> {
  const csv = o.format === 'csv';
  const cells: CsvOptions = { raw: o.raw === true, excel: o.excel === true };
  if (o.invalid) {
    if (csv) yield `${cells.excel ? UTF8_BOM : ''}${csvRecord(INVALID_COLUMNS, cells)}`;
    for (const p of batch.invalidRows) {
      const row = { file: p.file, line: p.line ?? null, field: p.field ?? null, reason: p.reason };
      yield csv ? csvRecord(INVALID_COLUMNS.map((c) => String(row[c] ?? '')), cells) : `${JSON.stringify(row)}\n`;
    }
    return;
  }
  const selection = o.failed ? { states: FAILED_STATES } : {};
  if (csv) {
    yield* csvExport(store, batch, { ...cells, ...selection });
    return;
  }
  for await (const row of exportRows(store, batch, selection)) yield `${JSON.stringify(row)}\n`;
}
