import { classifyFailure } from '../api/failure-class.js';

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
