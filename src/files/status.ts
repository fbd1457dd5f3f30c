import { systemClock } from '../clock.js';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import type { BatchRecord, BatchStore, FileStatus, FileStore } from '../store/index.js';
import { commandHint, type HintPlace } from '../text/command-hint.js';

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
  /** Downloaded files by each host whose disk holds them (several machines on one batch; a file two hold counts for both). */
  hosts: Record<string, number>;
  /** Which host holds which files: per host, how many, their bytes and the batch folders they lie in. */
  holders: HostFiles[];
  /** This machine's host name. */
  thisHost: string;
  /** Downloaded files this machine holds no copy of (`resq files pull --out DIR` fetches them). */
  notHere: number;
}

/** What one host holds. */
export interface HostFiles {
  host: string;
  files: number;
  bytes: number;
  /** The batch folders (`<out>/<batch>-<id>`) its files lie in, in the order first met. */
  folders: string[];
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
export async function filesStatus(
  store: BatchStore & FileStore,
  batch?: BatchRecord | null,
  now: Date = new Date(systemClock.now()),
  warnWithinMs = EXPIRY_WARNING_MS,
  thisHost = hostname(),
  /** The database the warnings' `resq files pull` names (`--db`). */
  place: Pick<HintPlace, 'db'> = {},
): Promise<FilesStatus> {
  const batches = batch ? [batch] : await store.listBatches();
  const out: FilesStatus = {
    batches: batches.map((b) => b.name),
    counts: { pending: 0, downloaded: 0, failed: 0, expired: 0, missing: 0 },
    total: 0,
    bytesOnDisk: 0,
    soonestExpiry: null,
    warnings: [],
    hosts: {},
    holders: [],
    thisHost,
    notHere: 0,
  };
  const holders = new Map<string, HostFiles & { seen: Set<string> }>();
  const hold = (host: string, path: string | null, bytes: number | null): void => {
    let h = holders.get(host);
    if (!h) holders.set(host, (h = { host, files: 0, bytes: 0, folders: [], seen: new Set() }));
    h.files++;
    h.bytes += bytes ?? 0;
    // <out>/<batch folder>/<item>/<name>: the batch folder says where to look.
    const folder = path ? dirname(dirname(path)) : null;
    if (folder && !h.seen.has(folder)) {
      h.seen.add(folder);
      h.folders.push(folder);
    }
  };
  const warnBefore = new Date(now.getTime() + warnWithinMs).toISOString();
  for (const b of batches) {
    for (const [state, n] of Object.entries(await store.fileCounts(b.id)) as [FileStatus, number][]) {
      out.counts[state] += n;
      out.total += n;
    }
    const copies = await store.fileCopies(b.id);
    const copiedHere = new Set(copies.filter((c) => c.host === thisHost).map((c) => c.fileId));
    for (const f of await store.filesForBatch(b.id, ['downloaded'])) {
      // A row from before hosts were recorded was written by the machine that reads it.
      const h = f.host ?? thisHost;
      hold(h, f.path, f.bytes);
      if (h !== thisHost && !copiedHere.has(f.id)) out.notHere++;
    }
    for (const c of copies) hold(c.host, c.path, c.bytes);
    const r = await store.expiryReport(b.id, warnBefore);
    out.bytesOnDisk += r.bytes;
    if (r.soonest && (out.soonestExpiry === null || r.soonest < out.soonestExpiry)) out.soonestExpiry = r.soonest;
    for (const f of r.expiring) {
      const msLeft = Date.parse(f.expiresAt) - now.getTime();
      const what = `${f.name ?? f.id} (item ${f.itemId}, batch ${b.name}) is not on disk (${f.status})`;
      const message =
        msLeft > 0
          ? `${what} and expires in ${formatDuration(msLeft)} (${f.expiresAt}): run ${commandHint(['resq', 'files', 'pull', b.name], { db: place.db, sim: b.settings.service === 'sim' })}`
          : `${what} and passed its expiry ${formatDuration(msLeft)} ago (${f.expiresAt}): probably gone`;
      out.warnings.push({ batch: b.name, batchId: b.id, itemId: f.itemId, fileId: f.id, name: f.name, status: f.status, expiresAt: f.expiresAt, msLeft, message });
    }
  }
  out.warnings.sort((a, b) => a.msLeft - b.msLeft);
  out.holders = [...holders.values()].map(({ seen: _seen, ...h }) => h).sort((a, b) => b.files - a.files || a.host.localeCompare(b.host));
  for (const h of out.holders) out.hosts[h.host] = h.files;
  return out;
}
