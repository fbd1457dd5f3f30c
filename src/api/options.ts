import { type Clock, sleep, systemClock } from '../clock.js';
import { BASE_URL_HINT, checkBaseUrl } from '../base-url.js';
import { ConfigError } from '../errors.js';
import { DEFAULT_REQUEST_CONNECTIONS } from '../request-pool.js';
import type { ClientLogListener } from './log-events.js';
import { DEFAULT_RETRY_OPTIONS, type RetryOptions } from './retry-policy.js';
import { DEFAULT_MAX_EVENT_CHARS } from './sse-decoder.js';

/** Options of {@link ServiceClient}. */
export interface ClientOptions {
  /** The service's base URL, ending in `/api/v1` (http or https). */
  baseUrl: string;
  /** The API key. Sent only to the base URL's origin; never in a message, log event or error. */
  apiKey: string;
  /** Retry limits and delays; missing fields take the defaults of `DEFAULT_RETRY_OPTIONS`. */
  retry?: Partial<RetryOptions>;
  /** Time allowed to open a TCP/TLS connection. @default 10_000 */
  connectTimeoutMs?: number;
  /** Ordinary requests: time allowed for the response headers, and the longest pause in the body. @default 60_000 */
  requestTimeoutMs?: number;
  /** Longest silence on an event stream before it counts as dead. @default 300_000 */
  streamIdleTimeoutMs?: number;
  /**
   * Largest server-sent event accepted, in characters (its data lines and unfinished
   * line); a larger one fails that stream with `SseEventTooLargeError` (following then
   * reconnects and, if it recurs, polls). @default 4_194_304 (4 Mi)
   */
  maxEventChars?: number;
  /**
   * Keep-alive connections per origin, for event streams and again for other requests (two
   * pools). Every followed event stream holds one for the run's whole life, so keep it
   * above the number of runs followed at once. @default 128
   */
  connections?: number;
  /**
   * Keep-alive connections per origin for every request but event streams (creating runs,
   * reads, responds, files). They are short, so a few hundred carry thousands of runs; one
   * each for a wave of thousands of admissions left thousands of idle sockets, and undici
   * counted every connection of the pool each time one of them closed. @default min(connections, 256)
   */
  requestConnections?: number;
  /** Interval between reads of a run when polling (the spec suggests about 3 s). @default 3_000 */
  pollIntervalMs?: number;
  /** Interval between reads of a running model run. @default 3_000 */
  modelPollIntervalMs?: number;
  /** Receives retries, reconnects and the fallback to polling. @default no logging */
  onLog?: ClientLogListener;
  /** Uniform [0, 1) source for the backoff's full jitter. @default Math.random */
  random?: () => number;
  /** Waits `ms`, ending early when the signal aborts (resolving or rejecting: either stops the wait). @default clock.sleep */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Time: `Retry-After` dates are read against it, and it sleeps unless `sleep` is given. @default systemClock */
  clock?: Clock;
}

/** {@link ClientOptions} with every default filled in and the base URL parsed. */
export interface ResolvedOptions {
  /** Base URL without a trailing slash. */
  baseUrl: URL;
  /** `baseUrl.pathname` without a trailing slash, e.g. `/api/v1`. */
  basePath: string;
  apiKey: string;
  retry: RetryOptions;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  streamIdleTimeoutMs: number;
  maxEventChars: number;
  connections: number;
  requestConnections: number;
  pollIntervalMs: number;
  modelPollIntervalMs: number;
  onLog: ClientLogListener;
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  clock: Clock;
}

export { DEFAULT_REQUEST_CONNECTIONS };

/** Validates options and fills in defaults; throws `ConfigError` naming the bad option. */
export function resolveOptions(opts: ClientOptions): ResolvedOptions {
  const baseUrl = parseBaseUrl(opts.baseUrl);
  checkApiKey(opts.apiKey);
  const retry = { ...DEFAULT_RETRY_OPTIONS, ...definedOnly(opts.retry ?? {}) };
  for (const [name, value] of Object.entries(retry)) {
    const min = name === 'maxAttempts' || name === 'threadBusyMaxAttempts' ? 1 : 0;
    checkNumber(`retry.${name}`, value, min);
  }
  const resolved: ResolvedOptions = {
    baseUrl,
    basePath: baseUrl.pathname.replace(/\/+$/, ''),
    apiKey: opts.apiKey,
    retry,
    connectTimeoutMs: opts.connectTimeoutMs ?? 10_000,
    requestTimeoutMs: opts.requestTimeoutMs ?? 60_000,
    streamIdleTimeoutMs: opts.streamIdleTimeoutMs ?? 300_000,
    maxEventChars: opts.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS,
    connections: opts.connections ?? 128,
    requestConnections: opts.requestConnections ?? Math.min(opts.connections ?? 128, DEFAULT_REQUEST_CONNECTIONS),
    pollIntervalMs: opts.pollIntervalMs ?? 3_000,
    modelPollIntervalMs: opts.modelPollIntervalMs ?? 3_000,
    onLog: safeListener(opts.onLog),
    random: opts.random ?? Math.random,
    sleep: opts.sleep ?? (opts.clock ? (ms, signal) => opts.clock!.sleep(ms, signal) : sleep),
    clock: opts.clock ?? systemClock,
  };
  checkNumber('connectTimeoutMs', resolved.connectTimeoutMs, 1);
  checkNumber('requestTimeoutMs', resolved.requestTimeoutMs, 1);
  checkNumber('streamIdleTimeoutMs', resolved.streamIdleTimeoutMs, 1);
  checkNumber('maxEventChars', resolved.maxEventChars, 1);
  checkNumber('connections', resolved.connections, 1);
  checkNumber('requestConnections', resolved.requestConnections, 1);
  checkNumber('pollIntervalMs', resolved.pollIntervalMs, 0);
  checkNumber('modelPollIntervalMs', resolved.modelPollIntervalMs, 0);
  return resolved;
}

function parseBaseUrl(raw: unknown): URL {
  const r = checkBaseUrl(raw);
  if (!r.ok) throw new ConfigError(`base URL ${r.reason}: set it to ${BASE_URL_HINT}`);
  return new URL(r.baseUrl);
}

function checkApiKey(key: unknown): void {
  if (typeof key !== 'string' || key === '') {
    throw new ConfigError('API key is missing: set RESQ_API_KEY (or pass apiKey)');
  }
  // Never echo the key: only say what is wrong with it.
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new ConfigError('API key contains spaces, line breaks or non-ASCII characters; check how it was copied');
  }
}

function checkNumber(name: string, value: unknown, min: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new ConfigError(`client option ${name} must be a number >= ${min}`);
  }
}

function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function safeListener(listener: ClientLogListener | undefined): ClientLogListener {
  if (!listener) return () => {};
  return (event) => {
    try {
      listener(event);
    } catch {
      // A broken log listener must not break requests.
    }
  };
}
