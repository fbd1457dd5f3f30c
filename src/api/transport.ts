import { Agent, request } from 'undici';
import { StreamPools } from './stream-pools.js';
import type { Dispatcher } from 'undici';
import { createApiError, type ResponseHeaders } from './error-factory.js';
import { ConflictError, RateLimitError, ResponseShapeError, type RequestInfo } from './errors.js';
import { closedError, toNetworkError } from './network-errors.js';
import type { ResolvedOptions } from './options.js';
import { resolveTarget, type Query, type RequestTarget } from './request-target.js';
import { decideRetry, type RetryClass } from './retry-policy.js';
import { abortReason, linkSignals } from './signals.js';
import { StreamAttempt, type AttemptOver, type ErrorResponse, type Opened, type StreamBody } from './stream-attempt.js';
import { ThrottleSignal } from './throttle.js';

/** One logical request (all its attempts). */
export interface SendOptions {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path below the base URL (`/runs/abc`) or an absolute URL (files, poll URLs). */
  target: string | URL;
  /** Query parameters; undefined values are left out. */
  query?: Query;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as `Idempotency-Key` (already validated by the caller). */
  idempotencyKey?: string;
  /** @default 'application/json' */
  accept?: string;
  /** How safe the request is to repeat; decides which failures are retried. */
  retryClass: RetryClass;
  /** Wait out 409 `thread_busy` (requests that start a run). @default false */
  waitOnThreadBusy?: boolean;
  /** Caller's abort signal: aborting rejects with its reason and is never retried. */
  signal?: AbortSignal;
  /** Longest pause in the response body. @default requestTimeoutMs */
  bodyTimeoutMs?: number;
  /** Hand 3xx responses to `consume` instead of failing (manual redirects; `send` only). @default false */
  allowRedirect?: boolean;
  /** The request starts work at the service (a run, a respond, a model run): a 429 on it is an admission throttle. @default false */
  admission?: boolean;
  /**
   * Attempts of this request, the first included: a caller that retries the whole operation
   * on its own budget (a download: request and body) passes 1. @default retry.maxAttempts
   */
  maxAttempts?: number;
}

/** A response whose status was accepted; its body is not read yet. */
export interface OpenResponse {
  status: number;
  headers: ResponseHeaders;
  body: Dispatcher.ResponseData['body'];
  target: RequestTarget;
  /** The attempt that produced it, for messages. */
  request: RequestInfo;
}

/** A long-lived response whose head was accepted; its body waits for {@link attach}. */
export interface OpenStream {
  status: number;
  headers: ResponseHeaders;
  /** The attempt that opened it, for messages. */
  request: RequestInfo;
  /** Starts the body: chunks, then its end or its failure, go to `body`. */
  attach(body: StreamBody): void;
  /** Nothing more is wanted: the rest may end on its own within `graceMs` (the connection is kept), else it is dropped. */
  finish(graceMs: number): void;
  /** Hangs up now; the attached body hears `reason` as its error. */
  abort(reason: Error): void;
}

/** A JSON response. */
export interface JsonResponse {
  status: number;
  headers: ResponseHeaders;
  /** Parsed body; null for an empty body. */
  data: unknown;
  request: RequestInfo;
}

const ERROR_BODY_LIMIT = 64 * 1024;
/** A request on the shared pool holds no slot: nothing to release when it is over. */
const NOTHING = (): void => {};
const USER_AGENT = 'resq/0.1 (+undici)';

/**
 * THE one place that sends requests: URL join, `Authorization` (only on the base URL's
 * origin), JSON, `Accept`, timeouts, the retry loop, and error mapping, over one keep-alive
 * undici `Agent`. Every body is consumed or destroyed so sockets go back to the pool.
 */
export class Transport {
  #opts: ResolvedOptions;
  #agent: Agent;
  /**
   * Event streams hold their connection for a run's whole life. In a pool of their own
   * they never take the connection a short request (the next admission) would reuse: with
   * one pool, the streams opened on the sockets of the POSTs that started their runs, and
   * each admission after a run ended opened a new connection.
   */
  #streams: StreamPools;
  #closing = new AbortController();
  #closed: Promise<void> | null = null;
  /** Told of every HTTP 429 an attempt gets (see {@link ThrottleEvent}). */
  readonly throttle = new ThrottleSignal();

