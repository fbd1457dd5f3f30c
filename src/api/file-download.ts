import { Readable } from 'node:stream';
import { ApiError } from './errors.js';
import { toNetworkError } from './network-errors.js';
import { abortReason } from './signals.js';
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
export async function openFile(transport: Transport, url: string, signal?: AbortSignal): Promise<OpenedFile> {
  let target: URL = transport.target(url).url;
  for (let hop = 0; ; hop++) {
    const res = await transport.send(
      { method: 'GET', target, accept: '*/*', retryClass: 'idempotent', signal, allowRedirect: true },
      async (r) => r,
    );
    if (!REDIRECTS.has(res.status)) return toOpenedFile(res, signal);
    const location = headerOf(res, 'location');
    discardBody(res.body);
    if (location === null || hop + 1 > MAX_REDIRECTS) {
      throw new ApiError({
        ...res.request,
        status: res.status,
        apiCode: null,
        detail: location === null ? 'redirect without a Location header' : `more than ${MAX_REDIRECTS} redirects`,
        requestId: null,
        retryAfter: null,
      });
    }
    target = new URL(location, target);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new ApiError({
        ...res.request,
        status: res.status,
        apiCode: null,
        detail: `redirect to an unsupported scheme ${target.protocol}`,
        requestId: null,
        retryAfter: null,
      });
    }
  }
}

function toOpenedFile(res: OpenResponse, signal: AbortSignal | undefined): OpenedFile {
  const type = headerOf(res, 'content-type');
  const length = headerOf(res, 'content-length');
  const size = length !== null && /^\d+$/.test(length) ? Number(length) : null;
  const source = res.body;
  const request = res.request;
  // Wrapping maps undici's read errors into the client's error family; destroying the
  // wrapper runs the generator's finally, which releases the connection.
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) yield chunk;
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal);
      throw toNetworkError(err, request) ?? err;
    } finally {
      discardBody(source);
    }
  }
  const body = Readable.from(chunks(), { objectMode: false });
  const onAbort = (): void => {
    body.destroy(abortReason(signal) as Error);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  body.once('close', () => {
    signal?.removeEventListener('abort', onAbort);
    // Destroyed before the first read, the generator never started: release the socket here.
    if (!source.readableEnded) discardBody(source);
  });
  return { body, mediaType: type === null ? null : type.split(';')[0]!.trim().toLowerCase() || null, size };
}

function headerOf(res: OpenResponse, name: string): string | null {
  const value = res.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? null : first;
}
