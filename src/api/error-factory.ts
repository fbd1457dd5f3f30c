import {
  ApiError,
  AuthError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  RateLimitError,
  ServerError,
  type ApiErrorInit,
  type RequestInfo,
} from './errors.js';

/** Response headers as undici gives them: lower-case names. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** What the factory needs of an HTTP error response. */
export interface ErrorResponse {
  /** HTTP status. */
  status: number;
  /** Response headers (lower-case names). */
  headers: ResponseHeaders;
  /** The body as text (possibly truncated), or '' when there was none. */
  bodyText: string;
}

const MAX_DETAIL = 300;

const DEFAULT_DETAIL: Record<number, string> = {
  400: 'bad request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not found',
  408: 'request timeout',
  409: 'conflict',
  410: 'gone',
  422: 'unprocessable request',
  429: 'too many requests',
  500: 'internal server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
};

/**
 * THE mapping from an HTTP error response to its error class. Tolerates any body:
 * `{error:{code,message}}`, `{code,message}`, `{error:'text'}`, `{detail}`, plain text or
 * nothing. Every `secret` is replaced by `[redacted]` in the text it keeps.
 */
export function createApiError(
  res: ErrorResponse,
  req: RequestInfo & { note?: string },
  secrets: readonly string[] = [],
): ApiError {
  const body = readErrorBody(res.bodyText);
  const detail = shorten(
    redact(body.message ?? DEFAULT_DETAIL[res.status] ?? `HTTP status ${res.status}`, secrets),
  );
  const init: ApiErrorInit = {
    ...req,
    status: res.status,
    apiCode: body.code === null ? null : shorten(redact(body.code, secrets)),
    detail,
    requestId: headerOf(res.headers, 'x-request-id') ?? headerOf(res.headers, 'request-id') ?? body.requestId,
    retryAfter: headerOf(res.headers, 'retry-after'),
  };
  return new (classFor(res.status))(init);
}

function classFor(status: number): new (init: ApiErrorInit) => ApiError {
  if (status === 400 || status === 422) return BadRequestError;
  if (status === 401 || status === 403) return AuthError;
  // 410 Gone is how some servers say "expired": for a file that is the same as not found.
  if (status === 404 || status === 410) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return RateLimitError;
  if (status >= 500 && status <= 599) return ServerError;
  return ApiError;
}

interface ErrorBody {
  code: string | null;
  message: string | null;
  requestId: string | null;
}

/** Extracts code, message and request id from any error body; never throws. */
export function readErrorBody(text: string): ErrorBody {
  const trimmed = text.trim();
  if (trimmed === '') return { code: null, message: null, requestId: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    // Not JSON (an HTML page from a proxy, plain text): the first line says enough.
    return { code: null, message: firstLine(trimmed), requestId: null };
  }
  if (typeof parsed === 'string') return { code: null, message: parsed, requestId: null };
  if (!isRecord(parsed)) return { code: null, message: null, requestId: null };
  const inner = isRecord(parsed.error) ? parsed.error : null;
  const pick = (key: string): string | null => stringOf(inner?.[key]) ?? stringOf(parsed[key]);
  return {
    code: pick('code') ?? pick('type'),
    message:
      pick('message') ?? stringOf(parsed.error) ?? pick('detail') ?? pick('error_description'),
    requestId: pick('request_id') ?? pick('requestId'),
  };
}

function headerOf(headers: ResponseHeaders, name: string): string | null {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? null : first;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringOf(v: unknown): string | null {
  if (typeof v === 'string' && v.trim() !== '') return v;
  if (typeof v === 'number') return String(v);
  return null;
}

function firstLine(text: string): string {
  return text.split(/\r?\n/, 1)[0] ?? '';
}

/** Replaces every occurrence of each secret (ignoring empty ones) with `[redacted]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length > 0) out = out.split(secret).join('[redacted]');
  }
  return out;
}

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_DETAIL ? `${oneLine.slice(0, MAX_DETAIL - 1)}…` : oneLine;
}
