import { ResqError } from '../errors.js';

/**
 * Which request an error belongs to. `path` is relative to the base URL (e.g. `/runs/abc`)
 * or, for a URL on another origin, `origin + pathname`; it never holds a query string.
 */
export interface RequestInfo {
  /** HTTP method, e.g. `POST`. */
  method: string;
  /** Path relative to the base URL, without query string. */
  path: string;
  /** 1-based number of the attempt that produced the error. */
  attempt: number;
  /** Attempt budget of the request (`retry.maxAttempts`, or 1 when it is never retried). */
  maxAttempts: number;
}

/**
 * `POST /runs (attempt 3/6)`: how every message of this module names its request. The
 * attempt is shown only when the request was retried: `attempt 1/6` of a request that failed
 * at once reads as if resq had given up on retries it never made.
 */
export function describeRequest(req: RequestInfo, note?: string): string {
  const parts = [req.attempt > 1 ? `attempt ${req.attempt}/${req.maxAttempts}` : '', note ?? ''].filter(Boolean);
  return parts.length ? `${req.method} ${req.path} (${parts.join(', ')})` : `${req.method} ${req.path}`;
}

/** Fields of an HTTP error response, as extracted by the error factory. */
export interface ApiErrorInit extends RequestInfo {
  /** HTTP status of the response. */
  status: number;
  /** Machine-readable code from the body (e.g. `thread_busy`), when the body has one. */
  apiCode: string | null;
  /** The body's human-readable message (key redacted, shortened), or a default for the status. */
  detail: string;
  /** Request id from the response headers or body, for support tickets. */
  requestId: string | null;
  /** The raw `Retry-After` header, when the response had one. */
  retryAfter: string | null;
  /** Extra words for the message, e.g. `thread busy 30/30`. */
  note?: string;
}

/**
 * The service answered with an HTTP error status. Subclasses have fixed codes; this base
 * class (`RESQ_API`) covers statuses with no class of their own (405, 408, 413, a redirect, …).
 */
export class ApiError extends ResqError {
  override readonly code: string = 'RESQ_API';
  /** HTTP status. */
  readonly status: number;
  /** Code from the error body (`thread_busy`, …) or null. */
  readonly apiCode: string | null;
  /** Request id from the response, or null. */
  readonly requestId: string | null;
  /** HTTP method of the failed request. */
  readonly method: string;
  /** Path relative to the base URL, no query string. */
  readonly path: string;
  /** 1-based attempt that got this response. */
  readonly attempt: number;
  /** Attempt budget of the request. */
  readonly maxAttempts: number;
  /** The body's message (or a default for the status), without the key. */
  readonly detail: string;
  /** Raw `Retry-After` header, or null. */
  readonly retryAfter: string | null;

  constructor(init: ApiErrorInit) {
    const where = describeRequest(init, init.note);
    const code = init.apiCode && !init.detail.includes(init.apiCode) ? ` [${init.apiCode}]` : '';
    super(`HTTP ${init.status} ${where}: ${init.detail}${code}`);
    this.status = init.status;
    this.apiCode = init.apiCode;
    this.requestId = init.requestId;
    this.method = init.method;
    this.path = init.path;
    this.attempt = init.attempt;
    this.maxAttempts = init.maxAttempts;
    this.detail = init.detail;
    this.retryAfter = init.retryAfter;
  }
}

/** 400 or 422: the request was malformed; retrying cannot help. */
export class BadRequestError extends ApiError {
  override readonly code: string = 'RESQ_API_BAD_REQUEST';
}

/** 401 or 403: the key is missing, wrong or lacks the right. */
export class AuthError extends ApiError {
  override readonly code: string = 'RESQ_API_AUTH';
}

/** 404 (or 410): unknown id, another account's resource, or an expired file. */
export class NotFoundError extends ApiError {
  override readonly code: string = 'RESQ_API_NOT_FOUND';
}

/** 409: a conflict, e.g. a new run on a thread that already has one going. */
export class ConflictError extends ApiError {
  override readonly code: string = 'RESQ_API_CONFLICT';
  /** True when the service said `thread_busy`: the thread has a run going. */
  get threadBusy(): boolean {
    return this.apiCode === 'thread_busy';
  }
}

/** 429: too many requests (after the client's own retries). */
export class RateLimitError extends ApiError {
  override readonly code: string = 'RESQ_API_RATE_LIMIT';
}

/** 5xx: the service failed (after the client's own retries). */
export class ServerError extends ApiError {
  override readonly code: string = 'RESQ_API_SERVER';
}

/**
 * Where a transport failure happened. `connect`: the request provably never reached the
 * service (refused, DNS, connect timeout); `request`: it may have reached it; `closed`:
 * the client was closed; `local`: this machine ran short (open files, memory, buffers)
 * before anything was sent: not the service's failure, waited on like a throttle.
 */
