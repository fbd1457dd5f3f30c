import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Context, Hono } from 'hono';
import type { BatchStore, FileRecord, FileStore } from '../store/index.js';
import { FilePreviewSchema } from './api-schemas.js';
import { openRecordedFile } from './file-on-disk.js';
import { renderMarkdown } from './markdown.js';
import { sendError, sendJson } from './respond.js';
import { FILE_CSP } from './security.js';
import { fileType, fileView, isHere } from './views.js';
import type { WebEnv } from './write-routes.js';

/** Most bytes of a text file shown in the page. */
const PREVIEW_BYTES = 256 * 1024;
/** Most CSV rows shown as a table. */
const PREVIEW_ROWS = 200;

/** `filename*` of a Content-Disposition: any name, percent-encoded (no quote or line break can break out). */
export function dispositionOf(kind: 'inline' | 'attachment', name: string | null, fallback: string): string {
  const n = name ?? fallback;
  const ascii = n.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'file';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(n)}`;
}

/** A file of the request, open for reading: on this host, and where resq put it ({@link openRecordedFile}); else a 404 (and a log line when the file on disk is refused). */
async function fileOr404(c: Context, store: BatchStore & FileStore, log: (line: string) => void): Promise<{ f: FileRecord; handle: FileHandle } | Response> {
  const batch = await store.findBatch(c.req.param('batch') ?? '');
  if (!batch) return sendError(c, 404, 'RESQ_NOT_FOUND', 'no such batch');
  const f = await store.getFile(batch.id, c.req.param('file') ?? '');
  if (!f || f.itemId !== c.req.param('item')) return sendError(c, 404, 'RESQ_NOT_FOUND', 'no such file');
  if (!isHere(f)) return sendError(c, 404, 'RESQ_NOT_HERE', f.status === 'downloaded' ? `the file is on host "${f.host}", not this one` : `the file is ${f.status}, not on disk`);
  const opened = await openRecordedFile(batch, f);
  if (!opened.ok) {
    log(`file ${JSON.stringify(f.id)} of item ${JSON.stringify(f.itemId)} (batch ${JSON.stringify(batch.name)}) not served: ${opened.why}`);
    return sendError(c, 404, 'RESQ_NOT_HERE', 'the file is not where resq put it (the server logged why)');
  }
  return { f, handle: opened.handle };
}

/**
 * A run's files. Raw: PNG/JPEG/GIF/WebP inline under their own type; SVG inline as an image
 * (the page shows it only as <img>, where scripts never run); everything else a download
 * (application/octet-stream, attachment); all under a sandbox CSP. Preview: text kinds read
 * (bounded) for the page — Markdown rendered safely, CSV as rows, the rest as text.
 */
export function fileRoutes(app: Hono<WebEnv>, store: BatchStore & FileStore, log: (line: string) => void): void {
  app.get('/api/batches/:batch/items/:item/files/:file', async (c) => {
    const found = await fileOr404(c, store, log);
    if (found instanceof Response) return found;
    const { f, handle } = found;
    const view = fileView(f);
    const inline = view === 'image' || view === 'svg';
    const type = inline ? fileType(f) : 'application/octet-stream';
    const body = Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>;
    return new Response(body, {
      headers: {
        'Content-Type': type,
        'Content-Disposition': dispositionOf(inline ? 'inline' : 'attachment', f.name, f.id),
        'Content-Security-Policy': FILE_CSP,
        'Cache-Control': 'no-store',
      },
    });
  });

  app.get('/api/batches/:batch/items/:item/files/:file/preview', async (c) => {
    const found = await fileOr404(c, store, log);
    if (found instanceof Response) return found;
    const { f, handle: fh } = found;
    const view = fileView(f);
    if (view !== 'markdown' && view !== 'csv' && view !== 'text') {
      await fh.close();
      return sendError(c, 400, 'RESQ_BAD_REQUEST', 'this file is not text: download it');
    }
    let text: string;
    let truncated: boolean;
    try {
      const buf = Buffer.alloc(PREVIEW_BYTES + 1);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      truncated = bytesRead > PREVIEW_BYTES;
      text = buf.subarray(0, Math.min(bytesRead, PREVIEW_BYTES)).toString('utf8');
    } finally {
      await fh.close();
    }
    if (view === 'markdown') return sendJson(c, FilePreviewSchema, { kind: 'markdown', html: renderMarkdown(text), truncated });
    if (view === 'csv') {
      const { parse } = await import('csv-parse/sync');
      let rows: string[][];
      try {
        rows = (parse(text, { relax_column_count: true, relax_quotes: true, skip_empty_lines: true, to: PREVIEW_ROWS + 1 }) as string[][]).map((r) => r.map(String));
      } catch {
        return sendJson(c, FilePreviewSchema, { kind: 'text', text, truncated });
      }
      return sendJson(c, FilePreviewSchema, { kind: 'csv', rows: rows.slice(0, PREVIEW_ROWS), truncated: truncated || rows.length > PREVIEW_ROWS });
    }
    return sendJson(c, FilePreviewSchema, { kind: 'text', text, truncated });
  });
}
