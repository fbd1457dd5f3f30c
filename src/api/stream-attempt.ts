import type { Dispatcher } from 'undici';
import type { ResponseHeaders } from './error-factory.js';
import type { RequestInfo } from './errors.js';
import { followAbort, unfollowAbort } from './signals.js';

/** Where an open stream's body goes: plain callbacks, no stream object, no promise per chunk. */
export interface StreamBody {
  /** A chunk of the body, in order. */
  data(chunk: Buffer): void;
  /** The server ended the body. */
  end(): void;
  /** The body broke off (a cut connection, a timeout, an abort with its reason). */
  error(err: unknown): void;
}

/** An error status and the start of its body, for the error factory. */
export interface ErrorResponse {
  status: number;
  headers: ResponseHeaders;
  bodyText: string;
}

/** What is told when an attempt is over: a function, or an object's `release` (a stream's connection slot). */
export type AttemptOver = (() => void) | { release(): void };

/** What opening settles with. */
export type Opened = { ok: true; status: number; headers: ResponseHeaders } | { ok: false; error: ErrorResponse };

/**
 * One attempt at a long-lived response (an event stream), as an undici dispatch handler.
 * An error status has its body read (bounded) and settles the opening with it; a 2xx
 * settles the opening with the head, paused, and hands the body to a {@link StreamBody}
 * once {@link attach}ed. Per stream this is one object: undici's `request()` added a
 * Readable, its async iterator and an AbortController, which at ten thousand streams in
 * flight were a third of the objects the young generation copied and most of the promises.
 * Once open it is also the caller's handle on the stream (its status, headers and request),
 * and it follows the aborts of its signals itself: no closure per stream.
 */
export class StreamAttempt implements Dispatcher.DispatchHandler {
  #controller: Dispatcher.DispatchController | null = null;
  #pendingAbort: Error | null = null;
  #phase: 'opening' | 'error-body' | 'open' | 'finishing' | 'done' = 'opening';
  #settleOpen: ((o: Opened) => void) | null;
  #failOpen: ((e: unknown) => void) | null;
  #body: StreamBody | null = null;
  #error: ErrorResponse | null = null;
  #errorBytes = 0;
  #errorDecoder: InstanceType<typeof TextDecoder> | null = null;
  #grace: NodeJS.Timeout | null = null;
  #signal: AbortSignal | null = null;
  #closing: AbortSignal | null = null;
  readonly #errorLimit: number;
  readonly #done: AttemptOver;
  /** Set by {@link opened}: the handle's head. */
  status = 0;
  headers: ResponseHeaders = {};
  request: RequestInfo | null = null;

  /** @param done told once when the attempt is over, whatever the outcome (its slot goes; it stops following its signals) */
  constructor(settle: (o: Opened) => void, fail: (e: unknown) => void, errorLimit: number, done: AttemptOver) {
    this.#settleOpen = settle;
    this.#failOpen = fail;
    this.#errorLimit = errorLimit;
    this.#done = done;
  }

  /**
   * Hangs up with a signal's reason when the caller's `signal` or the client's `closing`
   * aborts, until the attempt is over. Both must not be aborted yet.
   */
  watch(signal: AbortSignal | undefined, closing: AbortSignal): void {
    if (signal) followAbort((this.#signal = signal), this);
    followAbort((this.#closing = closing), this);
  }

  /** @internal One of the watched signals aborted: hangs up with its reason (the caller's first). */
  signalAborted(): void {
    const s = this.#signal?.aborted ? this.#signal : this.#closing;
    this.abort(s?.reason instanceof Error ? s.reason : new Error('aborted'));
  }

  /** The head came with a 2xx: the attempt becomes the caller's handle on the stream. */
  opened(status: number, headers: ResponseHeaders, request: RequestInfo): this & { request: RequestInfo } {
    this.status = status;
    this.headers = headers;
    this.request = request;
    return this as this & { request: RequestInfo };
  }

  /** The dispatcher refused the attempt before it started: nothing more will be heard of it. */
  refused(): void {
    this.#end();
  }

  /** Starts delivering the body of an opened stream to `body`. */
  attach(body: StreamBody): void {
    this.#body = body;
    if (this.#phase === 'open') this.#controller?.resume();
  }

  /** Hangs up with `reason` (reported to the body, or to the opening, as that error). */
  abort(reason: Error): void {
    if (this.#phase === 'done') return;
    if (this.#controller) this.#controller.abort(reason);
    else this.#pendingAbort = reason;
  }

  /**
   * Nothing more is wanted: lets the rest of the body end on its own so the connection
   * goes back to the pool, and hangs up if it has not ended within `graceMs`.
   */
  finish(graceMs: number): void {
    if (this.#phase !== 'open') return;
    this.#phase = 'finishing';
    this.#body = null;
    this.#controller?.resume();
    this.#grace = setTimeout(() => this.abort(new Error('stream did not end after its final event')), graceMs);
    this.#grace.unref();
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#pendingAbort) controller.abort(this.#pendingAbort);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    const h = headers as ResponseHeaders;
    if (statusCode >= 300) {
      this.#phase = 'error-body';
      this.#error = { status: statusCode, headers: h, bodyText: '' };
      this.#errorDecoder = new TextDecoder();
      return;
    }
    this.#phase = 'open';
    // The head is parsed into `headers`: the raw header Buffers undici leaves on the controller
    // (a dozen, for the stream's whole life, since the controller is held to pause and abort) go.
    (controller as { rawHeaders?: unknown }).rawHeaders = null;
    // Held until a body is attached (the caller checks the head first).
    if (!this.#body) controller.pause();
    const settle = this.#settleOpen;
    this.#settleOpen = this.#failOpen = null;
    settle?.({ ok: true, status: statusCode, headers: h });
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#phase === 'open') this.#body?.data(chunk);
    else if (this.#phase === 'error-body' && this.#errorBytes < this.#errorLimit) {
      const room = this.#errorLimit - this.#errorBytes;
      this.#error!.bodyText += this.#errorDecoder!.decode(chunk.subarray(0, room), { stream: true });
      this.#errorBytes += chunk.length;
    }
  }

  onResponseEnd(): void {
    const phase = this.#phase;
    this.#end();
    if (phase === 'error-body') this.#settleError();
    else if (phase === 'open') this.#body?.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, err: Error): void {
    const phase = this.#phase;
    this.#end();
    if (phase === 'opening') this.#failOpen?.(err);
    // An error body cut short still says what the status said.
    else if (phase === 'error-body') this.#settleError();
    else if (phase === 'open') this.#body?.error(err);
    this.#settleOpen = this.#failOpen = null;
  }

  #settleError(): void {
    const e = this.#error!;
    e.bodyText += this.#errorDecoder!.decode();
    const settle = this.#settleOpen;
    this.#settleOpen = this.#failOpen = null;
    settle?.({ ok: false, error: e });
  }

  #end(): void {
    this.#phase = 'done';
    if (this.#grace) clearTimeout(this.#grace);
    this.#grace = null;
    const done = this.#done;
    if (typeof done === 'function') done();
    else done.release();
    if (this.#signal) unfollowAbort(this.#signal, this);
    if (this.#closing) unfollowAbort(this.#closing, this);
    this.#signal = this.#closing = null;
  }
}
