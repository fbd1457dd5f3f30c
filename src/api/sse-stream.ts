import { ResponseShapeError, type RequestInfo } from './errors.js';
import { closedError, toNetworkError } from './network-errors.js';
import { segment } from './request-target.js';
import { isFinalRunEvent, parseEventId, toRunEvent, type RunEvent } from './run-events.js';
import { abortReason, linkSignals } from './signals.js';
import { SseDecoder } from './sse-decoder.js';
import { discardBody, settleBody, type OpenResponse, type Transport } from './transport.js';

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
}

/**
 * One SSE connection to `GET /runs/{id}/events`: yields events until the server ends the
 * stream or a `run` event with a finished status arrives. Opening the connection is retried
 * like any GET; a failure while reading is thrown as `NetworkError`/`TimeoutError`, an event
 * larger than `maxEventChars` as `SseEventTooLargeError` (nothing more is buffered). Leaving
 * the loop early (break, throw, abort) destroys the connection in `finally`.
 */
export async function* runEventStream(transport: Transport, opts: RunEventStreamOptions): AsyncGenerator<RunEvent> {
  const progress = opts.progress ?? { lastEventId: null, retryMs: null, events: 0 };
  if (opts.after !== undefined) progress.lastEventId = opts.after;
  const path = `/runs/${segment(opts.runId, 'run id')}/events`;
  const link = linkSignals(opts.signal, transport.closeSignal);
  let res: OpenResponse | undefined;
  /** Set once the final `run` event was read: the rest of the body is only its end. */
  let finished = false;
  const destroy = (): void => {
    if (res) discardBody(res.body, link.signal.reason instanceof Error ? link.signal.reason : undefined);
  };
  try {
    res = await transport.send(
      {
        method: 'GET',
        target: path,
        query: { after: opts.after },
        accept: 'text/event-stream',
        retryClass: 'idempotent',
        signal: opts.signal,
        bodyTimeoutMs: opts.idleTimeoutMs,
        longLived: true,
      },
      async (r) => {
        checkEventStream(r);
        return r;
      },
    );
    link.signal.addEventListener('abort', destroy, { once: true });
    if (link.signal.aborted) destroy();
    const request = res.request;
    const decoder = new SseDecoder({ maxEventChars: opts.maxEventChars, request: { method: request.method, path: request.path } });
    try {
      // Not destroyed when the loop is left: after the final event the body is let end (below).
      const chunks = res.body.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>;
      for await (const chunk of chunks) {
        for (const message of decoder.push(chunk)) {
          const event = toRunEvent(message);
          if (event.id !== null) progress.lastEventId = event.id;
          progress.events += 1;
          finished = isFinalRunEvent(event);
          yield event;
          if (finished) return;
        }
        // An event outgrew the bound after the ones above: fail now, not at the next chunk.
        decoder.throwIfFailed();
        noteProgress(progress, decoder);
      }
      for (const message of decoder.end()) {
        const event = toRunEvent(message);
        if (event.id !== null) progress.lastEventId = event.id;
        progress.events += 1;
        yield event;
      }
      noteProgress(progress, decoder);
    } catch (err) {
      throw streamError(err, opts.signal, transport.closeSignal, request);
    }
  } finally {
    link.signal.removeEventListener('abort', destroy);
    link.dispose();
    // After the final event the server ends the stream: letting it end keeps the connection.
    if (res && finished && !link.signal.aborted) settleBody(res.body, STREAM_END_GRACE_MS);
    else if (res) discardBody(res.body);
  }
}

function noteProgress(progress: StreamProgress, decoder: SseDecoder): void {
  const id = parseEventId(decoder.lastEventId);
  // Ids that do not parse as integers are ignored: `after` must be an integer.
  if (id !== null) progress.lastEventId = id;
  if (decoder.retryMs !== null) progress.retryMs = decoder.retryMs;
}

function checkEventStream(res: OpenResponse): void {
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
