import { connectReason } from '../api/failure-class.js';
import { AuthError, NetworkError } from '../api/errors.js';

/**
 * The one line a person sees for an error: an unreachable service as
 * `cannot reach http://… (connection refused)`, a wrong scheme or certificate plainly, a
 * refused key with what to check; anything else as its own message.
 */
export function userMessage(err: unknown): string {
  if (err instanceof NetworkError && err.phase === 'connect') {
    const where = err.service ?? 'the service';
    return `cannot reach ${where} (${connectReason(err.causeCode)})`;
  }
  if (err instanceof AuthError)
    return `the service refused the API key (HTTP ${err.status} ${err.method} ${err.path}): check RESQ_API_KEY`;
  return err instanceof Error ? err.message : String(err);
}
