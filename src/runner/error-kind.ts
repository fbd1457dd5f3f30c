import { ApiError } from '../api/errors.js';
import { classifyFailure } from '../api/failure-class.js';
import { ResqError } from '../errors.js';

/** How the runner treats an error from one item's request. */
export type ErrorKind = 'aborted' | 'fatal' | 'permanent' | 'transient' | 'bug';

/**
 * Classifies an error after the client's own retries gave up, through the one taxonomy
 * (api/failure-class.ts; agent requests carry an Idempotency-Key, so they are safe to
 * repeat): `fatal` stops the whole batch (a refused key, an unreachable service),
 * `permanent` ends the item in `error`, `transient` tries the item again later, `bug` is ours.
 */
export function errorKind(err: unknown, signal: AbortSignal): ErrorKind {
  const v = classifyFailure({ error: err, aborted: signal.aborted, request: 'submit', idempotent: true });
  switch (v.action) {
    case 'abort':
      return 'aborted';
    case 'stop':
      return 'fatal';
    case 'retry':
    case 'unknown':
      return 'transient';
    case 'fail':
    case 'gone':
      return 'permanent';
    case 'bug':
      return 'bug';
  }
}

/**
 * The code an item in `error` keeps beside its message: the service's own code from the
 * error body (verbatim), else `http_STATUS`; resq's error code for its own faults
 * (`RESQ_INPUT`, …); `internal` for a bug.
 */
export function errorCodeOf(err: unknown, kind: ErrorKind): string {
  if (err instanceof ApiError) return err.apiCode ?? `http_${err.status}`;
  if (kind === 'bug') return 'internal';
  return err instanceof ResqError ? err.code : 'internal';
}
