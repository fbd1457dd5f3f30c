import type { DownloadedFile, FileCopy, FileRecord, FileStatus } from '../types.js';

/** What a downloader holds a file by while it fetches it: its owner and the claim's fencing token. */
export interface FileClaim {
  owner: string;
  fence: number;
}

/**
 * Who claims a file: an owner id (`host:pid:random`, as a worker's) and the process that holds
 * it, its host, pid and start identity (see src/local-process.ts), so that a claimer on the
 * same host sees at once when the holder's process is gone, as a worker's items are taken over.
 */
export interface FileHolder {
  owner: string;
  host: string;
  pid: number;
  pidStart: string | null;
}

/** How {@link FileStore.claimFile} claims. */
export interface FileClaimRequest {
  /** How long the claim lasts unless renewed, from the store's own time as the statement runs. */
  leaseMs: number;
  /** A test clock's time instead of the store's. */
  nowMs?: number;
  /** A claim to take over whatever its lease (its holder's process is gone): taken only while it is still the file's claim. */
  from?: FileClaim;
}

/** The files role: what the runs made, where it is on disk (and on which host), and what is about to expire. */
export interface FileStore {
  /**
   * Records that a file is on this host's disk, with its device and inode as written, and lets
   * its claim go. With `claim`: fenced, written only while that claim is still the file's (a
   * holder whose claim was taken over records nothing over the taker's); false when not written.
   */
  markFileDownloaded(batchId: string, fileId: string, v: DownloadedFile, claim?: FileClaim): Promise<boolean>;
  /** Sets a file's status and reason; with `claim`, fenced as {@link markFileDownloaded}. False when not written. */
  markFileStatus(batchId: string, fileId: string, status: Exclude<FileStatus, 'downloaded'>, error: string | null, claim?: FileClaim): Promise<boolean>;
  getFile(batchId: string, fileId: string): Promise<FileRecord | null>;
  filesForBatch(batchId: string, statuses?: readonly FileStatus[]): Promise<FileRecord[]>;
  filesForItem(batchId: string, itemId: string): Promise<FileRecord[]>;
  fileCounts(batchId: string): Promise<Record<FileStatus, number>>;
  /** Paths already used by downloads of a batch. */
  filePaths(batchId: string): Promise<{ id: string; path: string }[]>;
  /**
   * Records that `host` holds a copy of a downloaded file at `path` (one copy per host;
   * a later one replaces it). The file's own record, its first copy, is left as it is.
   * `keep`: the copy of a holder that lost its claim, recorded only where `host` holds none yet
   * (neither the file's own record nor a copy): never over the taker's. False when not recorded.
   */
  recordFileCopy(batchId: string, fileId: string, copy: { host: string; path: string; bytes: number; sha256: string }, keep?: 'keep'): Promise<boolean>;
  /** The copies of a batch's files other than their first (see {@link recordFileCopy}), in file order. */
  fileCopies(batchId: string): Promise<FileCopy[]>;
  /**
   * Claims a file not yet downloaded for `holder` to fetch (one statement). Free, held by a
   * claim whose lease ran out, or held by `req.from` still: taken, with a fencing token one
   * higher. Else null (held by another, or downloaded).
   */
  claimFile(batchId: string, fileId: string, holder: FileHolder, req: FileClaimRequest): Promise<FileClaim | null>;
  /** Who holds a file's claim now, with its token; null when no one does. */
  fileClaimHolder(batchId: string, fileId: string): Promise<(FileHolder & { fence: number }) | null>;
  /** Extends a claim still held (same owner and token); false when it was taken over. */
  renewFileClaim(batchId: string, fileId: string, claim: FileClaim, leaseMs: number, nowMs?: number): Promise<boolean>;
  /** Lets a claim go if still held (same owner and token), the file's status unchanged; false when it was not. */
  releaseFileClaim(batchId: string, fileId: string, claim: FileClaim): Promise<boolean>;
  expiryReport(batchId: string, warnBefore: string): Promise<{ bytes: number; soonest: string | null; expiring: FileRecord[] }>;
}
