import { ResqError } from '../errors.js';
import { ApiError, AuthError, ConflictError, NetworkError, NotFoundError, ResponseShapeError } from './errors.js';
import { isLocalFault } from './network-errors.js';

/**
 * What kind of request failed. `submit` starts something (POST /runs, respond, POST
 * /models/{id}/runs, a cancel); `read` follows something already started (GET a run, a
 * job, its events, a thread); `download` fetches a file's bytes.
 */
export type RequestKind = 'submit' | 'read' | 'download';

/** Everything {@link classifyFailure} looks at; the differences between callers are these inputs. */
export interface FailureInput {
  /** What the request threw, after the client's own retries. */
  error: unknown;
  /** True when the caller aborted (Ctrl-C, a stop): nothing else matters then. */
  aborted: boolean;
  /** What the request was. */
  request: RequestKind;
  /** Whether sending it again is safe (an honoured Idempotency-Key, or a read). @default true */
  idempotent?: boolean;
}

/**
 * What to do:
 * - `abort`: the caller stopped; leave the work for a resume.
 * - `stop`: every request would fail alike (refused key, unreachable service, wrong scheme or
 *   certificate): stop the whole batch and say why.
 * - `retry`: try this one again later; sending it again is safe.
 * - `unknown`: the service may have acted on an unsafe request: do not send it again unasked.
 * - `fail`: the service refused this request; a retry cannot help.
 * - `gone`: the thing read is not known (404/410): expired file, unknown job.
 * - `bug`: not an error resq throws on purpose.
 */
export type FailureAction = 'abort' | 'stop' | 'retry' | 'unknown' | 'fail' | 'gone' | 'bug';

/** Whether the request reached the service: `no` is proven (refused, DNS, 429), `yes` an answer came. */
export type Arrival = 'no' | 'maybe' | 'yes';

/** The verdict. */
export interface FailureVerdict {
  action: FailureAction;
  arrived: Arrival;
  /**
   * Why, in words for a person. For `unreachable` connect failures: `connection refused`,
   * `host not found`, …; for the others the error's own message.
   */
  reason: string;
  /** True when the service could not be reached at all (nothing arrived, every request would fail the same). */
  unreachable: boolean;
}

const CONNECT_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network down',
  EADDRNOTAVAIL: 'address not available',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
};

/** Words for a connect failure's cause code; a TLS failure on an http port reads as a wrong scheme. */
export function connectReason(causeCode: string | null): string {
  if (causeCode === null) return 'connect failed';
  const known = CONNECT_WORDS[causeCode];
  if (known) return known;
  if (/WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST|EPROTO/.test(causeCode))
    return 'the server does not speak TLS there: is the address http:// rather than https://?';
  if (/CERT|UNABLE_TO_VERIFY/.test(causeCode)) return `the server's TLS certificate was not accepted (${causeCode})`;
  return causeCode;
}

function verdict(action: FailureAction, arrived: Arrival, error: unknown, unreachable = false): FailureVerdict {
  const reason = error instanceof Error ? error.message : String(error);
  return { action, arrived, reason, unreachable };
}

/**
 * THE answer to "retry? permanent? did it arrive?" for a failed request, in one ordered
 * pass: abort → refused key → this machine short (EMFILE, ENOMEM, ENOSPC: retried) →
 * transport (unreachable, cut, closed) → HTTP status (busy,
 * throttled, server, not found, refused) → bad response shape → our own errors → bug.
 * Agent runs, model runs and downloads differ only by `request` and `idempotent`.
 */
export function classifyFailure(input: FailureInput): FailureVerdict {
  const { error, request } = input;
  const idempotent = input.idempotent ?? true;
  const maybe: FailureAction = idempotent ? 'retry' : 'unknown';
  if (input.aborted || (error instanceof Error && error.name === 'AbortError')) return verdict('abort', 'maybe', error);

  // A refused key answers every request alike, except a file on another origin (sent without it).
  if (error instanceof AuthError) return verdict(request === 'download' ? 'fail' : 'stop', 'yes', error);

  // This machine ran short (open files, memory, disk): nothing was sent; wait like a throttle.
  if (isLocalFault(error)) return verdict('retry', 'no', error);

  if (error instanceof NetworkError) {
    if (error.phase === 'closed') return verdict('abort', 'maybe', error);
    if (error.phase === 'connect') {
      const reason = connectReason(error.causeCode);
      // A TLS or scheme mistake cannot be retried away; the service was never reached.
      const stop: FailureAction = request === 'download' ? 'fail' : 'stop';
      if (!error.retryable) return { action: stop, arrived: 'no', reason, unreachable: true };
      // Nothing arrived: a submission cannot go on; a run already going is read again later.
      return { action: request === 'submit' ? 'stop' : 'retry', arrived: 'no', reason, unreachable: true };
    }
    return verdict(error.retryable ? maybe : 'fail', 'maybe', error);
  }

  if (error instanceof ApiError) {
    if (error instanceof ConflictError && error.threadBusy) return verdict('retry', 'yes', error);
    // 429: the service refused without acting, so even an unsafe request is sent again.
    if (error.status === 429) return verdict('retry', 'no', error);
    if (error.status === 408 || error.status >= 500) return verdict(maybe, 'yes', error);
    if (error instanceof NotFoundError && request !== 'submit') return verdict('gone', 'yes', error);
    return verdict('fail', 'yes', error);
  }

  // An answer came but not the contract's: the service may have acted on it.
  if (error instanceof ResponseShapeError) return verdict(request === 'download' ? 'fail' : maybe, 'yes', error);
  if (error instanceof ResqError) return verdict('fail', 'no', error);
  return verdict('bug', 'maybe', error);
}

/** `cannot reach http://host:port/api/v1 (connection refused)`: the one sentence for an unreachable service. */
export function cannotReachMessage(service: string, causeCode: string | null): string {
  return `cannot reach ${service} (${connectReason(causeCode)})`;
}
