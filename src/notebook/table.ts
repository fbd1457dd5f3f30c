import { escapeHtml, type MimeBundle } from './bundle.js';

/** Options of {@link table}. */
export interface TableOptions {
  /** Columns to show, in order (dotted names reach into nested objects: `meta.topic`). @default every key, in order of first appearance */
  columns?: readonly string[];
  /** Rows on a page; a note says which page this is and how to show the next. @default 50 */
  maxRows?: number;
  /** Which page of `maxRows` rows to show, from 1 (a page past the last shows the last). @default 1 */
  page?: number;
  /** Longest cell text before it is cut with "…". @default 120 */
  maxCell?: number;
  /** Shown when there are no rows. @default "no rows" */
  empty?: string;
  /** A caption above the table. */
  caption?: string;
}

type Row = Record<string, unknown>;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

/** Flattens one level of nested plain objects into dotted keys: `{meta: {topic: 'x'}}` → `meta.topic`. */
export function flatten(row: object): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    if (isPlainObject(v) && Object.keys(v).length > 0) for (const [k2, v2] of Object.entries(v)) out[`${k}.${k2}`] = v2;
    else out[k] = v;
  }
  return out;
}

/** Text of one cell: empty for null, JSON for lists and objects, cut at `max` characters. */
export function cellText(v: unknown, max = 120): string {
  let s: string;
  if (v === null || v === undefined) s = '';
  else if (typeof v === 'number') s = Number.isInteger(v) ? String(v) : String(Number(v.toFixed(3)));
  else if (typeof v === 'string') s = v;
  else if (typeof v === 'object') s = JSON.stringify(v);
  else s = String(v);
  s = s.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, Math.max(1, max - 1))}…` : s;
}

/** The columns of some rows: every key in order of first appearance. */
export function columnsOf(rows: readonly object[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

/** `showing 50 of 1700 rows (page 1 of 34; { page: 2 } shows the next)`. */
function pageNote(page: number, pages: number, from: number, shown: number, total: number): string {
  const which = page === 1 ? `${shown}` : `rows ${from + 1}–${from + shown}`;
  const next = page < pages ? `; { page: ${page + 1} } shows the next` : '';
  return `showing ${which} of ${total} rows (page ${page} of ${pages}${next})`;
}

/**
 * Renders plain row objects (any objects: interfaces too) as a table: HTML for Jupyter, aligned text otherwise. Cells are
 * escaped; nested objects (such as `meta`) become dotted columns. A long table shows one page of `maxRows` rows and says
 * how to show the next (`{ page: 2 }`).
 */
export function table(rows: readonly object[], opts: TableOptions = {}): MimeBundle {
  const maxRows = opts.maxRows ?? 50;
  const maxCell = opts.maxCell ?? 120;
  const caption = opts.caption ? `<caption style="text-align:left;font-weight:bold">${escapeHtml(opts.caption)}</caption>` : '';
  if (rows.length === 0) {
    const msg = opts.empty ?? 'no rows';
    return { 'text/html': `<p>${opts.caption ? `<strong>${escapeHtml(opts.caption)}</strong>: ` : ''}<em>${escapeHtml(msg)}</em></p>`, 'text/plain': opts.caption ? `${opts.caption}: ${msg}` : msg };
  }
  const pages = Math.max(1, Math.ceil(rows.length / maxRows));
  const page = Math.min(pages, Math.max(1, Math.floor(opts.page ?? 1)));
  const from = (page - 1) * maxRows;
  const flat = rows.slice(from, from + maxRows).map(flatten);
  const cols = opts.columns ? [...opts.columns] : columnsOf(flat);
  const cells = flat.map((r) => cols.map((c) => cellText(r[c], maxCell)));
  const more = pages > 1 ? pageNote(page, pages, from, flat.length, rows.length) : '';
  const align = (c: number): string => (flat.every((r) => typeof r[cols[c] ?? ''] === 'number' || r[cols[c] ?? ''] == null) ? 'right' : 'left');
  const head = cols.map((c, i) => `<th style="text-align:${align(i)}">${escapeHtml(c)}</th>`).join('');
  const body = cells
    .map((r) => `<tr>${r.map((v, i) => `<td style="text-align:${align(i)}">${escapeHtml(v)}</td>`).join('')}</tr>`)
    .join('\n');
  const html = `<table>${caption}\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table>${more ? `<p><em>${more}</em></p>` : ''}`;
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (vals: readonly string[]): string => vals.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  const plain = [opts.caption ?? '', line(cols), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line), more].filter(Boolean).join('\n');
  return { 'text/html': html, 'text/plain': plain };
}
