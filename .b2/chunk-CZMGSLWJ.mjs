import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  ResqError
} from "./chunk-4EMWZ36I.mjs";

// src/api/errors.ts
function describeRequest(req, note) {
  const parts = [req.attempt > 1 ? `attempt ${req.attempt}/${req.maxAttempts}` : "", note ?? ""].filter(Boolean);
  return parts.length ? `${req.method} ${req.path} (${parts.join(", ")})` : `${req.method} ${req.path}`;
}
var ApiError = class extends ResqError {
  code = "RESQ_API";
  /** HTTP status. */
  status;
  /** Code from the error body (`thread_busy`, …) or null. */
  apiCode;
  /** Request id from the response, or null. */
  requestId;
  /** HTTP method of the failed request. */
  method;
  /** Path relative to the base URL, no query string. */
  path;
  /** 1-based attempt that got this response. */
  attempt;
  /** Attempt budget of the request. */
  maxAttempts;
  /** The body's message (or a default for the status), without the key. */
  detail;
  /** Raw `Retry-After` header, or null. */
  retryAfter;
  constructor(init) {
    const where = describeRequest(init, init.note);
    const code = init.apiCode && !init.detail.includes(init.apiCode) ? ` [${init.apiCode}]` : "";
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
};
var BadRequestError = class extends ApiError {
  code = "RESQ_API_BAD_REQUEST";
};
var AuthError = class extends ApiError {
  code = "RESQ_API_AUTH";
};
var NotFoundError = class extends ApiError {
  code = "RESQ_API_NOT_FOUND";
};
var ConflictError = class extends ApiError {
  code = "RESQ_API_CONFLICT";
  /** True when the service said `thread_busy`: the thread has a run going. */
  get threadBusy() {
    return this.apiCode === "thread_busy";
  }
};
var RateLimitError = class extends ApiError {
  code = "RESQ_API_RATE_LIMIT";
};
var ServerError = class extends ApiError {
  code = "RESQ_API_SERVER";
};
var NetworkError = class extends ResqError {
  code = "RESQ_NETWORK";
  /** HTTP method of the failed request. */
  method;
  /** Path relative to the base URL, no query string. */
  path;
  /** 1-based attempt that failed. */
  attempt;
  /** Attempt budget of the request. */
  maxAttempts;
  /** Where it failed; `connect` means the service never saw the request. */
  phase;
  /** System or undici error code, or null. */
  causeCode;
  /** Whether a retry could help. */
  retryable;
  /** The address the request went to (base URL or another origin), or null when not known. */
  service;
  constructor(init, options) {
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
};
var TimeoutError = class extends NetworkError {
  code = "RESQ_TIMEOUT";
};
function prefixOf(ctor) {
  return ctor === TimeoutError ? "timeout" : "network error";
}
var ResponseShapeError = class extends ResqError {
  code = "RESQ_API_SHAPE";
  /** HTTP method of the request. */
  method;
  /** Path relative to the base URL, no query string. */
  path;
  /** Where the body differs from the contract, e.g. `thread_id: expected string`; no values. */
  issues;
  constructor(init) {
    const shown = init.issues.slice(0, 5).join("; ");
    const more = init.issues.length > 5 ? ` (+${init.issues.length - 5} more)` : "";
    super(`unexpected response to ${init.method} ${init.path}: ${shown}${more}`);
    this.method = init.method;
    this.path = init.path;
    this.issues = init.issues;
  }
};
var CancelUnsupportedError = class extends ResqError {
  code = "RESQ_CANCEL_UNSUPPORTED";
  /** The route tried, e.g. `POST /runs/{id}/cancel`. */
  route;
  /** The HTTP status that said so (404 or 405). */
  status;
  constructor(route, status, options) {
    super(
      `the service does not support cancelling runs at POST ${route} (HTTP ${status}); runs in flight go on until they finish (set another route with --cancel-route)`,
      options
    );
    this.route = route;
    this.status = status;
  }
};
var SseEventTooLargeError = class extends ResponseShapeError {
  code = "RESQ_SSE_EVENT_TOO_LARGE";
  /** The bound that was passed, in characters. */
  limitChars;
  constructor(init) {
    super({
      method: init.method,
      path: init.path,
      issues: [`an event is larger than ${init.limitChars} characters (the client's maxEventChars)`]
    });
    this.limitChars = init.limitChars;
  }
};

export {
  ApiError,
  BadRequestError,
  AuthError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  ServerError,
  NetworkError,
  TimeoutError,
  ResponseShapeError,
  CancelUnsupportedError,
  SseEventTooLargeError
};
//# sourceMappingURL=chunk-CZMGSLWJ.mjs.map
