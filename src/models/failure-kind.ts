import { ApiError, AuthError, NetworkError, RateLimitError, ResponseShapeError, ServerError } from '../api/index.js';

/**
 * What a failed create request (`POST /models/{id}/runs`, after the client's own retries)
 * means for its row: `fatal` stops the batch (a bad key fails every row); `unsent`: the
 * service provably did not act (429, refused connection), send again; `unknown`: it may
 * have started the run (5xx, dropped connection, timeout, odd answer); `permanent`: it
 * refused these inputs; `aborted`; `bug`: ours.
 */
export type SubmitFailure = 'fatal' | 'unsent' | 'unknown' | 'permanent' | 'aborted' | 'bug';

/** Classifies a failed create request. */
export function submitFailure(err: unknown, aborted: boolean): SubmitFailure {
  if (err instanceof AuthError) return 'fatal';
  if (err instanceof RateLimitError) return 'unsent';
  if (err instanceof NetworkError) {
    // A connect failure no retry can fix (a TLS certificate) fails every row alike.
    if (err.phase === 'connect') return err.retryable ? 'unsent' : 'fatal';
    return 'unknown';
  }
  if (err instanceof ServerError || err instanceof ResponseShapeError) return 'unknown';
  if (err instanceof ApiError) return err.status === 408 ? 'unknown' : 'permanent';
  if (aborted || (err instanceof Error && err.name === 'AbortError')) return 'aborted';
  return 'bug';
}

/**
 * What a failed read of a running job (`GET /model-runs/{id}`) means: `transient` (read
 * again later: network, 408, 429, 5xx, an odd answer), `gone` (404: the service does not
 * know the run), `fatal`, `aborted`, `bug`.
 */
export type ReadFailure = 'transient' | 'gone' | 'fatal' | 'aborted' | 'bug';

/** Classifies a failed read. */
export function readFailure(err: unknown, aborted: boolean): ReadFailure {
  if (aborted) return 'aborted';
  if (err instanceof AuthError) return 'fatal';
  if (err instanceof NetworkError) return err.retryable ? 'transient' : 'fatal';
  if (err instanceof ResponseShapeError) return 'transient';
  if (err instanceof ApiError) {
    if (err.status === 404 || err.status === 410) return 'gone';
    return err.status === 408 || err.status === 429 || err.status >= 500 ? 'transient' : 'bug';
  }
  if (err instanceof Error && err.name === 'AbortError') return 'aborted';
  return 'bug';
}
