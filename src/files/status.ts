import type { BatchRecord, FileStatus, Store } from '../store/index.js';

/** Files expiring sooner than this and not on disk get a warning. */
export const EXPIRY_WARNING_MS = 7 * 24 * 3600 * 1000;

/** A file not on disk that the service deletes soon (or already did). */
export interface ExpiryWarning {
  batch: string;
  batchId: string;
  itemId: string;
  fileId: string;
  name: string | null;
  status: FileStatus;
  expiresAt: string;
  /** Whole milliseconds left; negative once past. */
  msLeft: number;
  /** One line for a person. */
  message: string;
}

/** What `files status` shows. */
export interface FilesStatus {
  batches: string[];
  counts: Record<FileStatus, number>;
  total: number;
  /** Sum of recorded sizes of downloaded files. */
  bytesOnDisk: number;
  /** Soonest expiry among files not on disk (pending, failed, missing), or null. */
  soonestExpiry: string | null;
  warnings: ExpiryWarning[];
  /** Downloaded files by the host whose disk holds them (several machines on one batch). */
  hosts: Record<string, number>;
}

/** `3 d 4 h`, `5 h 10 min`, `12 min`: a duration for a person. */
export function formatDuration(ms: number): string {
  const min = Math.floor(Math.abs(ms) / 60_000);
  const d = Math.floor(min / 1440);
  const h = Math.floor((min % 1440) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${min % 60} min`;
  return `${min} min`;
}

/**
 * Counts files by state, bytes on disk, the soonest expiry among files not on disk, and a
 * warning for each such file expiring within `warnWithinMs` (7 days). No batch → every batch.
 */
export async function filesStatus(store: Store, batch?: BatchRecord | null, now: Date = new Date(), warnWithinMs = EXPIRY_WARNING_MS): Promise<FilesStatus> {
  const batches = batch ? [batch] : await store.listBatches();
  const out: FilesStatus = {
    batches: batches.map((b) => b.name),
    counts: { pending: 0, downloaded: 0, failed: 0, expired: 0, missing: 0 },
    total: 0,
    bytesOnDisk: 0,
    soonestExpiry: null,
    warnings: [],
    hosts: {},
  };
  const warnBefore = new Date(now.getTime() + warnWithinMs).toISOString();
  for (const b of batches) {
    for (const [state, n] of Object.entries(await store.fileCounts(b.id)) as [FileStatus, number][]) {
      out.counts[state] += n;
      out.total += n;
    }
    for (const f of await store.filesForBatch(b.id, ['downloaded'])) {
      const h = f.host ?? '(this machine)';
      out.hosts[h] = (out.hosts[h] ?? 0) + 1;
    }
    const r = await store.expiryReport(b.id, warnBefore);
    out.bytesOnDisk += r.bytes;
    if (r.soonest && (out.soonestExpiry === null || r.soonest < out.soonestExpiry)) out.soonestExpiry = r.soonest;
    for (const f of r.expiring) {
      const msLeft = Date.parse(f.expiresAt) - now.getTime();
      const what = `${f.name ?? f.id} (item ${f.itemId}, batch ${b.name}) is not on disk (${f.status})`;
      const message =
        msLeft > 0
          ? `${what} and expires in ${formatDuration(msLeft)} (${f.expiresAt}): run resq files pull`
          : `${what} and passed its expiry ${formatDuration(msLeft)} ago (${f.expiresAt}): probably gone`;
      out.warnings.push({ batch: b.name, batchId: b.id, itemId: f.itemId, fileId: f.id, name: f.name, status: f.status, expiresAt: f.expiresAt, msLeft, message });
    }
  }
  out.warnings.sort((a, b) => a.msLeft - b.msLeft);
  return out;
}
