import { cannotReachMessage } from '../api/failure-class.js';
import { AuthError, NetworkError } from '../api/errors.js';
import { isDiskFull } from '../runner/store-fault.js';
import { poolerHint } from '../store/postgres/pooler.js';
import { diskFullMessage, type DiskFullContext } from './disk-full.js';

/**
 * The one line a person sees for an error: an unreachable service as
 * `cannot reach http://… (connection refused)`, a wrong scheme or certificate plainly, a
 * refused key with what to check; a database on a full disk as a plain stop with the command
 * that carries on (see {@link diskFullMessage}); a transaction pooler's refusal with the URL
 * parameter resq needs there (see {@link poolerHint}); anything else as its own message.
 */
export function userMessage(err: unknown, where: DiskFullContext = {}): string {
  if (isDiskFull(err)) return diskFullMessage(err, where);
  if (err instanceof NetworkError && err.phase === 'connect') {
    return cannotReachMessage(err.service ?? 'the service', err.causeCode);
  }
  if (err instanceof AuthError)
    return `the service refused the API key (HTTP ${err.status} ${err.method} ${err.path}): check RESQ_API_KEY`;
  const msg = err instanceof Error ? err.message : String(err);
  const hint = poolerHint(err);
  return hint ? `${msg}: ${hint}` : msg;
}
