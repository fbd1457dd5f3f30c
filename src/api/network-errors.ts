import { NetworkError, TimeoutError, type NetworkErrorInit, type RequestInfo } from './errors.js';
import { isLocalCode, LOCAL_FAULT_CODES } from '../local-fault.js';

/** Failures that happen before the request is written: the service never saw it. */
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ENETDOWN',
]);

/** Failures on a connection that may already carry the request. */
const REQUEST_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'HPE_INVALID_CONSTANT',
  'HPE_INVALID_CHUNK_SIZE',
  'HPE_UNEXPECTED_CONTENT_LENGTH',
  'HPE_INVALID_STATUS',
  'HPE_CLOSED_CONNECTION',
  'UND_ERR_INFO',
  'ERR_HTTP2_STREAM_ERROR',
  'ERR_HTTP2_SESSION_ERROR',
  'ERR_HTTP2_GOAWAY_SESSION',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

const TIMEOUT_CODES: Record<string, { phase: 'connect' | 'request'; what: string }> = {
  UND_ERR_CONNECT_TIMEOUT: { phase: 'connect', what: 'connect timed out' },
  UND_ERR_HEADERS_TIMEOUT: { phase: 'request', what: 'no response headers in time' },
  UND_ERR_BODY_TIMEOUT: { phase: 'request', what: 'response body idle for too long' },
};

const CLOSED_CODES = new Set(['UND_ERR_DESTROYED', 'UND_ERR_CLOSED']);

/**
 * Whether an error (a `NetworkError` of phase `local`, or a system error, also as another
 * error's cause) is this machine running short (EMFILE, ENFILE, ENOMEM, ENOBUFS, ENOSPC).
 */
export function isLocalFault(err: unknown): boolean {
  if (err instanceof NetworkError) return err.phase === 'local';
  return isLocalCode(codeOf(err));
}

/**
 * Maps a transport failure (undici or system error) to `NetworkError` / `TimeoutError`.
 * Returns null for anything else: those are bugs and are rethrown as they are.
 * Certificate errors become a non-retryable `NetworkError`: retrying cannot fix them.
 */
export function toNetworkError(err: unknown, req: RequestInfo, service?: string): NetworkError | null {
  if (err instanceof NetworkError) return err;
  const code = codeOf(err);
  if (code === null) return null;
  const message = messageOf(err);
  const base = { ...req, causeCode: code, ...(service !== undefined ? { service } : {}) };
  const timeout = TIMEOUT_CODES[code];
  if (timeout) {
    const init: NetworkErrorInit = { ...base, phase: timeout.phase, detail: timeout.what, retryable: true };
    return new TimeoutError(init, { cause: err });
  }
  const detail = message && !message.includes(code) ? `${code} ${message}` : message || code;
  if (isLocalCode(code)) {
    // The machine's words, not the socket's ("connect EMFILE 127.0.0.1:…" reads as the service's fault).
    return new NetworkError({ ...base, phase: 'local', detail: `${LOCAL_FAULT_CODES[code]} (${code}): nothing was sent`, retryable: true }, { cause: err });
  }
  if (CONNECT_CODES.has(code)) {
    return new NetworkError({ ...base, phase: 'connect', detail, retryable: true }, { cause: err });
  }
  if (REQUEST_CODES.has(code)) {
    return new NetworkError({ ...base, phase: 'request', detail, retryable: true }, { cause: err });
  }
  if (CLOSED_CODES.has(code)) {
    return new NetworkError({ ...base, phase: 'closed', detail: 'client closed', retryable: false }, { cause: err });
  }
  if (isTlsCode(code)) {
    return new NetworkError({ ...base, phase: 'connect', detail, retryable: false }, { cause: err });
  }
  return null;
}

function isTlsCode(code: string): boolean {
  return (
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    code.includes('CERT') ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
    code === 'EPROTO'
  );
}

/** The error's `code`, looking into an AggregateError (happy-eyeballs connects) and `cause`. */
function codeOf(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null;
  const own = (err as { code?: unknown }).code;
  if (typeof own === 'string' && own !== '') return own;
  if (err instanceof AggregateError) {
    for (const inner of err.errors) {
      const c = codeOf(inner);
      if (c) return c;
    }
  }
  const cause = (err as { cause?: unknown }).cause;
  return cause !== undefined && cause !== err ? codeOf(cause) : null;
}

function messageOf(err: unknown): string {
  const m = err instanceof Error ? err.message : '';
  return m.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** The error of a request cut short because the client was closed; never retried. */
export function closedError(req: RequestInfo): NetworkError {
  return new NetworkError({ ...req, phase: 'closed', detail: 'client closed', causeCode: null, retryable: false });
}
