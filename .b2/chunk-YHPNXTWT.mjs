import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  LOCAL_FAULT_CODES,
  isLocalCode
} from "./chunk-TNKZ5VT3.mjs";
import {
  ApiError,
  AuthError,
  ConflictError,
  NetworkError,
  NotFoundError,
  ResponseShapeError,
  TimeoutError
} from "./chunk-CZMGSLWJ.mjs";
import {
  ResqError
} from "./chunk-4EMWZ36I.mjs";

// src/api/network-errors.ts
var CONNECT_CODES = /* @__PURE__ */ new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "ENETDOWN"
]);
var REQUEST_CODES = /* @__PURE__ */ new Set([
  "ECONNRESET",
  "EPIPE",
  "ECONNABORTED",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
  "UND_ERR_REQ_CONTENT_LENGTH_MISMATCH",
  "HPE_INVALID_CONSTANT",
  "HPE_INVALID_CHUNK_SIZE",
  "HPE_UNEXPECTED_CONTENT_LENGTH",
  "HPE_INVALID_STATUS",
  "HPE_CLOSED_CONNECTION",
  "UND_ERR_INFO",
  "ERR_HTTP2_STREAM_ERROR",
  "ERR_HTTP2_SESSION_ERROR",
  "ERR_HTTP2_GOAWAY_SESSION",
  "ERR_STREAM_PREMATURE_CLOSE"
]);
var TIMEOUT_CODES = {
  UND_ERR_CONNECT_TIMEOUT: { phase: "connect", what: "connect timed out" },
  UND_ERR_HEADERS_TIMEOUT: { phase: "request", what: "no response headers in time" },
  UND_ERR_BODY_TIMEOUT: { phase: "request", what: "response body idle for too long" }
};
var CLOSED_CODES = /* @__PURE__ */ new Set(["UND_ERR_DESTROYED", "UND_ERR_CLOSED"]);
function isLocalFault(err) {
  if (err instanceof NetworkError) return err.phase === "local";
  return isLocalCode(codeOf(err));
}
function toNetworkError(err, req, service) {
  if (err instanceof NetworkError) return err;
  const code = codeOf(err);
  if (code === null) return null;
  const message = messageOf(err);
  const base = { ...req, causeCode: code, ...service !== void 0 ? { service } : {} };
  const timeout = TIMEOUT_CODES[code];
  if (timeout) {
    const init = { ...base, phase: timeout.phase, detail: timeout.what, retryable: true };
    return new TimeoutError(init, { cause: err });
  }
  const detail = message && !message.includes(code) ? `${code} ${message}` : message || code;
  if (isLocalCode(code)) {
    return new NetworkError({ ...base, phase: "local", detail: `${LOCAL_FAULT_CODES[code]} (${code}): nothing was sent`, retryable: true }, { cause: err });
  }
  if (CONNECT_CODES.has(code)) {
    return new NetworkError({ ...base, phase: "connect", detail, retryable: true }, { cause: err });
  }
  if (REQUEST_CODES.has(code)) {
    return new NetworkError({ ...base, phase: "request", detail, retryable: true }, { cause: err });
  }
  if (CLOSED_CODES.has(code)) {
    return new NetworkError({ ...base, phase: "closed", detail: "client closed", retryable: false }, { cause: err });
  }
  if (isTlsCode(code)) {
    return new NetworkError({ ...base, phase: "connect", detail, retryable: false }, { cause: err });
  }
  return null;
}
function isTlsCode(code) {
  return code.startsWith("ERR_TLS_") || code.startsWith("ERR_SSL_") || code.includes("CERT") || code === "UNABLE_TO_VERIFY_LEAF_SIGNATURE" || code === "EPROTO";
}
function codeOf(err) {
  if (typeof err !== "object" || err === null) return null;
  const own = err.code;
  if (typeof own === "string" && own !== "") return own;
  if (err instanceof AggregateError) {
    for (const inner of err.errors) {
      const c = codeOf(inner);
      if (c) return c;
    }
  }
  const cause = err.cause;
  return cause !== void 0 && cause !== err ? codeOf(cause) : null;
}
function messageOf(err) {
  const m = err instanceof Error ? err.message : "";
  return m.replace(/\s+/g, " ").trim().slice(0, 200);
}
function closedError(req) {
  return new NetworkError({ ...req, phase: "closed", detail: "client closed", causeCode: null, retryable: false });
}

// src/api/failure-class.ts
var CONNECT_WORDS = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ENETDOWN: "network down",
  EADDRNOTAVAIL: "address not available",
  UND_ERR_CONNECT_TIMEOUT: "connect timed out"
};
function connectReason(causeCode) {
  if (causeCode === null) return "connect failed";
  const known = CONNECT_WORDS[causeCode];
  if (known) return known;
  if (/WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST|EPROTO/.test(causeCode))
    return "the server does not speak TLS there: is the address http:// rather than https://?";
  if (/CERT|UNABLE_TO_VERIFY/.test(causeCode)) return `the server's TLS certificate was not accepted (${causeCode})`;
  return causeCode;
}
function verdict(action, arrived, error, unreachable = false) {
  const reason = error instanceof Error ? error.message : String(error);
  return { action, arrived, reason, unreachable };
}
function classifyFailure(input) {
  const { error, request } = input;
  const idempotent = input.idempotent ?? true;
  const maybe = idempotent ? "retry" : "unknown";
  if (input.aborted || error instanceof Error && error.name === "AbortError") return verdict("abort", "maybe", error);
  if (error instanceof AuthError) return verdict(request === "download" ? "fail" : "stop", "yes", error);
  if (isLocalFault(error)) return verdict("retry", "no", error);
  if (error instanceof NetworkError) {
    if (error.phase === "closed") return verdict("abort", "maybe", error);
    if (error.phase === "connect") {
      const reason = connectReason(error.causeCode);
      const stop = request === "download" ? "fail" : "stop";
      if (!error.retryable) return { action: stop, arrived: "no", reason, unreachable: true };
      return { action: request === "submit" ? "stop" : "retry", arrived: "no", reason, unreachable: true };
    }
    return verdict(error.retryable ? maybe : "fail", "maybe", error);
  }
  if (error instanceof ApiError) {
    if (error instanceof ConflictError && error.threadBusy) return verdict("retry", "yes", error);
    if (error.status === 429) return verdict("retry", "no", error);
    if (error.status === 408 || error.status >= 500) return verdict(maybe, "yes", error);
    if (error instanceof NotFoundError && request !== "submit") return verdict("gone", "yes", error);
    return verdict("fail", "yes", error);
  }
  if (error instanceof ResponseShapeError) return verdict(request === "download" ? "fail" : maybe, "yes", error);
  if (error instanceof ResqError) return verdict("fail", "no", error);
  return verdict("bug", "maybe", error);
}
function cannotReachMessage(service, causeCode) {
  return `cannot reach ${service} (${connectReason(causeCode)})`;
}

export {
  isLocalFault,
  toNetworkError,
  closedError,
  connectReason,
  classifyFailure,
  cannotReachMessage
};
//# sourceMappingURL=chunk-YHPNXTWT.mjs.map
