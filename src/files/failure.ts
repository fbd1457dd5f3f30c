import { classifyFailure as classify } from '../api/failure-class.js';
import { AuthError } from '../api/index.js';
import { FILE_RETENTION_MS, type FileRecord } from '../store/index.js';
import { IncompleteBodyError } from './write-file.js';

/** What to do after a download attempt failed. */
export type Verdict =
  | { kind: 'abort' }
  | { kind: 'retry'; reason: string }
  | { kind: 'gone'; reason: string }
  | { kind: 'fail'; reason: string };

/**
 * What a failed download attempt means, through the one taxonomy (api/failure-class.ts)
 * for a `download`: abort → 404 → transient (network, timeout, 5xx, 429, 408, a short body)
 * → everything else fails at once. Disk errors (ENOSPC, EACCES) and unknown errors are
 * never retried.
 */
export function classifyFailure(err: unknown, aborted: boolean): Verdict {
  // A body cut short is a dropped connection after the answer began: safe to fetch again.
  if (!aborted && err instanceof IncompleteBodyError) return { kind: 'retry', reason: err.message };
  const v = classify({ error: err, aborted, request: 'download' });
  switch (v.action) {
    case 'abort':
      return { kind: 'abort' };
    case 'gone':
      return { kind: 'gone', reason: v.reason };
    case 'retry':
    case 'unknown':
      return { kind: 'retry', reason: v.reason };
    case 'stop':
    case 'fail':
      return { kind: 'fail', reason: err instanceof AuthError ? `${v.reason} (the key was refused)` : v.reason };
    case 'bug': {
      const code = (err as NodeJS.ErrnoException | null)?.code;
      return { kind: 'fail', reason: typeof code === 'string' ? `disk: ${v.reason}` : v.reason };
    }
  }
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