export type NetworkPhase = 'connect' | 'request' | 'closed' | 'local';

/** Fields of a transport failure. */
export interface NetworkErrorInit extends RequestInfo {
  /** Where it failed. */
  phase: NetworkPhase;
  /** Short description, e.g. `ECONNRESET other side closed`. */
  detail: string;
  /** System or undici error code (`ECONNREFUSED`, `UND_ERR_SOCKET`, …) or null. */
  causeCode: string | null;
  /** False for failures a retry cannot fix (TLS certificate errors, a closed client). */
  retryable: boolean;
  /** The address the request went to: the base URL, or another origin (a file host). */
  service?: string;
}

/** The connection failed: refused, reset, dropped mid-response, TLS, DNS. */
export class NetworkError extends ResqError {
  override readonly code: string = 'RESQ_NETWORK';
  /** HTTP method of the failed request. */
  readonly method: string;
  /** Path relative to the base URL, no query string. */
  readonly path: string;
  /** 1-based attempt that failed. */
  readonly attempt: number;
  /** Attempt budget of the request. */
  readonly maxAttempts: number;
  /** Where it failed; `connect` means the service never saw the request. */
  readonly phase: NetworkPhase;
  /** System or undici error code, or null. */
  readonly causeCode: string | null;
  /** Whether a retry could help. */
  readonly retryable: boolean;
  /** The address the request went to (base URL or another origin), or null when not known. */
  readonly service: string | null;

  constructor(init: NetworkErrorInit, options?: { cause?: unknown }) {
    super(`${prefixOf(new.target)} ${describeRequest(init)}: ${init.detail}`, options);
    this.method = init.method;
    this.path = init.path;
    this.attempt = init.attempt;
    this.maxAttempts = init.maxAttempts;
    this.phase = init.phase;
    this.causeCode = init.causeCode;
    this.retryable = init.retryable;
    this.service = init.service ?? null;
  }
}

/** A timeout: connect (`phase: 'connect'`), response headers, or an idle body/stream. */
export class TimeoutError extends NetworkError {
  override readonly code: string = 'RESQ_TIMEOUT';
}

function prefixOf(ctor: Function): string {
  return ctor === TimeoutError ? 'timeout' : 'network error';
}

/** A response arrived but does not match the contract (bad JSON, missing field, wrong type). */
export class ResponseShapeError extends ResqError {
  override readonly code: string = 'RESQ_API_SHAPE';
  /** HTTP method of the request. */
  readonly method: string;
  /** Path relative to the base URL, no query string. */
  readonly path: string;
  /** Where the body differs from the contract, e.g. `thread_id: expected string`; no values. */
  readonly issues: string[];

  constructor(init: { method: string; path: string; issues: string[] }) {
    const shown = init.issues.slice(0, 5).join('; ');
    const more = init.issues.length > 5 ? ` (+${init.issues.length - 5} more)` : '';
    super(`unexpected response to ${init.method} ${init.path}: ${shown}${more}`);
    this.method = init.method;
    this.path = init.path;
    this.issues = init.issues;
  }
}

/**
 * The service has no cancel operation at the route resq used (it answered 404 or 405): the
 * runs go on and finish by themselves.
 */
export class CancelUnsupportedError extends ResqError {
  override readonly code: string = 'RESQ_CANCEL_UNSUPPORTED';
  /** The route tried, e.g. `POST /runs/{id}/cancel`. */
  readonly route: string;
  /** The HTTP status that said so (404 or 405). */
  readonly status: number;
  constructor(route: string, status: number, options?: { cause?: unknown }) {
    super(
      `the service does not support cancelling runs at POST ${route} (HTTP ${status}); ` +
        'runs in flight go on until they finish (set another route with --cancel-route)',
      options,
    );
    this.route = route;
    this.status = status;
  }
}

/**
 * One server-sent event grew past the client's bound (`maxEventChars`): the stream is
 * failed rather than buffered without end. A kind of {@link ResponseShapeError}, so
 * following the run reconnects and then falls back to polling, as for any stream that
 * is not what the contract says.
 */
export class SseEventTooLargeError extends ResponseShapeError {
  override readonly code: string = 'RESQ_SSE_EVENT_TOO_LARGE';
  /** The bound that was passed, in characters. */
  readonly limitChars: number;

  constructor(init: { method: string; path: string; limitChars: number }) {
    super({
      method: init.method,
      path: init.path,
      issues: [`an event is larger than ${init.limitChars} characters (the client's maxEventChars)`],
    });
    this.limitChars = init.limitChars;
  }
}
