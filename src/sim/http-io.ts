import type { IncomingMessage, ServerResponse } from 'node:http';

/** An error answered as `{ error: { code, message }, request_id }`. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

/** A JSON answer a handler returns; the server sends it (or a fault instead). */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Sends a JSON body with its Content-Length. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The error reply for an HttpError. */
export function errorReply(e: HttpError, requestId: string): Reply {
  return { status: e.status, body: { error: { code: e.code, message: e.message }, request_id: requestId }, headers: e.headers };
}

const MAX_BODY = 1024 * 1024;

/** Reads and parses a JSON body; an empty body reads as undefined. `seen` gets the body's text as received. */
export function readJson(req: IncomingMessage, seen?: (text: string) => void): Promise<unknown> {
  // Plain events rather than `for await`: the async iterator costs more CPU per chunk than a listener.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_BODY) {
        // The rest is read and dropped, so that the 413 reaches the client.
        req.off('data', onData);
        req.resume();
        reject(new HttpError(413, 'payload_too_large', `request body is over ${MAX_BODY} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('error', reject);
    req.once('end', () => {
      if (size > MAX_BODY) return;
      const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
      seen?.(text);
      if (text.trim() === '') return resolve(undefined);
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new HttpError(400, 'invalid_request', 'request body is not valid JSON'));
      }
    });
  });
}

/** The Idempotency-Key header, checked against the spec's limit of 200 characters. */
export function idempotencyKeyOf(req: IncomingMessage): string | undefined {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (key.length === 0 || key.length > 200) {
    throw new HttpError(400, 'invalid_request', 'Idempotency-Key must be 1 to 200 characters');
  }
  return key;
}
