import {
  ApiError,
  AuthError,
  BadRequestError,
  ConflictError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ResponseShapeError,
  ServerError,
} from '../api/index.js';
import { ResqError } from '../errors.js';

/** How the runner treats an error from one item's request. */
export type ErrorKind = 'aborted' | 'fatal' | 'permanent' | 'transient' | 'bug';

/**
 * Classifies an error after the client's own retries gave up: `fatal` stops the whole
 * batch (a bad key answers every request the same), `permanent` ends the item in
 * `error`, `transient` tries the item again later, `bug` is ours.
 */
export function errorKind(err: unknown, signal: AbortSignal): ErrorKind {
  if (signal.aborted) return 'aborted';
  if (err instanceof AuthError) return 'fatal';
  if (err instanceof ConflictError) return err.threadBusy ? 'transient' : 'permanent';
  if (err instanceof BadRequestError || err instanceof NotFoundError || err instanceof ResponseShapeError)
    return 'permanent';
  if (err instanceof NetworkError) return err.phase === 'closed' ? 'aborted' : 'transient';
  if (err instanceof ServerError || err instanceof RateLimitError) return 'transient';
  if (err instanceof ApiError) return err.status === 408 ? 'transient' : 'permanent';
  if (err instanceof ResqError) return 'permanent';
  if (err instanceof Error && err.name === 'AbortError') return 'aborted';
  return 'bug';
}
