/** Which file an event or problem is about. */
export interface FileRef {
  batchId: string;
  batch: string;
  itemId: string;
  fileId: string;
}

/** What the downloader reports while it works. The CLI renders these; tests and notebooks read them. */
export type DownloadEvent =
  | (FileRef & { type: 'file-start'; url: string })
  | (FileRef & { type: 'file-retry'; attempt: number; maxAttempts: number; delayMs: number; reason: string })
  | (FileRef & { type: 'file-done'; path: string; bytes: number; sha256: string })
  | (FileRef & { type: 'file-problem'; status: 'failed' | 'expired' | 'missing'; reason: string });

/** A file that could not be fetched, and why. */
export interface DownloadProblem extends FileRef {
  status: 'failed' | 'expired' | 'missing';
  reason: string;
}

/** What a downloader did since it was made. */
export interface DownloadSummary {
  downloaded: number;
  failed: number;
  expired: number;
  missing: number;
  /** Bytes written by downloads that completed. */
  bytes: number;
  /** Every file that ended failed, expired or missing, in the order they ended. */
  problems: DownloadProblem[];
}

/** An empty summary. */
export function emptySummary(): DownloadSummary {
  return { downloaded: 0, failed: 0, expired: 0, missing: 0, bytes: 0, problems: [] };
}
