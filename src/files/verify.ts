import { hostname } from 'node:os';
import { stat } from 'node:fs/promises';
import PQueue from 'p-queue';
import type { BatchRecord, BatchStore, FileRecord, FileStore } from '../store/index.js';
import { hashFile } from './write-file.js';

/** How a downloaded file compares with what was recorded when it was downloaded. */
export type DiskCheck =
  | { state: 'ok' }
  | { state: 'gone'; reason: string }
  | { state: 'changed'; reason: string };

/**
 * Compares a downloaded file on disk with its recorded size and SHA-256 (the size first, so
 * a truncated file is found without reading it).
 */
export async function checkOnDisk(file: Pick<FileRecord, 'path' | 'bytes' | 'sha256'>): Promise<DiskCheck> {
  if (!file.path) return { state: 'gone', reason: 'no path recorded' };
  let size: number;
  try {
    const st = await stat(file.path);
    if (!st.isFile()) return { state: 'gone', reason: `${file.path} is not a file` };
    size = st.size;
  } catch {
    return { state: 'gone', reason: `${file.path} is not on disk` };
  }
  if (file.bytes !== null && size !== file.bytes) return { state: 'changed', reason: `size is ${size} bytes, recorded ${file.bytes}` };
  const d = await hashFile(file.path);
  if (file.sha256 !== null && d.sha256 !== file.sha256) return { state: 'changed', reason: `sha256 is ${d.sha256}, recorded ${file.sha256}` };
  return { state: 'ok' };
}

/** A downloaded file that is no longer as it was downloaded. */
export interface VerifyProblem {
  batch: string;
  batchId: string;
  itemId: string;
  fileId: string;
  path: string | null;
  state: 'gone' | 'changed';
  reason: string;
}

/** What `files verify` found. */
export interface VerifyReport {
  batches: string[];
  /** Downloaded files checked. */
  checked: number;
  ok: number;
  /** Bytes re-hashed. */
  bytes: number;
  problems: VerifyProblem[];
}

/**
 * Visits every downloaded file of the batches on this host's disk with its check, a few at
 * a time; with `copies`, also this host's copies of files another host downloaded (the
 * file as the copy has it: its path, size and hash).
 */
export async function eachDownloaded(
  store: FileStore,
  batches: readonly BatchRecord[],
  visit: (batch: BatchRecord, file: FileRecord, result: DiskCheck) => void,
  o: { concurrency?: number; host?: string; copies?: boolean } = {},
): Promise<void> {
  const host = o.host ?? hostname();
  const queue = new PQueue({ concurrency: o.concurrency ?? 4 });
  for (const batch of batches) {
    const copies = o.copies ? new Map((await store.fileCopies(batch.id)).filter((c) => c.host === host).map((c) => [c.fileId, c])) : null;
    for (const stored of await store.filesForBatch(batch.id, ['downloaded'])) {
      const copy = stored.host !== null && stored.host !== host ? copies?.get(stored.id) : undefined;
      // A file on another machine's disk is that machine's to check; this machine's copy of it is this one's.
      if (stored.host !== null && stored.host !== host && !copy) continue;
      const file = copy ? { ...stored, host, path: copy.path, bytes: copy.bytes, sha256: copy.sha256 } : stored;
      void queue.add(async () => visit(batch, file, await checkOnDisk(file)));
    }
  }
  await queue.onIdle();
}

/**
 * Re-hashes every downloaded file of `batch` (or of every batch) on this host's disk (its
 * copies of other hosts' files included) and reports files that are gone or changed.
 * Changes nothing: `files pull` repairs.
 */
export async function verifyFiles(store: BatchStore & FileStore, batch?: BatchRecord | null): Promise<VerifyReport> {
  const batches = batch ? [batch] : await store.listBatches();
  const report: VerifyReport = { batches: batches.map((b) => b.name), checked: 0, ok: 0, bytes: 0, problems: [] };
  const visit = (b: BatchRecord, f: FileRecord, r: DiskCheck): void => {
    report.checked++;
    if (r.state === 'ok') {
      report.ok++;
      report.bytes += f.bytes ?? 0;
    } else {
      report.problems.push({ batch: b.name, batchId: b.id, itemId: f.itemId, fileId: f.id, path: f.path, state: r.state, reason: r.reason });
    }
  };
  await eachDownloaded(store, batches, visit, { copies: true });
  return report;
}
