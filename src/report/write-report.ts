import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { isoNow } from '../clock.js';
import type { BatchRecord } from '../store/index.js';
import { gatherReport, rowsWithVerdicts, type ReportStore } from './gather.js';
import { itemRow } from './item-html.js';
import { renderHead, REPORT_TAIL } from './render-head.js';

/** Most bytes a report is written to (under 20 MB, whatever the batch's size): long texts are cut to fit. */
export const REPORT_MAX_BYTES = 19_900_000;

/** How `resq report` writes its file. */
export interface ReportOptions {
  /** The HTML file to write (replaced whole, atomically). */
  output: string;
  /** Another batch to show the regressions against (it is "before", this batch "after"). */
  compare?: BatchRecord | null;
  /** The address `resq serve` answers on, for the links to whole answers. @default http://127.0.0.1:8642 */
  serveUrl?: string;
  /** @default {@link REPORT_MAX_BYTES} */
  maxBytes?: number;
  /** Rows read per page. @default 500 */
  pageSize?: number;
  /** When the report is made (ISO 8601). @default now */
  madeAt?: string;
}

/** What was written. */
export interface ReportWritten {
  path: string;
  bytes: number;
  items: number;
}

/**
 * Writes a batch's report: one self-contained HTML file (no script, no outside resource, a CSP
 * that forbids both) with the counts, cost, pass rates, failures, decisions, the regressions
 * against `compare`, and every item. The rows are streamed a page at a time and each is sized
 * to its share of what room is left, so the file stays under `maxBytes`. Written to a temp
 * file beside the output, flushed, then renamed over it: a reader sees the old file or the new
 * one whole, never half of one.
 */
export async function writeReport(store: ReportStore, batch: BatchRecord, o: ReportOptions): Promise<ReportWritten> {
  const path = resolve(o.output);
  const maxBytes = o.maxBytes ?? REPORT_MAX_BYTES;
  const place = { batchName: batch.name, serveUrl: (o.serveUrl ?? 'http://127.0.0.1:8642').replace(/\/+$/, ''), reportDir: dirname(path) };
  const summary = await gatherReport(store, batch, { compare: o.compare ?? null, ...(o.pageSize ? { pageSize: o.pageSize } : {}) });
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx', 0o644);
  let bytes = 0;
  let items = 0;
  let chunk = '';
  const flush = async (): Promise<void> => {
    if (chunk === '') return;
    await fh.write(chunk);
    chunk = '';
  };
  const put = async (s: string): Promise<void> => {
    chunk += s;
    bytes += Buffer.byteLength(s);
    if (chunk.length >= 1 << 16) await flush();
  };
  try {
    await put(renderHead(batch, summary, o.madeAt ?? isoNow(), place.serveUrl));
    for await (const { row, verdicts } of rowsWithVerdicts(store, batch, o.pageSize)) {
      const left = Math.max(1, summary.items - items);
      await put(itemRow(row, verdicts, summary.scorers, place, (maxBytes - bytes - REPORT_TAIL.length) / left));
      items++;
    }
    await put(REPORT_TAIL);
    await flush();
    await fh.sync();
    await fh.close();
    await rename(tmp, path);
  } catch (e) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  return { path, bytes, items };
}
