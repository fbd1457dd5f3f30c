import { createParser, type EventSourceParser } from 'eventsource-parser';
import { SseEventTooLargeError } from './errors.js';

/** Default bound of one event (its unfinished line plus its data so far), in characters. */
export const DEFAULT_MAX_EVENT_CHARS = 4 * 2 ** 20;

/** Options of {@link SseDecoder}. */
export interface SseDecoderOptions {
  /**
   * Most characters one event may buffer before it is complete (its unfinished line and
   * its `data:` lines so far); past it, `push` throws {@link SseEventTooLargeError}.
   * @default DEFAULT_MAX_EVENT_CHARS (4 Mi characters)
   */
  maxEventChars?: number;
  /** The request the stream answers, named in the error. @default GET (event stream) */
  request?: { method: string; path: string };
}

/** One server-sent event as framed on the wire (before any JSON parsing). */
export interface SseMessage {
  /** The block's `id:` field, or null when the block has none. */
  id: string | null;
  /** The `event:` field; `message` when the block has none (the SSE default). */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
}

/**
 * Pure decoder from byte chunks to server-sent events. Bytes become text through a
 * streaming `TextDecoder` (a multi-byte character split across chunks stays whole),
 * eventsource-parser frames the text (LF, CR and CRLF line ends, comments ignored,
 * `retry:` recorded). A block with no `data:` line is not an event (the SSE rule):
 * it is skipped, though its `id:` still moves {@link lastEventId}. An unfinished block
 * at the end of the stream is dropped, as the SSE spec says. One leading BOM is stripped
 * (by the parser, not the text decoder, so a second BOM stays data, as the spec says).
 * Memory is bounded: an event larger than `maxEventChars` fails the stream.
 */
export class SseDecoder {
  // ignoreBOM keeps a leading BOM in the text: eventsource-parser strips exactly one.
  #text = new TextDecoder('utf-8', { ignoreBOM: true });
  #parser: EventSourceParser;
  #pending: SseMessage[] = [];
  #lastEventId: string | null = null;
  #retryMs: number | null = null;
  #tooLarge: SseEventTooLargeError | null = null;

  constructor(opts: SseDecoderOptions = {}) {
    const limitChars = opts.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
    const request = opts.request ?? { method: 'GET', path: '(event stream)' };
    this.#parser = createParser({
      maxBufferSize: limitChars,
      onError: (e) => {
        if (e.type === 'max-buffer-size-exceeded') this.#tooLarge ??= new SseEventTooLargeError({ ...request, limitChars });
      },
      onEvent: (m) => {
        this.#pending.push({ id: m.id ?? null, event: m.event ?? 'message', data: m.data });
      },
      onId: (id) => {
        this.#lastEventId = id;
      },
      onRetry: (ms) => {
        this.#retryMs = ms;
      },
    });
  }

  /**
   * Feeds a chunk; returns the events it completed, in order. Events completed before an
   * overflow are still returned; the next call (or {@link throwIfFailed}) throws.
   * @throws {SseEventTooLargeError} once an event outgrew `maxEventChars` and nothing is left to return.
   */
  push(chunk: Uint8Array): SseMessage[] {
    this.throwIfFailed();
    this.#parser.feed(this.#text.decode(chunk, { stream: true }));
    return this.#takeOrThrow();
  }

  /**
   * Ends the stream: flushes the text decoder; returns any events that completes.
   * @throws {SseEventTooLargeError} when an event outgrew `maxEventChars`.
   */
  end(): SseMessage[] {
    this.throwIfFailed();
    const rest = this.#text.decode();
    if (rest !== '') this.#parser.feed(rest);
    return this.#takeOrThrow();
  }

  /**
   * Throws when an event outgrew `maxEventChars`: the stream has failed.
   * @throws {SseEventTooLargeError}
   */
  throwIfFailed(): void {
    if (this.#tooLarge) throw this.#tooLarge;
  }

  /** The last `id:` value seen (also from blocks without data), or null. */
  get lastEventId(): string | null {
    return this.#lastEventId;
  }

  /** The last `retry:` value the server sent, in milliseconds, or null. */
  get retryMs(): number | null {
    return this.#retryMs;
  }

  #takeOrThrow(): SseMessage[] {
    const out = this.#take();
    if (out.length === 0) this.throwIfFailed();
    return out;
  }

  #take(): SseMessage[] {
    const out = this.#pending;
    this.#pending = [];
    return out;
  }
}
