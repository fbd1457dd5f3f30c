import type { BatchRecord } from '../store/index.js';
import { decisionWords, deciderName } from '../read/decision-text.js';
import { exportRows, type ExportRow, type ExportSelection, type ExportStore } from '../read/export-rows.js';
import { scorersShown } from '../read/score-rates.js';
import { scorerNames } from '../read/item-verdicts.js';

/** How CSV is written. */
export interface CsvOptions {
  /** Cells as they are, with no guard against spreadsheet formulas. @default false */
  raw?: boolean;
  /** For Excel: a UTF-8 byte order mark first and CRLF line ends. @default false */
  excel?: boolean;
}

/** Columns before the meta columns. */
const LEAD = ['id', 'question'] as const;
/** Columns after the meta columns; lists (decisions, files, reasons) are JSON text, run ids joined with spaces. */
const TAIL = [
  'status',
  'run_status',
  'error_code',
  'error',
  'cost',
  'duration_seconds',
  'created_at',
  'finished_at',
  'text',
  'decision_reasons',
  'decided_by',
  'decision_notes',
  'decisions',
  'files',
  'run_ids',
  'thread_id',
] as const;

/** The first character of a cell a spreadsheet would read as a formula (OWASP's CSV-injection list). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell a spreadsheet shows as text, never runs: one that begins with `=`, `+`, `-`, `@`,
 * tab or CR gets a single quote before it, as OWASP's CSV-injection guidance says.
 */
export function neutralise(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** The header of a batch's CSV: fixed columns around one `meta.KEY` column per meta key, then `pass_NAME` and `score_NAME` per scorer. */
export function csvColumns(metaKeys: readonly string[], scorers: readonly string[] = []): string[] {
  return [...LEAD, ...metaKeys.map((k) => `meta.${k}`), ...TAIL, ...scorers.flatMap((s) => [`pass_${s}`, `score_${s}`])];
}

/** A meta value as a cell: text as it is, anything else as JSON (numbers keep the file's text), absent or null empty. */
function metaCell(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** One export row as cells in the order of {@link csvColumns}: a verdict's pass as `true`/`false`, its score as a number, empty when not judged. */
export function csvCells(r: ExportRow, metaKeys: readonly string[], scorers: readonly string[] = []): string[] {
  const tail: Record<(typeof TAIL)[number], string> = {
    status: r.status,
    run_status: r.run_status ?? '',
    error_code: r.error_code ?? '',
    error: r.error ?? '',
    cost: String(r.cost),
    duration_seconds: r.duration_seconds === null ? '' : String(r.duration_seconds),
    created_at: r.created_at ?? '',
    finished_at: r.finished_at ?? '',
    text: r.text ?? '',
    decision_reasons: JSON.stringify(r.decisions.map((d) => d.reason)),
    // Who decided each pause, in words a spreadsheet shows as they are: `confirm_scope: approved by Ana`.
    decided_by: r.decisions.map((d) => `${d.tool}: ${decisionWords(d.answer)} by ${deciderName({ by: d.by, person: d.person ?? null })}`).join('; '),
    decision_notes: r.decisions.flatMap((d) => (d.note ? [`${d.tool}: ${d.note}`] : [])).join('; '),
    decisions: JSON.stringify(r.decisions),
    files: JSON.stringify(r.files),
    run_ids: r.run_ids.join(' '),
    thread_id: r.thread_id ?? '',
  };
  const meta = Object.hasOwn(r, 'meta') ? r.meta : {};
  const scores = scorers.flatMap((s) => {
    const v = Object.hasOwn(r.scores, s) ? r.scores[s] : undefined;
    return [v?.pass === null || v?.pass === undefined ? '' : String(v.pass), v?.score === null || v?.score === undefined ? '' : String(v.score)];
  });
  return [r.id, r.question, ...metaKeys.map((k) => metaCell(Object.hasOwn(meta, k) ? meta[k] : undefined)), ...TAIL.map((c) => tail[c]), ...scores];
}

/** A cell quoted as RFC 4180 says when it holds a comma, a quote or a line break. */
function quoted(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/**
 * One CSV record (its line end included), every cell guarded unless `raw`. Quoted here rather
 * than by csv-stringify, whose set-up on every call costs several times this per row
 * (docs/performance.md).
 */
export function csvRecord(cells: readonly string[], o: CsvOptions = {}): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) line += `${i ? ',' : ''}${quoted(o.raw ? cells[i]! : neutralise(cells[i]!))}`;
  return `${line}${o.excel ? '\r\n' : '\n'}`;
}

/** The byte order mark Excel needs to read UTF-8 ("café", not "cafÃ©"). */
export const UTF8_BOM = '\ufeff';

/**
 * A batch's CSV export as text chunks: header first, then one record per item in file order.
 * Reads holding no batch: the meta keys and scorers (a query each), then the rows a page at a
 * time.
 */
export async function* csvExport(store: ExportStore, batch: BatchRecord, o: CsvOptions & ExportSelection = {}): AsyncGenerator<string> {
  const keys = await store.metaKeys(batch.id);
  const scorers = scorerNames(await scorersShown(store, batch));
  yield `${o.excel ? UTF8_BOM : ''}${csvRecord(csvColumns(keys, scorers), o)}`;
  for await (const row of exportRows(store, batch, o)) yield csvRecord(csvCells(row, keys, scorers), o);
}