  constructor(opts: ResolvedOptions) {
    this.#opts = opts;
    const agent = (): Agent =>
      new Agent({
        connections: opts.requestConnections,
        connect: { timeout: opts.connectTimeoutMs },
        headersTimeout: opts.requestTimeoutMs,
        bodyTimeout: opts.requestTimeoutMs,
      });
    this.#agent = agent();
    this.#streams = new StreamPools(
      (connections) =>
        new Agent({ connections, connect: { timeout: opts.connectTimeoutMs }, headersTimeout: opts.requestTimeoutMs, bodyTimeout: opts.requestTimeoutMs }),
      opts.connections,
    );
  }

  /** Aborts when the client closes: long-lived streams link to it. */
  get closeSignal(): AbortSignal {
    return this.#closing.signal;
  }

  /** Strings that must never appear in a message. */
  get secrets(): readonly string[] {
    return [this.#opts.apiKey];
  }

  /** Resolves a target the way {@link send} does (for labels and origin checks). */
  target(target: string | URL, query?: Query): RequestTarget {
    return resolveTarget(this.#opts.baseUrl, this.#opts.basePath, target, query);
  }

  /**
   * Sends with retries. `consume` runs inside each attempt (so a body that breaks off while
   * being read is retried like any network failure); its result is returned. On an error
   * status the body is read (bounded) and the error factory's error is thrown.
   */
  async send<T>(req: SendOptions, consume: (res: OpenResponse) => Promise<T>): Promise<T> {
    return this.#retrying(req, (target, info, busyAttempts) => this.#attempt(req, target, info, busyAttempts, consume));
  }

  /**
   * Opens a long-lived response (an event stream) with the retries of {@link send} (an
   * error status, a refused connection), and returns it paused: {@link OpenStream.attach}
   * starts its body. What happens after the head is not retried here: a body that breaks
   * off is reported to the attached {@link StreamBody}, and the caller decides (an event
   * stream reconnects with `after`).
   */
  openStream(req: SendOptions): Promise<OpenStream> {
    return this.#retrying(req, (target, info, busyAttempts) => this.#attemptStream(req, target, info, busyAttempts));
  }

  /** The retry loop of every request: `attempt` is tried until it succeeds or the policy says stop. */
  async #retrying<T>(req: SendOptions, attempt1: (target: RequestTarget, info: RequestInfo, busyAttempts: number) => Promise<T>): Promise<T> {
    const target = this.target(req.target, req.query);
    const retry = req.maxAttempts === undefined ? this.#opts.retry : { ...this.#opts.retry, maxAttempts: Math.max(1, req.maxAttempts) };
    let attempt = 1;
    let busyAttempts = 0;
    for (;;) {
      const info: RequestInfo = { method: req.method, path: target.label, attempt, maxAttempts: retry.maxAttempts };
      let failure: unknown;
      try {
        return await attempt1(target, info, busyAttempts);
      } catch (err) {
        failure = this.#normalize(err, req, info, target);
      }
      if (failure instanceof ConflictError && failure.threadBusy) busyAttempts += 1;
      if (failure instanceof RateLimitError)
        this.throttle.emit({ type: 'throttle', method: req.method, path: target.label, admission: req.admission ?? false, attempt, retryAfter: failure.retryAfter });
      const decision = decideRetry({
        error: failure,
        attempt,
        busyAttempts,
        retryClass: req.retryClass,
        waitOnThreadBusy: req.waitOnThreadBusy ?? false,
        aborted: req.signal?.aborted === true || this.#closing.signal.aborted,
        options: retry,
        random: this.#opts.random,
        now: this.#opts.clock.now(),
      });
      if (!decision.retry) throw failure;
      const busy = decision.budget === 'thread-busy';
      this.#opts.onLog({
        type: 'retry',
        method: req.method,
        path: target.label,
        attempt: busy ? busyAttempts : attempt,
        maxAttempts: busy ? retry.threadBusyMaxAttempts : retry.maxAttempts,
        delayMs: decision.delayMs,
        reason: decision.reason,
        message: failure instanceof Error ? failure.message : String(failure),
      });
      await this.#sleep(decision.delayMs, req.signal, info);
      if (!busy) attempt += 1;
    }
  }

  /**
   * Sends and parses a JSON body (empty body → null). A non-JSON body is a `ResponseShapeError`.
   * With the retries of {@link send}, over a dispatch handler that gathers the body: no
   * Readable, no linked AbortController and no promise per chunk for the short requests
   * every run makes (its admission; a resume's read of each run).
   */
  sendJson(req: SendOptions): Promise<JsonResponse> {
    return this.#retrying(req, (target, info, busyAttempts) => this.#attemptJson(req, target, info, busyAttempts));
  }

  /** One attempt of {@link sendJson}: the head, then the whole body as text, parsed. */
  async #attemptJson(req: SendOptions, target: RequestTarget, info: RequestInfo, busyAttempts: number): Promise<JsonResponse> {
    const { attempt, opened } = this.#dispatch(req, target, this.#agent, NOTHING, req.json === undefined ? null : JSON.stringify(req.json));
    // The body is gathered from the head on; a failure of it is awaited below, after the head.
    const body = new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      attempt.attach({ data: (c) => chunks.push(c), end: () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')), error: reject });
    });
    body.catch(() => {});
    const head = await opened;
    // A 3xx is an error here: manual redirects (allowRedirect) are for `send`'s file downloads.
    if (!head.ok) throw this.#errorOf(head.error, req, info, busyAttempts);
    return { status: head.status, headers: head.headers, data: parseJson(await body, info), request: info };
  }

  /**
   * Dispatches one attempt to `dispatcher` with a {@link StreamAttempt} as its handler: the
   * caller's signal and the client's close end it with their reason until it is over, then
   * `over` runs and the listeners go. `over` runs also when the attempt never starts (a signal
   * already aborted, a closed dispatcher).
   */
  #dispatch(req: SendOptions, target: RequestTarget, dispatcher: Dispatcher, over: AttemptOver, body: string | null): { attempt: StreamAttempt; opened: Promise<Opened> } {
    for (const signal of [req.signal, this.#closing.signal]) {
      if (signal?.aborted) {
        if (typeof over === 'function') over();
        else over.release();
        throw signal.reason;
      }
    }
    let attempt!: StreamAttempt;
    const opened = new Promise<Opened>((settle, fail) => {
      attempt = new StreamAttempt(settle, fail, ERROR_BODY_LIMIT, over);
    });
    attempt.watch(req.signal, this.#closing.signal);
    try {
      dispatcher.dispatch(
        {
          origin: target.origin,
          path: target.path,
          method: req.method,
          headers: this.#headers(req, target),
          body,
          headersTimeout: this.#opts.requestTimeoutMs,
          bodyTimeout: req.bodyTimeoutMs ?? this.#opts.requestTimeoutMs,
        },
        attempt,
      );
    } catch (err) {
      // Refused before it started (a closed dispatcher): the attempt will hear nothing more.
      attempt.refused();
      throw err;
    }
    return { attempt, opened };
  }

  /** Aborts everything in flight (streams included) and closes the connection pool. */
  close(): Promise<void> {
    if (!this.#closed) {
      this.#closing.abort(new Error('client closed'));
      this.#closed = Promise.all([this.#agent.close(), this.#streams.close()]).then(() => {});
    }
    return this.#closed;
  }

  async #attempt<T>(
    req: SendOptions,
    target: RequestTarget,
    info: RequestInfo,
    busyAttempts: number,
    consume: (res: OpenResponse) => Promise<T>,
  ): Promise<T> {
    const link = linkSignals(req.signal, this.#closing.signal);
    let res: Dispatcher.ResponseData | undefined;
    try {
      if (link.signal.aborted) throw link.signal.reason;
      res = await request(target.url, {
        dispatcher: this.#agent,
        method: req.method,
        headers: this.#headers(req, target),
        body: req.json === undefined ? null : JSON.stringify(req.json),
        signal: link.signal,
        headersTimeout: this.#opts.requestTimeoutMs,
        bodyTimeout: req.bodyTimeoutMs ?? this.#opts.requestTimeoutMs,
      });
      const headers = res.headers as ResponseHeaders;
      const redirect = res.statusCode >= 300 && res.statusCode < 400 && req.allowRedirect === true;
      if (res.statusCode >= 300 && !redirect) {
        throw this.#errorOf({ status: res.statusCode, headers, bodyText: await readBounded(res.body, ERROR_BODY_LIMIT) }, req, info, busyAttempts);
      }
      const open: OpenResponse = { status: res.statusCode, headers, body: res.body, target, request: info };
      return await consume(open);
    } catch (err) {
      // A body read to its end has already freed the socket; destroying it would close it.
      if (res && !res.body.readableEnded) discardBody(res.body);
      throw err;
    } finally {
      link.dispose();
    }
  }

  /** One attempt at a long-lived response, over a stream shard (see {@link openStream}). */
  async #attemptStream(req: SendOptions, target: RequestTarget, info: RequestInfo, busyAttempts: number): Promise<OpenStream> {
    const slot = this.#streams.acquire();
    // Its slot goes with the attempt's end, whatever it is (one that never starts included).
    const { attempt, opened } = this.#dispatch(req, target, slot.dispatcher, slot, null);
    const head = await opened;
    if (!head.ok) throw this.#errorOf(head.error, req, info, busyAttempts);
    // The attempt is the handle: no object or closures of its own per stream.
    return attempt.opened(head.status, head.headers, info);
  }

  /** The error an error status means (the factory's), noting a wait on a busy thread. */
  #errorOf(response: ErrorResponse, req: SendOptions, info: RequestInfo, busyAttempts: number): Error {
    const error = createApiError(response, info, this.secrets);
    if (error instanceof ConflictError && error.threadBusy && req.waitOnThreadBusy) {
      const note = `thread busy ${busyAttempts + 1}/${this.#opts.retry.threadBusyMaxAttempts}`;
      return createApiError(response, { ...info, note }, this.secrets);
    }
    return error;
  }

  #headers(req: SendOptions, target: RequestTarget): Record<string, string> {
    const headers: Record<string, string> = {
      accept: req.accept ?? 'application/json',
      'user-agent': USER_AGENT,
    };
    // The key goes to the service's own origin only: never to a file host or a redirect target.
    if (target.sameOrigin) headers.authorization = `Bearer ${this.#opts.apiKey}`;
    if (req.json !== undefined) headers['content-type'] = 'application/json';
    if (req.idempotencyKey !== undefined) headers['idempotency-key'] = req.idempotencyKey;
    return headers;
  }

  /** Caller abort → its reason; client closed → `NetworkError`; transport failure → mapped; else as is. */
  #normalize(err: unknown, req: SendOptions, info: RequestInfo, target: RequestTarget): unknown {
    if (req.signal?.aborted) return abortReason(req.signal);
    if (this.#closing.signal.aborted) return closedError(info);
    const service = target.sameOrigin ? this.#opts.baseUrl.href.replace(/\/+$/, '') : target.origin;
    return toNetworkError(err, info, service) ?? err;
  }

  async #sleep(ms: number, signal: AbortSignal | undefined, info: RequestInfo): Promise<void> {
    const link = linkSignals(signal, this.#closing.signal);
    try {
      await this.#opts.sleep(ms, link.signal);
    } catch (err) {
      // An injected sleep may reject on abort rather than resolve: the abort is what counts.
      if (!link.signal.aborted) throw err;
    } finally {
      link.dispose();
    }
    if (signal?.aborted) throw abortReason(signal);
    if (this.#closing.signal.aborted) throw closedError(info);
  }
}

/**
 * Destroys a body nobody will read. undici reports a destroyed unread body as an `error`
 * event; with no listener that would crash the process, so one is attached first.
 */
export function discardBody(body: Dispatcher.ResponseData['body'], err?: Error): void {
  body.on('error', () => {});
  if (!body.destroyed) body.destroy(err);
}

/** Reads at most `limit` bytes of a body as text, then drops the rest. */
export async function readBounded(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for await (const chunk of body) {
    const room = limit - bytes;
    text += decoder.decode(chunk.subarray(0, Math.max(room, 0)), { stream: true });
    bytes += chunk.length;
    if (bytes >= limit) {
      discardBody(body);
      break;
    }
  }
  return text + decoder.decode();
}

function parseJson(text: string, req: RequestInfo): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new ResponseShapeError({ method: req.method, path: req.path, issues: ['body is not valid JSON'] });
  }
}
