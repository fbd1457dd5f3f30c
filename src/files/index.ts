/** File downloads, expiry tracking, safe paths (re-exports only). */
export { Downloader, type DownloaderOptions, type DownloadRetryOptions } from './downloader.js';
export { emptySummary, type DownloadEvent, type DownloadProblem, type DownloadSummary, type FileRef } from './events.js';
export { classifyFailure, expiryOf, goneStatus, type Verdict } from './failure.js';
export { PathBook } from './path-book.js';
export { defaultOutDir, pullFiles, type NotOnDisk, type PullOptions, type PullReport } from './pull.js';
export {
  cutToBytes,
  extensionFor,
  fileNameFor,
  isInside,
  MAX_NAME_BYTES,
  resolveInside,
  safeFolderName,
  safeSegment,
  splitExtension,
  uniqueName,
  UnsafePathError,
  withCollisionSuffix,
} from './safe-name.js';
export { EXPIRY_WARNING_MS, filesStatus, formatDuration, type ExpiryWarning, type FilesStatus } from './status.js';
export { checkOnDisk, verifyFiles, type DiskCheck, type VerifyProblem, type VerifyReport } from './verify.js';
export { discardStalePartials, hashFile, IncompleteBodyError, writeAtomically, type Digest, type WriteOptions, type Written } from './write-file.js';
