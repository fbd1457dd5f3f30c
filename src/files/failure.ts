import { ApiError, AuthError, NetworkError, NotFoundError, RateLimitError, ServerError } from '../api/index.js';
import { FILE_RETENTION_MS, type FileRecord } from '../store/index.js';
import { UnsafePathError } from './safe-name.js';
import { IncompleteBodyError } from './write-file.js';

/** What to do after a download attempt failed. */
export type Verdict =
  | { kind: 'abort' }
  | { kind: 'retry'; reason: string }
  | { kind: 'gone'; reason: string }
  | { kind: 'fail'; reason: string };

/**
 * Decides, in one ordered pass, what a failed attempt means: abort → 404 → transient
 * (network, timeout, 5xx, 429, 408, a short body) → everything else fails at once.
 * Disk errors (ENOSPC, EACCES) and unknown errors are never retried.
 */
export function classifyFailure(err: unknown, aborted: boolean): Verdict {
  if (aborted) return { kind: 'abort' };
  if (err instanceof NotFoundError) return { kind: 'gone', reason: err.message };
  if (err instanceof NetworkError) return err.retryable ? { kind: 'retry', reason: err.message } : { kind: 'fail', reason: err.message };
  if (err instanceof ServerError || err instanceof RateLimitError || err instanceof IncompleteBodyError)
    return { kind: 'retry', reason: err.message };
  if (err instanceof AuthError) return { kind: 'fail', reason: `${err.message} (the key was refused)` };
  if (err instanceof ApiError) return err.status === 408 ? { kind: 'retry', reason: err.message } : { kind: 'fail', reason: err.message };
  if (err instanceof UnsafePathError) return { kind: 'fail', reason: err.message };
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'fail', reason: typeof code === 'string' ? `disk: ${message}` : message };
}

/** When the service deletes the file: its recorded expiry, or first seen + 30 days when that is unreadable. */
export function expiryOf(file: Pick<FileRecord, 'expiresAt' | 'firstSeenAt'>): number {
  const at = Date.parse(file.expiresAt);
  if (!Number.isNaN(at)) return at;
  return Date.parse(file.firstSeenAt) + FILE_RETENTION_MS;
}

/**
 * A 404 means `expired` once the file is past its expiry, else `missing` (another
 * account's file, or removed early), with a reason a person can act on.
 */
export function goneStatus(file: Pick<FileRecord, 'expiresAt' | 'firstSeenAt'>, now: Date): { status: 'expired' | 'missing'; reason: string } {
  const expiry = expiryOf(file);
  const when = Number.isNaN(expiry) ? 'unknown' : new Date(expiry).toISOString();
  if (now.getTime() > expiry)
    return { status: 'expired', reason: `the service answered 404: the file expired at ${when} (files are kept 30 days)` };
  return {
    status: 'missing',
    reason: `the service answered 404 although the file should be kept until ${when}: another account's file, or removed`,
  };
}
