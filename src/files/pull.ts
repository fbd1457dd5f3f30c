import { hostname } from 'node:os';
import type { BatchRecord, FileStatus, FileStore } from '../store/index.js';
import { Downloader, type DownloaderOptions } from './downloader.js';
import type { DownloadSummary, FileRef } from './events.js';
import { checkOnDisk, eachDownloaded } from './verify.js';

/** Options of {@link pullFiles}. */
export interface PullOptions extends Omit<DownloaderOptions, 'outDir'> {
  /** The batches to pull (every batch: `store.listBatches()`). */
  batches: readonly BatchRecord[];
  /** Root folder of downloads. @default each batch's `settings.download.out`, else `out` */
  outDir?: string | null;
  /** Aborting stops downloads in flight; the report covers what finished. */
  signal?: AbortSignal;
}

/** A file that is not on disk after the pull. */
export interface NotOnDisk extends FileRef {
  name: string | null;
  status: Exclude<FileStatus, 'downloaded'>;
  reason: string | null;
}

/** What `files pull` did. */
export interface PullReport extends DownloadSummary {
  batches: string[];
  /** Files already on this machine's disk with the recorded size and hash: not fetched again. */
  skipped: number;
  /** This machine's copies fetched of files only other hosts held, by those hosts (`box-a: 40`). */
  fromOtherHosts: Record<string, number>;
  /** Files recorded as downloaded but gone or changed on disk: fetched again. */
  repaired: (FileRef & { path: string | null; reason: string })[];
  /** Every file of the batches still not on disk (expired earlier ones included). */
  notOnDisk: NotOnDisk[];
  /** True when the signal stopped the pull. */
  interrupted: boolean;
}

/** Where a batch's files go when no folder is given. */
export function defaultOutDir(batch: BatchRecord): string {
  return batch.settings.download?.out ?? 'out';
}

/**
 * Downloads everything not yet on this machine's disk for the batches: pending, failed and
 * missing files, downloaded files that are gone or changed on disk (checked by size and
 * SHA-256), and files only other machines hold — fetched as this machine's own copy (under
 * `outDir`), recorded beside the other machine's record, which stays as it is.
 * Files the service answers 404 for end `expired` or `missing`; expired files are not asked for again.
 */
export async function pullFiles(o: PullOptions): Promise<PullReport> {
  const { store } = o;
  const repaired: PullReport['repaired'] = [];
  let skipped = 0;
  const marks: Promise<boolean>[] = [];
  const host = o.host ?? hostname();
  // Files on another machine's disk: this machine fetches its own copy while the service has it.
  const fromOtherHosts: Record<string, number> = {};
  const copies = new Map<BatchRecord, string[]>();
  for (const batch of o.batches) {
    const mine = new Map((await store.fileCopies(batch.id)).filter((c) => c.host === host).map((c) => [c.fileId, c]));
    const wanted: string[] = [];
    copies.set(batch, wanted);
    for (const f of await store.filesForBatch(batch.id, ['downloaded'])) {
      if (f.host === null || f.host === host) continue;
      const copy = mine.get(f.id);
      if (!copy) {
        wanted.push(f.id);
        fromOtherHosts[f.host] = (fromOtherHosts[f.host] ?? 0) + 1;
        continue;
      }
      const r = await checkOnDisk(copy);
      if (r.state === 'ok') {
        skipped++;
        continue;
      }
      wanted.push(f.id);
      const reason = r.state === 'gone' ? `this machine's copy is gone from disk (${r.reason})` : `this machine's copy changed on disk (${r.reason})`;
      repaired.push({ batchId: batch.id, batch: batch.name, itemId: f.itemId, fileId: f.id, path: copy.path, reason });
    }
  }
  await eachDownloaded(store, o.batches, (batch, f, r) => {
    if (r.state === 'ok') return void skipped++;
    const reason = r.state === 'gone' ? `gone from disk (${r.reason})` : `changed on disk (${r.reason})`;
    marks.push(store.markFileStatus(batch.id, f.id, 'pending', reason));
    repaired.push({ batchId: batch.id, batch: batch.name, itemId: f.itemId, fileId: f.id, path: f.path, reason });
  }, { host });
  await Promise.all(marks);
  const outDir = o.outDir;
  const downloader = new Downloader({ ...o, outDir: (b) => outDir ?? defaultOutDir(b) });
  const onAbort = (): void => downloader.stop();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  if (o.signal?.aborted) downloader.stop();
  try {
    for (const b of o.batches) {
      downloader.kick(b, ['missing']);
      downloader.copy(b, copies.get(b) ?? []);
    }
    const summary = await downloader.drain();
    return { ...summary, batches: o.batches.map((b) => b.name), skipped, fromOtherHosts, repaired, notOnDisk: await notOnDisk(store, o.batches), interrupted: downloader.stopped };
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
  }
}

async function notOnDisk(store: FileStore, batches: readonly BatchRecord[]): Promise<NotOnDisk[]> {
  const out: NotOnDisk[] = [];
  for (const b of batches)
    for (const f of await store.filesForBatch(b.id, ['pending', 'failed', 'expired', 'missing']))
      out.push({ batchId: b.id, batch: b.name, itemId: f.itemId, fileId: f.id, name: f.name, status: f.status as NotOnDisk['status'], reason: f.error });
  return out;
}
