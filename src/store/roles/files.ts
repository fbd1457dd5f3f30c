import type { DownloadedFile, FileCopy, FileRecord, FileStatus } from '../types.js';

/** What a downloader holds a file by while it fetches it: its owner and the claim's fencing token. */
export interface FileClaim {
  owner: string;
  fence: number;
}

/** The files role: what the runs made, where it is on disk (and on which host), and what is about to expire. */
export interface FileStore {
  /** Records that a file is on this host's disk, with its device and inode as written. */
  markFileDownloaded(batchId: string, fileId: string, v: DownloadedFile): Promise<void>;
  markFileStatus(batchId: string, fileId: string, status: Exclude<FileStatus, 'downloaded'>, error: string | null): Promise<void>;
  getFile(batchId: string, fileId: string): Promise<FileRecord | null>;
  filesForBatch(batchId: string, statuses?: readonly FileStatus[]): Promise<FileRecord[]>;
  filesForItem(batchId: string, itemId: string): Promise<FileRecord[]>;
  fileCounts(batchId: string): Promise<Record<FileStatus, number>>;
  /** Paths already used by downloads of a batch. */
  filePaths(batchId: string): Promise<{ id: string; path: string }[]>;
  /**
   * Records that `host` holds a copy of a downloaded file at `path` (one copy per host;
   * a later one replaces it). The file's own record, its first copy, is left as it is.
   */
  recordFileCopy(batchId: string, fileId: string, copy: { host: string; path: string; bytes: number; sha256: string }): Promise<void>;
  /** The copies of a batch's files other than their first (see {@link recordFileCopy}), in file order. */
  fileCopies(batchId: string): Promise<FileCopy[]>;
  /**
   * Claims a file not yet downloaded for `owner` to fetch, for `leaseMs` from the store's own
   * time as the statement runs (`nowMs`: a test clock's). Free, or held by a claim whose lease
   * ran out (its holder died): taken, with a fencing token one higher. Else null.
   */
  claimFile(batchId: string, fileId: string, owner: string, leaseMs: number, nowMs?: number): Promise<FileClaim | null>;
  /** Extends a claim still held (same owner and token); false when it was taken over. */
  renewFileClaim(batchId: string, fileId: string, claim: FileClaim, leaseMs: number, nowMs?: number): Promise<boolean>;
  /** Lets a claim go if still held (same owner and token), the file's status unchanged; false when it was not. */
  releaseFileClaim(batchId: string, fileId: string, claim: FileClaim): Promise<boolean>;
  expiryReport(batchId: string, warnBefore: string): Promise<{ bytes: number; soonest: string | null; expiring: FileRecord[] }>;
}
