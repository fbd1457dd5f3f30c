import { PassThrough, type Readable } from 'node:stream';
import { ApiError } from './errors.js';
import { closedError, toNetworkError } from './network-errors.js';
import { abortReason, linkSignals } from './signals.js';
import { discardBody, type OpenResponse, type Transport } from './transport.js';

/** An opened file: stream `body` to disk; it must be read to the end or destroyed. */
export interface OpenedFile {
  /** The bytes. Errors while reading surface as `NetworkError` / `TimeoutError`. */
  body: Readable;
  /** `Content-Type` without parameters, or null. */
  mediaType: string | null;
  /** `Content-Length`, or null when unknown. */
  size: number | null;
}

/** Redirects followed before giving up. */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Opens a file for streaming. The key is sent only when the URL's origin is the base URL's
 * origin (decided per hop); redirects are followed by hand so a hop to another origin goes
 * without it. A relative URL is taken as below the base URL. 404/410 → `NotFoundError`.
 */
export async function openFile(transport: Transport, url: string, signal?: AbortSignal, maxAttempts?: number): Promise<OpenedFile> {
  let target: URL = transport.target(url).url;
  for (let hop = 0; ; hop++) {
    const res = await transport.send(
      { method: 'GET', target, accept: '*/*', retryClass: 'idempotent', signal, allowRedirect: true, maxAttempts },
      async (r) => r,
    );
    if (res.status < 300) return toOpenedFile(res, transport.closeSignal, signal);
    const location = headerOf(res, 'location');
    discardBody(res.body);
    if (!REDIRECTS.has(res.status)) throw redirectError(res, `unexpected status ${res.status}`);
    if (location === null) throw redirectError(res, 'redirect without a Location header');
    if (hop + 1 > MAX_REDIRECTS) throw redirectError(res, `more than ${MAX_REDIRECTS} redirects`);
    target = new URL(location, target);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw redirectError(res, `redirect to an unsupported scheme ${target.protocol}`);
    }
  }
}

function redirectError(res: OpenResponse, detail: string): ApiError {
  return new ApiError({ ...res.request, status: res.status, apiCode: null, detail, requestId: null, retryAfter: null });
}

function toOpenedFile(res: OpenResponse, closing: AbortSignal, signal: AbortSignal | undefined): OpenedFile {
  const type = headerOf(res, 'content-type');
  const length = headerOf(res, 'content-length');
  const size = length !== null && /^\d+$/.test(length) ? Number(length) : null;
  const source = res.body;
  const request = res.request;
  // The caller gets a PassThrough so undici's errors reach it translated into the client's
  // error family, and so destroying it (or aborting) always releases the connection.
  const body = new PassThrough();
  // An error before the caller starts reading must not crash the process: the stream keeps
  // it (`body.errored`) and the caller's pipeline or iterator still sees it.
  body.on('error', () => {});
  const fail = (err: unknown): Error => {
    if (signal?.aborted) return abortReason(signal) as Error;
    if (closing.aborted) return closedError(request);
    return (toNetworkError(err, request) ?? err) as Error;
  };
  source.on('error', (err) => body.destroy(fail(err)));
  source.pipe(body);
  const link = linkSignals(signal, closing);
  const onAbort = (): void => {
    body.destroy(fail(undefined));
  };
  link.signal.addEventListener('abort', onAbort, { once: true });
  body.once('close', () => {
    link.signal.removeEventListener('abort', onAbort);
    link.dispose();
    if (!source.readableEnded) discardBody(source);
  });
  if (link.signal.aborted) onAbort();
  return { body, mediaType: type === null ? null : type.split(';')[0]!.trim().toLowerCase() || null, size };
}

function headerOf(res: OpenResponse, name: string): string | null {
  const value = res.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? null : first;
}
