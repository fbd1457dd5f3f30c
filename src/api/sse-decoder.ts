import { createParser, type EventSourceParser } from 'eventsource-parser';

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
 * at the end of the stream is dropped, as the SSE spec says.
 */
export class SseDecoder {
  #text = new TextDecoder('utf-8');
  #parser: EventSourceParser;
  #pending: SseMessage[] = [];
  #lastEventId: string | null = null;
  #retryMs: number | null = null;

  constructor() {
    this.#parser = createParser({
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

  /** Feeds a chunk; returns the events it completed, in order. */
  push(chunk: Uint8Array): SseMessage[] {
    this.#parser.feed(this.#text.decode(chunk, { stream: true }));
    return this.#take();
  }

  /** Ends the stream: flushes the text decoder; returns any events that completes. */
  end(): SseMessage[] {
    const rest = this.#text.decode();
    if (rest !== '') this.#parser.feed(rest);
    return this.#take();
  }

  /** The last `id:` value seen (also from blocks without data), or null. */
  get lastEventId(): string | null {
    return this.#lastEventId;
  }

  /** The last `retry:` value the server sent, in milliseconds, or null. */
  get retryMs(): number | null {
    return this.#retryMs;
  }

  #take(): SseMessage[] {
    const out = this.#pending;
    this.#pending = [];
    return out;
  }
}
