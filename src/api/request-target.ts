import { InputError } from '../errors.js';

/** Query parameters; undefined values are left out. */
export type Query = Record<string, string | number | undefined>;

/** Where one request goes, and how it is named in messages. */
export interface RequestTarget {
  /** The full URL, query included. */
  readonly url: URL;
  /** Its origin (`https://host:port`). */
  readonly origin: string;
  /** Its path and query, as sent on the request line. */
  readonly path: string;
  /** Whether the URL is on the base URL's origin: only then is the key sent. */
  readonly sameOrigin: boolean;
  /** Name for messages: path relative to the base URL, or origin + path elsewhere; no query. */
  readonly label: string;
}

/**
 * A path below the base URL made only of characters a URL keeps as they are (what
 * {@link segment} and the client's own paths give): its URL is made only when asked for.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9\-_~!$&'()*+,;=:@%]+(?:\.[A-Za-z0-9\-_~!$&'()*+,;=:@%]+)*)+$/;

/** A target below the base URL: two strings per request (its two requests per run made a URL each, origin strings and a query object). */
class BelowBase implements RequestTarget {
  readonly origin: string;
  readonly path: string;
  readonly label: string;
  readonly sameOrigin = true;
  constructor(origin: string, path: string, label: string) {
    this.origin = origin;
    this.path = path;
    this.label = label;
  }
  get url(): URL {
    return new URL(`${this.origin}${this.path}`);
  }
}

/**
 * Resolves `target` against the base URL. A string starting with `http:`/`https:` is taken
 * as an absolute URL (file URLs, poll URLs); anything else is a path below the base URL
 * (`/runs/abc` → `{base}/runs/abc`).
 */
export function resolveTarget(base: URL, basePath: string, target: string | URL, query?: Query): RequestTarget {
  if (typeof target === 'string' && PLAIN_PATH.test(target)) {
    let search = '';
    if (query) {
      const pairs: [string, string][] = [];
      for (const key in query) if (query[key] !== undefined) pairs.push([key, String(query[key])]);
      if (pairs.length > 0) search = `?${new URLSearchParams(pairs).toString()}`;
    }
    return new BelowBase(base.origin, `${basePath}${target}${search}`, target);
  }
  const url = target instanceof URL ? new URL(target.href) : absoluteOrBelow(base, basePath, target);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  const sameOrigin = url.origin === base.origin;
  return { url, origin: url.origin, path: `${url.pathname}${url.search}`, sameOrigin, label: labelOf(url, base, basePath) };
}

function absoluteOrBelow(base: URL, basePath: string, target: string): URL {
  if (/^https?:\/\//i.test(target)) {
    try {
      return new URL(target);
    } catch {
      throw new InputError(`not a valid URL: ${JSON.stringify(stripQuery(target))}`);
    }
  }
  const path = target.startsWith('/') ? target : `/${target}`;
  return new URL(`${base.origin}${basePath}${path}`);
}

/** Path relative to the base URL when below it; otherwise the path (same origin) or origin + path. */
export function labelOf(url: URL, base: URL, basePath: string): string {
  if (url.origin === base.origin) {
    if (url.pathname.startsWith(`${basePath}/`)) return url.pathname.slice(basePath.length);
    return url.pathname;
  }
  return `${url.origin}${url.pathname}`;
}

function stripQuery(text: string): string {
  return text.replace(/[?#].*$/s, '').slice(0, 200);
}

/**
 * One path segment from an id, percent-encoded. Empty ids, `.` and `..` are refused:
 * they would address another resource.
 */
export function segment(id: string, what: string): string {
  if (typeof id !== 'string' || id === '' || id === '.' || id === '..') {
    throw new InputError(`${what} must be a non-empty id, got ${JSON.stringify(id)}`);
  }
  return encodeURIComponent(id);
}

/** Checks an Idempotency-Key before anything is sent: 1–200 visible ASCII characters. */
export function checkIdempotencyKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) {
    throw new InputError('Idempotency-Key is required and must be a non-empty string');
  }
  if (key.length > 200) {
    throw new InputError(`Idempotency-Key is ${key.length} characters long; the service allows at most 200`);
  }
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new InputError('Idempotency-Key must contain only visible ASCII characters (no spaces or line breaks)');
  }
}
