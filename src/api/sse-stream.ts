import { ResponseShapeError, type RequestInfo } from './errors.js';
import { closedError, toNetworkError } from './network-errors.js';
import { segment } from './request-target.js';
import { isFinalRunEvent, parseEventId, toRunEvent, type RunEvent } from './run-events.js';
import { abortReason, linkSignals } from './signals.js';
import { SseDecoder, type SseMessage } from './sse-decoder.js';
import type { StreamBody } from './stream-attempt.js';
import type { OpenStream, Transport } from './transport.js';

/** How long a stream may take to end after its final event before its connection is dropped. */
const STREAM_END_GRACE_MS = 500;

/** What one connection learned, for the caller that reconnects. */
export interface StreamProgress {
  /** Last integer event id seen (blocks without data included), or the `after` it started from. */
  lastEventId: number | null;
  /** The server's `retry:` hint in ms, or null. */
  retryMs: number | null;
  /** Events yielded on this connection. */
  events: number;
}

/** Options of {@link runEventStream}. */
export interface RunEventStreamOptions {
  runId: string;
  /** Resume after this event id; omitted from the query when undefined. */
  after?: number;
  signal?: AbortSignal;
  /** Longest silence before the connection counts as dead. */
  idleTimeoutMs: number;
  /** Filled in while streaming. */
  progress?: StreamProgress;
  /** Bound of one event, in characters (see SseDecoderOptions). @default DEFAULT_MAX_EVENT_CHARS */
  maxEventChars?: number;
  /**
   * `run`: only `run` events have their data parsed; the others carry it as the raw text (a
   * follower that looks at nothing but the final run skips a JSON.parse per text delta).
   * @default 'all'
   */
  parse?: 'all' | 'run';
}

/**
 * One SSE connection to `GET /runs/{id}/events`, read with callbacks: `onEvent` gets each
 * event in order and returns true to stop (a `run` event with a finished status). Resolves
 * when the server ends the stream or once `onEvent` said stop (the rest of the body is
 * then let end, so the connection is kept). Opening is retried like any GET; a failure
 * while reading rejects as `NetworkError`/`TimeoutError`, an event larger than
 * `maxEventChars` as `SseEventTooLargeError` (after the events before it), an abort with
 * its reason. No stream object, generator or promise per chunk: at ten thousand runs in
 * flight those were most of what a followed run kept alive.
 */
export function readEventStream(
  transport: Transport,
  opts: RunEventStreamOptions,
  onEvent: (event: RunEvent) => boolean,
): Promise<void> {
  const progress = opts.progress ?? { lastEventId: null, retryMs: null, events: 0 };
  if (opts.after !== undefined) progress.lastEventId = opts.after;
  // One promise for the whole stream, settled by its reader: no async function's promise
  // waiting on it (and its resolving functions) kept beside it while the run is in flight.
  return new Promise<void>((resolve, reject) => {
    const reader = new EventReader(transport, opts, progress, onEvent, resolve, reject);
    transport
      .openStream({
        method: 'GET',
        target: `/runs/${segment(opts.runId, 'run id')}/events`,
        query: { after: opts.after },
        accept: 'text/event-stream',
        retryClass: 'idempotent',
        signal: opts.signal,
        bodyTimeoutMs: opts.idleTimeoutMs,
      })
      .then((open) => reader.opened(open), reject);
  });
}

/** Decodes one open stream's body into events (see {@link readEventStream}). */
class EventReader implements StreamBody {
  #decoder: SseDecoder | null = null;
  #open: OpenStream | null = null;
  #done = false;

  readonly transport: Transport;
  readonly opts: RunEventStreamOptions;
  readonly progress: StreamProgress;
  readonly onEvent: (event: RunEvent) => boolean;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;

  constructor(
    transport: Transport,
    opts: RunEventStreamOptions,
    progress: StreamProgress,
    onEvent: (event: RunEvent) => boolean,
    resolve: () => void,
    reject: (err: unknown) => void,
  ) {
    this.transport = transport;
    this.opts = opts;
    this.progress = progress;
    this.onEvent = onEvent;
    this.resolve = resolve;
    this.reject = reject;
  }

