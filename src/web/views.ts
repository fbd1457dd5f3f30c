import { hostname } from 'node:os';
import { readItemView } from '../read/item-view.js';
import type { BatchRecord, FileRecord, FileStore, ReadStore, ScoreStore } from '../store/index.js';
import type { FileView, ItemView } from './api-schemas.js';
import { renderMarkdown } from './markdown.js';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The media type of a file without parameters, else one guessed from its name's extension. */
export function fileType(f: Pick<FileRecord, 'mediaType' | 'name' | 'path'>): string {
  const declared = f.mediaType?.split(';')[0]?.trim().toLowerCase();
  if (declared && declared !== 'application/octet-stream') return declared;
  const ext = /\.([a-z0-9]+)$/i.exec(f.name ?? f.path ?? '')?.[1]?.toLowerCase();
  const byExt: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', md: 'text/markdown', csv: 'text/csv', txt: 'text/plain', json: 'application/json' };
  return (ext && byExt[ext]) || declared || 'application/octet-stream';
}

/** How the page shows a file: images inline (SVG only as <img>), text kinds as text, the rest as a download. */
export function fileView(f: Pick<FileRecord, 'mediaType' | 'name' | 'path'>): FileView {
  const t = fileType(f);
  if (IMAGE_TYPES.has(t)) return 'image';
  if (t === 'image/svg+xml') return 'svg';
  if (t === 'text/markdown') return 'markdown';
  if (t === 'text/csv') return 'csv';
  if (t === 'text/plain' || t === 'application/json' || t === 'chemical/x-pdb') return 'text';
  return 'download';
}

/** Whether a file is on this machine's disk (the host that downloaded it is this one). */
export function isHere(f: Pick<FileRecord, 'status' | 'path' | 'host'>): boolean {
  return f.status === 'downloaded' && f.path !== null && (f.host === null || f.host === hostname());
}

/** One item in full for its page: the read model's view (its `next` with `--db db`, the database resq serve was given), the answer rendered, each file's place here. */
export async function itemViewOf(store: ReadStore & FileStore & ScoreStore, batch: BatchRecord, itemId: string, nowMs: number, db?: string): Promise<ItemView | null> {
  if (!(await store.getItem(batch.id, itemId))) return null;
  const v = await readItemView(store, batch, itemId, { nowMs, hint: { db } });
  return {
    ...v,
    answerHtml: v.item.text === null ? null : renderMarkdown(v.item.text),
    files: v.files.map((f) => ({ ...f, here: isHere(f), view: fileView(f) })),
  };
}
