import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError, ResponseShapeError, SseEventTooLargeError, TimeoutError } from '../../src/api/errors.js';
import { resolveOptions } from '../../src/api/options.js';
import type { RunEvent } from '../../src/api/run-events.js';
import { runEventStream, type StreamProgress } from '../../src/api/sse-stream.js';
import { Transport } from '../../src/api/transport.js';
import { openSse, sseEvent } from './helpers/sse.js';
import { KEY, runBody, sendJson, startTestServer, type Handler, type TestServer } from './helpers/test-server.js';

let server: TestServer | undefined;
let transport: Transport | undefined;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  transport = undefined;
  server = undefined;
});

async function setup(handler: Handler) {
  server = await startTestServer(handler);
  transport = new Transport(resolveOptions({ baseUrl: server.baseUrl, apiKey: KEY, sleep: async () => {}, retry: { maxAttempts: 3 } }));
  return { server, transport };
}

async function collect(gen: AsyncGenerator<RunEvent>): Promise<RunEvent[]> {
  const out: RunEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('runEventStream', () => {
  it('yields events in order and stops at the final run event, closing the connection', async () => {
    let closed = false;
    const { server, transport } = await setup((req, res) => {
      req.socket.on('close', () => (closed = true));
      openSse(res);
      res.write(sseEvent(4, 'text.delta', { text: 'a' }));
      res.write(sseEvent(5, 'tool.started', { tool: 't' }));
      res.write(sseEvent(6, 'run', runBody('r1', 'completed')));
      // The server keeps the stream open: the client must stop reading and hang up by itself.
    });
    const progress: StreamProgress = { lastEventId: null, retryMs: null, events: 0 };
    const events = await collect(runEventStream(transport, { runId: 'r1', after: 3, idleTimeoutMs: 5000, progress }));
    expect(events.map((e) => [e.id, e.event])).toEqual([
      [4, 'text.delta'],
      [5, 'tool.started'],
      [6, 'run'],
    ]);
    expect(progress).toEqual({ lastEventId: 6, retryMs: null, events: 3 });
    const seen = server.requests[0]!;
    expect(seen.url).toBe('/api/v1/runs/r1/events?after=3');
    expect(seen.headers.accept).toBe('text/event-stream');
    expect(seen.headers.authorization).toBe(`Bearer ${KEY}`);
    await waitFor(() => closed);
  });

  it("with parse: 'run' parses only the run events' data; the others keep their raw text", async () => {
    const { transport } = await setup((_req, res) => {
      openSse(res);
      res.write(sseEvent(4, 'text.delta', { text: 'a' }));
      res.write(sseEvent(5, 'run', runBody('r1', 'completed')));
    });
    const events = await collect(runEventStream(transport, { runId: 'r1', idleTimeoutMs: 5000, parse: 'run' }));
    expect(events[0]).toEqual({ id: 4, event: 'text.delta', data: JSON.stringify({ text: 'a' }) });
    expect(events[1]).toMatchObject({ id: 5, event: 'run', data: { id: 'r1', status: 'completed' } });
  });

  it('lets the stream end after the final run event instead of hanging up, so its connection can be reused', async () => {
    let closedBeforeEnd: boolean | null = null;
    let closed = false;
    const { server, transport } = await setup((req, res) => {
      req.socket.on('close', () => (closed = true));
      openSse(res);
      res.write(sseEvent(1, 'run', runBody('r1', 'completed')));
      // The end of the body comes in a later write than the final event.
      setTimeout(() => {
        closedBeforeEnd = closed;
        res.end();
      }, 50);
    });
    const events = await collect(runEventStream(transport, { runId: 'r1', idleTimeoutMs: 5000 }));
    expect(events.map((e) => e.event)).toEqual(['run']);
    await waitFor(() => closedBeforeEnd !== null);
    expect(closedBeforeEnd).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('passes a running run event through and ends when the server ends the stream', async () => {
    const { transport } = await setup((_req, res) => {
      openSse(res);
      res.write('retry: 2500\n\n');
      res.write(sseEvent(1, 'run', runBody('r1', 'running')));
      res.end(': bye\n\nid: 9\n\n');
    });
    const progress: StreamProgress = { lastEventId: null, retryMs: null, events: 0 };
    const events = await collect(runEventStream(transport, { runId: 'r1', idleTimeoutMs: 5000, progress }));
    expect(events.map((e) => e.event)).toEqual(['run']);
    expect(progress).toEqual({ lastEventId: 9, retryMs: 2500, events: 1 });
  });

  it('omits after when not given', async () => {
    const { server, transport } = await setup((_req, res) => {
      openSse(res);
      res.end();
    });
    await collect(runEventStream(transport, { runId: 'r1', idleTimeoutMs: 5000 }));
    expect(server.requests[0]!.url).toBe('/api/v1/runs/r1/events');
  });

  it('decodes a multi-byte character split across TCP writes', async () => {
    const { transport } = await setup(async (_req, res) => {
      openSse(res);
      const bytes = Buffer.from(sseEvent(1, 'text.delta', { text: 'ß🧬' }), 'utf8');
      const cut = bytes.indexOf(0xf0) + 2;
      res.write(bytes.subarray(0, cut));
      await delay(20);
      res.end(bytes.subarray(cut));
    });
    const events = await collect(runEventStream(transport, { runId: 'r1', idleTimeoutMs: 5000 }));
    expect(events[0]?.data).toEqual({ text: 'ß🧬' });
  });

  it('hangs up when the consumer stops early', async () => {
    let closed = false;
    const { transport } = await setup((req, res) => {
      req.socket.on('close', () => (closed = true));
      openSse(res);
      res.write(sseEvent(1, 'text.delta', { text: 'a' }) + sseEvent(2, 'text.delta', { text: 'b' }));
    });
    for await (const e of runEventStream(transport, { runId: 'r1', idleTimeoutMs: 5000 })) {
      expect(e.id).toBe(1);
      break;
    }
    await waitFor(() => closed);
  });

  it('reports a silent stream as a TimeoutError after the idle timeout', async () => {
    const { transport } = await setup((_req, res) => {
      openSse(res);
      res.write(sseEvent(1, 'text.delta', { text: 'a' }));
    });
    const seen: RunEvent[] = [];
    const err = await collectInto(runEventStream(transport, { runId: 'r1', idleTimeoutMs: 200 }), seen);
    expect(seen).toHaveLength(1);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toMatch(/^timeout GET \/runs\/r1\/events: /);
  });

  it('reports a stream cut mid-way as a NetworkError', async () => {
    const { transport } = await setup(async (_req, res) => {
      openSse(res);
      res.write(sseEvent(1, 'text.delta', { text: 'a' }));
      await delay(20);
      res.socket?.destroy();
    });
    const err = await collectInto(runEventStream(transport, { runId: 'r1', idleTimeoutMs: 5000 }), []);
    expect(err).toBeInstanceOf(NetworkError);
  });

  it('retries opening the stream like any GET', async () => {
    let n = 0;
    const { server, transport } = await setup((_req, res) => {
      if (n++ === 0) return sendJson(res, 503, { error: { message: 'warming up' } });
      openSse(res);
      res.end(sseEvent(1, 'run', runBody('r1', 'failed')));
    });
    const events = await collect(runEventStream(transport, { runId: 'r1', idleTimeoutMs: 5000 }));
    expect(events).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('refuses a response that is not an event stream', async () => {
    const { transport } = await setup((_req, res) => sendJson(res, 200, runBody('r1')));
    const err = await collectInto(runEventStream(transport, { runId: 'r1', idleTimeoutMs: 5000 }), []);
    expect(err).toBeInstanceOf(ResponseShapeError);
  });

  it('fails the stream with SseEventTooLargeError past maxEventChars, after the events before it', async () => {
    let closed = false;
    const { transport } = await setup((req, res) => {
      req.socket.on('close', () => (closed = true));
      openSse(res);
      res.write(sseEvent(1, 'text.delta', { text: 'a' }));
      res.write(`data: ${'x'.repeat(10_000)}`);
    });
    const events: RunEvent[] = [];
    const err = await collectInto(runEventStream(transport, { runId: 'r1', idleTimeoutMs: 5000, maxEventChars: 4096 }), events);
    expect(events.map((e) => e.id)).toEqual([1]);
    expect(err).toBeInstanceOf(SseEventTooLargeError);
    expect((err as Error).message).toBe("unexpected response to GET /runs/r1/events: an event is larger than 4096 characters (the client's maxEventChars)");
    await waitFor(() => closed);
  });

  it('rejects with the abort reason when aborted mid-stream', async () => {
    const { transport } = await setup((_req, res) => {
      openSse(res);
      res.write(sseEvent(1, 'text.delta', { text: 'a' }));
    });
    const controller = new AbortController();
    const reason = new Error('stop following');
    const gen = runEventStream(transport, { runId: 'r1', idleTimeoutMs: 5000, signal: controller.signal });
    const first = await gen.next();
    expect(first.value).toMatchObject({ id: 1 });
    const pending = gen.next();
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('ends streams in flight when the transport closes', async () => {
    const { transport } = await setup((_req, res) => {
      openSse(res);
      res.write(sseEvent(1, 'text.delta', { text: 'a' }));
    });
    const gen = runEventStream(transport, { runId: 'r1', idleTimeoutMs: 5000 });
    await gen.next();
    const pending = expect(gen.next()).rejects.toMatchObject({ code: 'RESQ_NETWORK', phase: 'closed' });
    await transport.close();
    await pending;
  });
});

async function collectInto(gen: AsyncGenerator<RunEvent>, into: RunEvent[]): Promise<unknown> {
  try {
    for await (const e of gen) into.push(e);
  } catch (err) {
    return err;
  }
  throw new Error('expected the stream to fail');
}

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await delay(5);
  if (!cond()) throw new Error('condition not met');
}
