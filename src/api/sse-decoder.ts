import { createParser, type EventSourceMessage, type EventSourceParser, type ParseError } from 'eventsource-parser';
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
 *
 * A stream between two blocks holds no text decoder and no parser of its own: a chunk that
 * ends on a character boundary is decoded by one decoder all streams share, and a chunk of
 * whole blocks (LF line ends, ending on a blank line) is framed by one parser all streams
 * with the same bound share, which ends such a chunk as fresh as it began. Only a stream
 * whose chunk ends mid-character or mid-block (or its first text, for the BOM) gets its
 * own, and gives its parser back once a chunk of whole blocks brings it to a boundary
 * again. At thousands of streams in flight the parser's dozen closures per stream were
 * most of what a stream kept.
 */
export class SseDecoder {
  #text: InstanceType<typeof TextDecoder> | null = null;
  #parser: EventSourceParser | null = null;
  /** Whether the stream's first text went through a parser of its own (its BOM handled). */
  #started = false;
  #pending: SseMessage[] | null = null;
  #lastEventId: string | null = null;
  #retryMs: number | null = null;
  #tooLarge: SseEventTooLargeError | null = null;
  readonly #limitChars: number;
  readonly #request: { method: string; path: string } | undefined;

  constructor(opts: SseDecoderOptions = {}) {
    this.#limitChars = opts.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
    this.#request = opts.request;
  }

  /**
   * Feeds a chunk; returns the events it completed, in order. Events completed before an
   * overflow are still returned; the next call (or {@link throwIfFailed}) throws.
   * @throws {SseEventTooLargeError} once an event outgrew `maxEventChars` and nothing is left to return.
   */
  push(chunk: Uint8Array): SseMessage[] {
    this.throwIfFailed();
    this.#feed(this.#decode(chunk));
    return this.#takeOrThrow();
  }

  /**
   * Ends the stream: flushes the text decoder; returns any events that completes.
   * @throws {SseEventTooLargeError} when an event outgrew `maxEventChars`.
   */
  end(): SseMessage[] {
    this.throwIfFailed();
    const rest = this.#text ? this.#text.decode() : '';
    if (rest !== '') this.#feed(rest);
    return this.#takeOrThrow();
  }

  /**
   * Throws when an event outgrew `maxEventChars`: the stream has failed.
   * @throws {SseEventTooLargeError}
   */
  throwIfFailed(): void {
    if (this.#tooLarge) throw this.#tooLarge;
  }

  /** Whether the stream holds a text decoder or a parser of its own (mid-character or mid-block); false between blocks. */
  get holdsOwnState(): boolean {
    return this.#text !== null || this.#parser !== null;
  }

  /** Whether an event outgrew `maxEventChars` (the stream has failed). */
  get failed(): boolean {
    return this.#tooLarge !== null;
  }

  /** The last `id:` value seen (also from blocks without data), or null. */
  get lastEventId(): string | null {
    return this.#lastEventId;
  }

  /** The last `retry:` value the server sent, in milliseconds, or null. */
  get retryMs(): number | null {
    return this.#retryMs;
  }

  /** @internal The parser's callbacks land here, for whichever parser (its own or a shared one) framed the text. */
  onEvent(m: EventSourceMessage): void {
    (this.#pending ??= []).push({ id: m.id ?? null, event: m.event ?? 'message', data: m.data });
  }

  onId(id: string): void {
    this.#lastEventId = id;
  }

  onRetry(ms: number): void {
    this.#retryMs = ms;
  }

  onError(e: ParseError): void {
    if (e.type === 'max-buffer-size-exceeded') this.#tooLarge ??= new SseEventTooLargeError({ ...(this.#request ?? STREAM_REQUEST), limitChars: this.#limitChars });
  }

  /** Bytes to text: the shared decoder when the chunk ends on a character boundary and none is pending. */
  #decode(chunk: Uint8Array): string {
    // An ASCII last byte ends any character: a streaming decoder would hold nothing after it.
    if (!this.#text && (chunk.length === 0 || chunk[chunk.length - 1]! < 0x80)) return SHARED_TEXT.decode(chunk);
    // ignoreBOM keeps a leading BOM in the text: eventsource-parser strips exactly one.
    this.#text ??= new TextDecoder('utf-8', { ignoreBOM: true });
    return this.#text.decode(chunk, { stream: true });
  }

  #feed(text: string): void {
    if (text === '') return;
    const whole = endsOnBlock(text);
    if (this.#started && !this.#parser && whole) {
      sharedParser(this.#limitChars).feed(this, text);
      return;
    }
    this.#started = true;
    const parser = (this.#parser ??= createParser({
      maxBufferSize: this.#limitChars,
      onError: (e) => this.onError(e),
      onEvent: (m) => this.onEvent(m),
      onId: (id) => this.onId(id),
      onRetry: (ms) => this.onRetry(ms),
    }));
    parser.feed(text);
    // Whole blocks leave the parser as fresh as a shared one (its BOM check done): give it back.
    if (whole && !this.#tooLarge) this.#parser = null;
  }

  #takeOrThrow(): SseMessage[] {
    const out = this.#take();
    if (out.length === 0) this.throwIfFailed();
    return out;
  }

  #take(): SseMessage[] {
    const out = this.#pending ?? [];
    this.#pending = null;
    return out;
  }
}

const STREAM_REQUEST = { method: 'GET', path: '(event stream)' };

/** One decoder for every chunk that ends on a character boundary (each decode is whole: it keeps nothing). */
const SHARED_TEXT = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Text of whole blocks: LF line ends only, ending on a blank line. Framing it leaves
 * eventsource-parser with nothing buffered (no partial line, no split CRLF, no block begun).
 */
function endsOnBlock(text: string): boolean {
  return text.length >= 2 && text.charCodeAt(text.length - 1) === 10 && text.charCodeAt(text.length - 2) === 10 && text.indexOf('\r') === -1;
}

/** An eventsource-parser shared by the streams at a block boundary, its callbacks sent to the decoder being fed. */
class SharedParser {
  #to: SseDecoder | null = null;
  readonly #parser: EventSourceParser;

  constructor(maxBufferSize: number) {
    this.#parser = createParser({
      maxBufferSize,
      onError: (e) => this.#to?.onError(e),
      onEvent: (m) => this.#to?.onEvent(m),
      onId: (id) => this.#to?.onId(id),
      onRetry: (ms) => this.#to?.onRetry(ms),
    });
    this.#fresh();
  }

  /** Frames `text` (whole blocks) for `to`; after an overflow the parser starts afresh. */
  feed(to: SseDecoder, text: string): void {
    this.#to = to;
    try {
      this.#parser.feed(text);
    } catch (err) {
      this.#to = null;
      this.#parser.reset();
      this.#fresh();
      throw err;
    }
    this.#to = null;
    // An overflow leaves the parser terminated: the next stream gets a fresh one.
    if (to.failed) {
      this.#parser.reset();
      this.#fresh();
    }
  }

  /** Settles the parser's BOM check on a blank line (no event): later text is never taken for a stream's start. */
  #fresh(): void {
    this.#parser.feed('\n');
  }
}

const sharedParsers = new Map<number, SharedParser>();

function sharedParser(maxBufferSize: number): SharedParser {
  let p = sharedParsers.get(maxBufferSize);
  if (!p) sharedParsers.set(maxBufferSize, (p = new SharedParser(maxBufferSize)));
  return p;
}