  /** The stream opened: checks it is an event stream and reads its body. */
  opened(open: OpenStream): void {
    try {
      checkEventStream(open);
    } catch (err) {
      open.abort(err as Error);
      this.reject(err);
      return;
    }
    this.#open = open;
    this.#decoder = new SseDecoder({ maxEventChars: this.opts.maxEventChars, request: { method: open.request.method, path: open.request.path } });
    open.attach(this);
  }

  data(chunk: Buffer): void {
    if (this.#done) return;
    const decoder = this.#decoder!;
    try {
      if (this.#deliver(decoder.push(chunk))) {
        this.#done = true;
        this.#open!.finish(STREAM_END_GRACE_MS);
        this.resolve();
        return;
      }
      // An event outgrew the bound after the ones above: fail now, not at the next chunk.
      decoder.throwIfFailed();
      noteProgress(this.progress, decoder);
    } catch (err) {
      this.#done = true;
      this.#open!.abort(err instanceof Error ? err : new Error(String(err)));
      this.reject(this.#mapped(err));
    }
  }

  end(): void {
    if (this.#done) return;
    this.#done = true;
    try {
      this.#deliver(this.#decoder!.end());
      noteProgress(this.progress, this.#decoder!);
      this.resolve();
    } catch (err) {
      this.reject(this.#mapped(err));
    }
  }

  error(err: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.reject(this.#mapped(err));
  }

  /** Hands messages over as events; true once one said stop. */
  #deliver(messages: readonly SseMessage[]): boolean {
    const all = this.opts.parse !== 'run';
    for (const message of messages) {
      const event = toRunEvent(message, all || message.event === 'run');
      if (event.id !== null) this.progress.lastEventId = event.id;
      this.progress.events += 1;
      if (this.onEvent(event)) return true;
    }
    return false;
  }

  #mapped(err: unknown): unknown {
    return streamError(err, this.opts.signal, this.transport.closeSignal, this.#open!.request);
  }
}

/**
 * {@link readEventStream} as an async generator: yields events until the server ends the
 * stream or a `run` event with a finished status arrives. Leaving the loop early (break,
 * throw) hangs up.
 */
export async function* runEventStream(transport: Transport, opts: RunEventStreamOptions): AsyncGenerator<RunEvent> {
  const link = linkSignals(opts.signal);
  const queue: RunEvent[] = [];
  let wake: (() => void) | null = null;
  let over = false;
  let failure: { err: unknown } | null = null;
  const reading = readEventStream(transport, { ...opts, signal: link.signal }, (event) => {
    queue.push(event);
    wake?.();
    return isFinalRunEvent(event);
  }).then(
    () => void (over = true),
    (err: unknown) => void ((failure = { err }), (over = true)),
  ).finally(() => wake?.());
  try {
    for (;;) {
      while (queue.length > 0) yield queue.shift()!;
      if (over) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
    if (failure) throw (failure as { err: unknown }).err;
  } finally {
    // Left early: hang up (the reading's own rejection is expected and dropped).
    if (!over) link.abort(new Error('event stream left early'));
    await reading;
    link.dispose();
  }
}

function noteProgress(progress: StreamProgress, decoder: SseDecoder): void {
  const id = parseEventId(decoder.lastEventId);
  // Ids that do not parse as integers are ignored: `after` must be an integer.
  if (id !== null) progress.lastEventId = id;
  if (decoder.retryMs !== null) progress.retryMs = decoder.retryMs;
}

function checkEventStream(res: OpenStream): void {
  const raw = res.headers['content-type'];
  const type = (Array.isArray(raw) ? raw[0] : raw)?.toLowerCase() ?? '';
  // A missing type is tolerated; a different one (JSON, HTML) means this is not a stream.
  if (type !== '' && !type.startsWith('text/event-stream')) {
    throw new ResponseShapeError({
      method: res.request.method,
      path: res.request.path,
      issues: [`expected text/event-stream, got ${type.split(';')[0]}`],
    });
  }
}

function streamError(err: unknown, signal: AbortSignal | undefined, closing: AbortSignal, req: RequestInfo): unknown {
  if (signal?.aborted) return abortReason(signal);
  if (closing.aborted) return closedError(req);
  return toNetworkError(err, req) ?? err;
}
