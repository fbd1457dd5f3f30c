import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { FileRecord } from '../store/types.js';
import { formatBytes } from '../format-bytes.js';
import { commandHint, type HintPlace } from '../text/command-hint.js';
import { escapeHtml, markdown, note, type MimeBundle } from './bundle.js';
import { table } from './table.js';

/** How a file is shown. */
export type FileKind = 'png' | 'jpeg' | 'svg' | 'markdown' | 'csv' | 'other';

/** What rendering needs of a file: a `files` row (FileRecord) fits. */
export type FileView = Pick<FileRecord, 'id' | 'name' | 'role' | 'mediaType' | 'status' | 'path' | 'bytes' | 'error' | 'expiresAt'>;

/** Options of {@link renderFile}. */
export interface FileRenderOptions {
  /** Folder that relative recorded paths are relative to. @default process.cwd() */
  baseDir?: string;
  /** Larger images are listed, not shown. @default 8 MB */
  maxImageBytes?: number;
  /** Text read from Markdown and CSV files; the rest is left out with a note. @default 256 KiB */
  maxTextBytes?: number;
  /** CSV rows shown. @default 50 */
  maxCsvRows?: number;
  /** The database, for the `resq files pull` a missing file's note suggests (`--db`). @default the default database */
  db?: string;
}

const BY_TYPE: Record<string, FileKind> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/svg+xml': 'svg',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/csv': 'csv',
  'application/csv': 'csv',
};

const BY_EXT: Record<string, FileKind> = {
  '.png': 'png',
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.svg': 'svg',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.csv': 'csv',
};

/** The kind of a file from its media type (parameters ignored), else from its name's extension. */
export function fileKind(mediaType: string | null, name: string | null): FileKind {
  const type = (mediaType ?? '').split(';')[0]!.trim().toLowerCase();
  const byType = BY_TYPE[type];
  if (byType) return byType;
  return (name && BY_EXT[extname(name).toLowerCase()]) || 'other';
}

/** A file's name for people: its name (or id) and role. */
export function fileLabel(f: Pick<FileView, 'id' | 'name' | 'role'>): string {
  return `${f.name ?? f.id}${f.role ? ` (${f.role})` : ''}`;
}

/** Why a file cannot be shown, or null when it is on disk at `path`. */
export function whyNotOnDisk(f: FileView, path: string | null, place: Pick<HintPlace, 'db'> = {}): string | null {
  const label = fileLabel(f);
  const pull = commandHint(['resq', 'files', 'pull'], place);
  if (f.status !== 'downloaded' || !f.path) {
    const why = f.error ? `: ${f.error}` : '';
    const hint =
      f.status === 'expired'
        ? 'the service has deleted it'
        : `\`${pull}\` fetches it while the service keeps it (until ${f.expiresAt})`;
    return `${label} is not on disk (status ${f.status}${why}); ${hint}`;
  }
  if (!path || !existsSync(path)) return `${label} was downloaded to ${f.path} but is not there any more; \`${pull}\` fetches it again`;
  return null;
}

function readHead(path: string, max: number): { text: string; cut: boolean } {
  const size = statSync(path).size;
  if (size <= max) return { text: readFileSync(path, 'utf8'), cut: false };
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(max);
    const n = readSync(fd, buf, 0, max, 0);
    // Cut at the last line end so no half row or half character is shown.
    const text = buf.subarray(0, n).toString('utf8');
    const nl = text.lastIndexOf('\n');
    return { text: nl > 0 ? text.slice(0, nl + 1) : text, cut: true };
  } finally {
    closeSync(fd);
  }
}

function csvBundle(f: FileView, path: string, o: FileRenderOptions): MimeBundle {
  const { text, cut } = readHead(path, o.maxTextBytes ?? 256_000);
  let records: string[][];
  try {
    records = parse(text, { relax_column_count: true, skip_empty_lines: true, bom: true }) as string[][];
  } catch (e) {
    return note(`${fileLabel(f)}: ${path} (${formatBytes(f.bytes)}) could not be read as CSV: ${(e as Error).message}`);
  }
  const [header = [], ...data] = records;
  const cols = header.map((h, i) => (h && header.indexOf(h) === i ? h : `${h || 'column'} ${i + 1}`));
  const rows = data.map((r) => Object.fromEntries(cols.map((c, i) => [c, r[i] ?? null])));
  const maxRows = o.maxCsvRows ?? 50;
  const shown = cut ? `first ${rows.length}+ rows` : `${rows.length} rows`;
  return table(rows, { columns: cols, maxRows, caption: `${fileLabel(f)} — ${shown}`, empty: 'no data rows' });
}

/**
 * One file as a bundle: PNG and JPEG as images, SVG as an image (inside `<img>`, so a script
 * in a service-made SVG never runs), Markdown rendered, CSV as a table; any other file, and
 * any file not on disk, as a line saying where it is (or why it is not there) and its size.
 */
export function renderFile(f: FileView, o: FileRenderOptions = {}): MimeBundle {
  const path = f.path ? resolve(o.baseDir ?? process.cwd(), f.path) : null;
  const missing = whyNotOnDisk(f, path, { db: o.db });
  if (missing || !path) return note(missing ?? `${fileLabel(f)} has no path`);
  const kind = fileKind(f.mediaType, f.name ?? path);
  const size = statSync(path).size;
  const where = `${fileLabel(f)}: ${path} (${formatBytes(size)}${f.mediaType ? `, ${f.mediaType}` : ''})`;
  const maxImage = o.maxImageBytes ?? 8_000_000;
  if ((kind === 'png' || kind === 'jpeg' || kind === 'svg') && size > maxImage) return note(`${where} — too large to show inline`);
  switch (kind) {
    case 'png':
      return { 'image/png': readFileSync(path).toString('base64'), 'text/plain': where };
    case 'jpeg':
      return { 'image/jpeg': readFileSync(path).toString('base64'), 'text/plain': where };
    case 'svg': {
      const svg = readFileSync(path);
      const img = `<img alt="${escapeHtml(fileLabel(f))}" src="data:image/svg+xml;base64,${svg.toString('base64')}"/>`;
      return { 'text/html': img, 'image/svg+xml': svg.toString('utf8'), 'text/plain': where };
    }
    case 'markdown': {
      const { text, cut } = readHead(path, o.maxTextBytes ?? 256_000);
      return markdown(cut ? `${text}\n\n*… cut here: the whole file is ${path} (${formatBytes(size)})*\n` : text);
    }
    case 'csv':
      return csvBundle(f, path, o);
    default:
      return { 'text/plain': where, 'text/html': `<p><code>${escapeHtml(where)}</code></p>` };
  }
}
