import { describe, expect, it } from 'vitest';
import { SseEventTooLargeError } from '../../src/api/errors.js';
import { DEFAULT_MAX_EVENT_CHARS, SseDecoder, type SseMessage } from '../../src/api/sse-decoder.js';

const enc = new TextEncoder();

function decodeAll(chunks: Uint8Array[]): { events: SseMessage[]; decoder: SseDecoder } {
  const decoder = new SseDecoder();
  const events: SseMessage[] = [];
  for (const c of chunks) events.push(...decoder.push(c));
  events.push(...decoder.end());
  return { events, decoder };
}

/** Splits bytes at every given offset. */
function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let last = 0;
  for (const cut of cuts) {
    out.push(bytes.subarray(last, cut));
    last = cut;
  }
  out.push(bytes.subarray(last));
  return out;
}

describe('SseDecoder', () => {
  it('decodes id, event and JSON data lines into one message', () => {
    const { events } = decodeAll([enc.encode('id: 3\nevent: text.delta\ndata: {"text":"hi"}\n\n')]);
    expect(events).toEqual([{ id: '3', event: 'text.delta', data: '{"text":"hi"}' }]);
  });

  it('keeps a multi-byte character whole when every byte boundary splits it', () => {
    const text = 'data: {"text":"é—🧬 ok"}\n\n';
    const bytes = enc.encode(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const { events } = decodeAll(splitAt(bytes, [cut]));
      expect(events.map((e) => e.data)).toEqual(['{"text":"é—🧬 ok"}']);
    }
  });

  it('handles a stream delivered one byte at a time', () => {
    const bytes = enc.encode('id: 1\nevent: a\ndata: ü\n\nid: 2\nevent: b\ndata: 🧪\n\n');
    const chunks = Array.from(bytes, (b) => Uint8Array.of(b));
    const { events } = decodeAll(chunks);
    expect(events).toEqual([
      { id: '1', event: 'a', data: 'ü' },
      { id: '2', event: 'b', data: '🧪' },
    ]);
  });

  it('accepts CRLF and bare CR line ends, including a CRLF split across chunks', () => {
    const crlf = enc.encode('id: 1\r\nevent: x\r\ndata: one\r\n\r\n');
    const { events: a } = decodeAll(splitAt(crlf, [6, 7]));
    expect(a).toEqual([{ id: '1', event: 'x', data: 'one' }]);
    const { events: b } = decodeAll([enc.encode('id: 2\revent: y\rdata: two\r\r')]);
    expect(b).toEqual([{ id: '2', event: 'y', data: 'two' }]);
  });

  it('ignores comment lines such as keepalives', () => {
    const { events } = decodeAll([enc.encode(': keepalive\n\nid: 1\nevent: a\n: note\ndata: x\n\n')]);
    expect(events).toEqual([{ id: '1', event: 'a', data: 'x' }]);
  });

  it('records the retry hint and skips a block that only carries retry', () => {
    const { events, decoder } = decodeAll([enc.encode('retry: 1500\n\n')]);
    expect(events).toEqual([]);
    expect(decoder.retryMs).toBe(1500);
  });

  it('skips a block without data but still moves lastEventId', () => {
    const { events, decoder } = decodeAll([enc.encode('id: 1\nevent: a\ndata: x\n\nid: 7\nevent: ping\n\n')]);
    expect(events).toEqual([{ id: '1', event: 'a', data: 'x' }]);
    expect(decoder.lastEventId).toBe('7');
  });

  it('joins several data lines with newlines and defaults the event name to message', () => {
    const { events } = decodeAll([enc.encode('data: a\ndata: b\n\n')]);
    expect(events).toEqual([{ id: null, event: 'message', data: 'a\nb' }]);
  });

  it('passes unknown event names through', () => {
    const { events } = decodeAll([enc.encode('id: 4\nevent: tool.started\ndata: {"tool":"t"}\n\n')]);
    expect(events[0]?.event).toBe('tool.started');
  });

  it('drops an unfinished block at the end of the stream', () => {
    const { events } = decodeAll([enc.encode('id: 1\nevent: a\ndata: done\n\nid: 2\nevent: b\ndata: cut off')]);
    expect(events.map((e) => e.id)).toEqual(['1']);
  });

  it('strips a leading byte order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('data: x\n\n')]);
    const { events } = decodeAll(splitAt(bytes, [1, 2]));
    expect(events).toEqual([{ id: null, event: 'message', data: 'x' }]);
  });

  it('strips only one leading BOM: a second is data (EventSource spec)', () => {
    const bom = [0xef, 0xbb, 0xbf];
    for (const cuts of [[], [1], [2], [3], [4], [5]]) {
      const { events } = decodeAll(splitAt(new Uint8Array([...bom, ...bom, ...enc.encode('data: x\n\n')]), cuts));
      // The second BOM starts the first line's field name, so the line is not a data field.
      expect(events).toEqual([]);
    }
    const { events } = decodeAll([new Uint8Array([...bom, ...enc.encode('data: \ufeffx\n\n')])]);
    expect(events).toEqual([{ id: null, event: 'message', data: '\ufeffx' }]);
  });

  it('returns the events completed before an overflow, then fails', () => {
    const decoder = new SseDecoder({ maxEventChars: 100 });
    expect(decoder.push(enc.encode(`data: a\n\ndata: ${'x'.repeat(200)}`))).toEqual([{ id: null, event: 'message', data: 'a' }]);
    expect(() => decoder.throwIfFailed()).toThrow(SseEventTooLargeError);
    expect(() => decoder.end()).toThrow(SseEventTooLargeError);
  });

  it('fails with SseEventTooLargeError once one event outgrows the bound, and stays failed', () => {
    const decoder = new SseDecoder({ maxEventChars: 1000, request: { method: 'GET', path: '/runs/r1/events' } });
    expect(decoder.push(enc.encode(`data: ${'a'.repeat(900)}\n\n`))).toHaveLength(1);
    // Many small data lines of one event count together, as does an unfinished line.
    expect(() => {
      for (let i = 0; i < 20; i++) decoder.push(enc.encode(`data: ${'b'.repeat(90)}\n`));
    }).toThrow(SseEventTooLargeError);
    let err: unknown;
    try {
      decoder.push(enc.encode('\n'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SseEventTooLargeError);
    expect((err as SseEventTooLargeError).code).toBe('RESQ_SSE_EVENT_TOO_LARGE');
    expect((err as Error).message).toBe(
      "unexpected response to GET /runs/r1/events: an event is larger than 1000 characters (the client's maxEventChars)",
    );
    const line = new SseDecoder({ maxEventChars: 1000 });
    expect(() => line.push(enc.encode(`data: ${'c'.repeat(2000)}`))).toThrow(SseEventTooLargeError);
  });

  it('bounds memory by default: a 64 MiB line fails at about 4 Mi characters', () => {
    const decoder = new SseDecoder();
    const chunk = enc.encode('x'.repeat(64 * 1024));
    let fed = 0;
    expect(() => {
      decoder.push(enc.encode('data: '));
      for (; fed < 1024; fed++) decoder.push(chunk);
    }).toThrow(SseEventTooLargeError);
    // The 64th 64 KiB chunk takes the line past 4 Mi characters.
    expect(fed).toBe(DEFAULT_MAX_EVENT_CHARS / (64 * 1024) - 1);
  });

  it('holds no parser or text decoder of its own between blocks, only mid-block or mid-character', () => {
    const decoder = new SseDecoder();
    expect(decoder.push(enc.encode('id: 1\ndata: a\n\n'))).toEqual([{ id: '1', event: 'message', data: 'a' }]);
    expect(decoder.holdsOwnState).toBe(false);
    expect(decoder.push(enc.encode('id: 2\ndata: b'))).toEqual([]);
    expect(decoder.holdsOwnState).toBe(true);
    expect(decoder.push(enc.encode('c\n\nid: 3\ndata: d\n\n'))).toEqual([{ id: '2', event: 'message', data: 'bc' }, { id: '3', event: 'message', data: 'd' }]);
    expect(decoder.holdsOwnState).toBe(false);
    const bytes = enc.encode('data: é\n\n');
    expect(decoder.push(bytes.subarray(0, 7))).toEqual([]);
    expect(decoder.holdsOwnState).toBe(true);
    expect(decoder.push(bytes.subarray(7))).toEqual([{ id: null, event: 'message', data: 'é' }]);
    expect(decoder.lastEventId).toBe('3');
  });

  it('gives each of many interleaved streams exactly its own events, however their chunks are cut', () => {
    // A small deterministic generator: the same cuts on every run.
    let seed = 7;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const texts = Array.from({ length: 12 }, (_, s) => {
      const end = s % 3 === 0 ? '\r\n' : s % 3 === 1 ? '\r' : '\n';
      let t = s % 4 === 0 ? '\ufeff' : '';
      for (let i = 0; i < 8; i++) t += `id: ${s}-${i}${end}${i % 3 === 0 ? `retry: ${s * 10 + i}${end}` : ''}event: e${i}${end}data: ${s}é🧬${i}${end}data: more${end}${end}`;
      // Some streams LF-only: those are framed by the shared parser between blocks.
      return s % 2 === 0 ? t.replaceAll('\r\n', '\n').replaceAll('\r', '\n') : t;
    });
    const alone = texts.map((t) => decodeAll([enc.encode(t)]));
    const decoders = texts.map(() => new SseDecoder());
    const got: SseMessage[][] = texts.map(() => []);
    const chunks = texts.map((t) => {
      const bytes = enc.encode(t);
      const cuts: number[] = [];
      for (let at = next(40) + 1; at < bytes.length; at += next(60) + 1) cuts.push(at);
      // Half the streams also cut right after each block, the way a server writes them.
      return splitAt(bytes, cuts);
    });
    for (let round = 0; chunks.some((c) => c.length > 0); round++) {
      for (let s = 0; s < texts.length; s++) {
        const c = chunks[s]!.shift();
        if (c) got[s]!.push(...decoders[s]!.push(c));
      }
    }
    for (let s = 0; s < texts.length; s++) {
      got[s]!.push(...decoders[s]!.end());
      expect(got[s]).toEqual(alone[s]!.events);
      expect(got[s]).toHaveLength(8);
      expect(decoders[s]!.lastEventId).toBe(alone[s]!.decoder.lastEventId);
      expect(decoders[s]!.retryMs).toBe(s * 10 + 6);
    }
  });

  it('keeps streams framed by the shared parser apart: blocks sent whole, an overflow failing only its own stream', () => {
    const a = new SseDecoder({ maxEventChars: 100 });
    const b = new SseDecoder({ maxEventChars: 100 });
    const c = new SseDecoder({ maxEventChars: 100 });
    for (const d of [a, b, c]) expect(d.push(enc.encode('data: start\n\n'))).toHaveLength(1);
    // b is mid-block when a overflows on the shared parser; c goes on there after it.
    expect(b.push(enc.encode('id: 9\ndata: half'))).toEqual([]);
    expect(() => a.push(enc.encode(`data: ${'x'.repeat(60)}\ndata: ${'x'.repeat(60)}\n\n`))).toThrow(SseEventTooLargeError);
    // A BOM opening a later chunk is data, not a stream start (the parser after the overflow included): its line is no data field.
    expect(c.push(enc.encode('\ufeffdata: y\n\n'))).toEqual([]);
    expect(c.push(enc.encode('id: 4\ndata: on\n\n'))).toEqual([{ id: '4', event: 'message', data: 'on' }]);
    expect(b.push(enc.encode('\n\n'))).toEqual([{ id: '9', event: 'message', data: 'half' }]);
    expect(c.push(enc.encode('data: z\n\n'))).toEqual([{ id: null, event: 'message', data: 'z' }]);
    expect(() => a.end()).toThrow(SseEventTooLargeError);
    expect(c.lastEventId).toBe('4');
  });
});
