import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamAttempt, type Opened, type StreamBody } from '../../src/api/stream-attempt.js';
import { startTestServer, type Handler, type TestServer } from './helpers/test-server.js';

/** One dispatch handler per stream, against a real HTTP server over loopback. */

let server: TestServer | undefined;
let agent: Agent | undefined;

afterEach(async () => {
  await agent?.close();
  await server?.close();
  agent = undefined;
  server = undefined;
});

interface Started {
  attempt: StreamAttempt;
  opened: Promise<Opened>;
  done: () => number;
  /** Resolves when the attempt calls its done callback. */
  over: Promise<void>;
}

async function start(handler: Handler, errorLimit = 1024): Promise<Started> {
  server = await startTestServer(handler);
  agent = new Agent({ connections: 1 });
  let attempt!: StreamAttempt;
  let doneCalls = 0;
  let isOver!: () => void;
  const over = new Promise<void>((r) => (isOver = r));
  const opened = new Promise<Opened>((settle, fail) => {
    attempt = new StreamAttempt(settle, fail, errorLimit, () => {
      doneCalls++;
      isOver();
    });
  });
  agent.dispatch({ origin: server.origin, path: '/events', method: 'GET', headers: {} }, attempt);
  return { attempt, opened, done: () => doneCalls, over };
}

/** A body that records what it was given; `got(text)` resolves once it holds `text`. */
function recorder(): StreamBody & { text: string; ended: Promise<'end' | Error>; got(text: string): Promise<void> } {
  let settle!: (v: 'end' | Error) => void;
  const waiting: { text: string; resolve: () => void }[] = [];
  const r = {
    text: '',
    ended: new Promise<'end' | Error>((s) => (settle = s)),
    data: (chunk: Buffer) => {
      r.text += chunk.toString();
      for (const w of waiting.filter((x) => r.text.includes(x.text))) w.resolve();
    },
    end: () => settle('end'),
    error: (err: unknown) => settle(err as Error),
    got: (text: string) => (r.text.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ text, resolve }))),
  };
  return r;
}

/** A promise and its resolve, for a server handler to say what it did. */
function signal<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('StreamAttempt', () => {
  it('opens paused and delivers the body, chunk by chunk, only once a body is attached', async () => {
    const sent = signal();
    const { attempt, opened, done } = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('one;');
      res.end('two', () => sent.resolve());
    });
    const head = await opened;
    expect(head).toMatchObject({ ok: true, status: 200 });
    // The whole body has left the server before a body is attached: none of it is lost.
    await sent.promise;
    const body = recorder();
    attempt.attach(body);
    expect(await body.ended).toBe('end');
    expect(body.text).toBe('one;two');
    expect(done()).toBe(1);
  });

  it('settles an error status with the start of its body, bounded', async () => {
    const { opened, done } = await start((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(`{"error":"${'x'.repeat(5000)}"}`);
    }, 100);
    const head = await opened;
    expect(head.ok).toBe(false);
    if (head.ok) return;
    expect(head.error.status).toBe(503);
    expect(head.error.bodyText).toHaveLength(100);
    expect(head.error.bodyText.startsWith('{"error":"xxx')).toBe(true);
    expect(done()).toBe(1);
  });

  it('fails the opening when the connection is refused or cut before the head', async () => {
    const { opened } = await start((req) => void req.socket.destroy());
    await expect(opened).rejects.toThrow();
  });

  it('reports a body cut mid-way to the attached body', async () => {
    const response = signal<import('node:http').ServerResponse>();
    const { attempt, opened } = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('part');
      response.resolve(res);
    });
    await opened;
    const body = recorder();
    attempt.attach(body);
    // Cut once the first part has arrived.
    await body.got('part');
    (await response.promise).socket?.destroy();
    expect(await body.ended).toBeInstanceOf(Error);
    expect(body.text).toBe('part');
  });

  it('aborts with the given reason, before the request starts or while reading', async () => {
    const early = await start((_req, res) => void res.writeHead(200).write('x'));
    early.attempt.abort(new Error('stop early'));
    await expect(early.opened).rejects.toThrow('stop early');
    await agent!.close();
    await server!.close();

    const late = await start((_req, res) => void res.writeHead(200).write('x'));
    await late.opened;
    const body = recorder();
    late.attempt.attach(body);
    // While reading: the body has had its first chunk.
    await body.got('x');
    late.attempt.abort(new Error('stop late'));
    expect(await body.ended).toMatchObject({ message: 'stop late' });
  });

  it('follows its signals itself: hangs up with the caller\'s reason, and stops following once over', async () => {
    const caller = new AbortController();
    const closing = new AbortController();
    const s = await start((_req, res) => void res.writeHead(200).write('x'));
    s.attempt.watch(caller.signal, closing.signal);
    const open = s.attempt.opened(200, {}, { method: 'GET', path: '/events', attempt: 1, maxAttempts: 1 });
    expect(open.request.path).toBe('/events');
    await s.opened;
    const body = recorder();
    s.attempt.attach(body);
    await body.got('x');
    caller.abort(new Error('caller stops'));
    expect(await body.ended).toMatchObject({ message: 'caller stops' });
    await s.over;
    expect(s.done()).toBe(1);
    // Over: the client closing later tells it nothing (it no longer follows that signal).
    let told = 0;
    s.attempt.signalAborted = () => void told++;
    closing.abort(new Error('closed'));
    expect(told).toBe(0);
  });

  it('lets go of the raw header Buffers undici leaves on the controller once a stream opens', async () => {
    const s = await start((_req, res) => void res.writeHead(200, { 'content-type': 'text/event-stream', 'x-one': '1' }).write('x'));
    // The controller undici hands the attempt, seen as it arrives and after the head.
    let controller: { rawHeaders: unknown } | null = null;
    const onRequestStart = s.attempt.onRequestStart.bind(s.attempt);
    s.attempt.onRequestStart = (c) => {
      controller = c as unknown as { rawHeaders: unknown };
      onRequestStart(c);
    };
    const onResponseStart = s.attempt.onResponseStart.bind(s.attempt);
    let rawAtHead: unknown = null;
    s.attempt.onResponseStart = (c, status, headers) => {
      rawAtHead = (c as unknown as { rawHeaders: unknown }).rawHeaders;
      onResponseStart(c, status, headers);
    };
    const head = await s.opened;
    expect(head).toMatchObject({ ok: true, status: 200, headers: { 'x-one': '1' } });
    expect(Array.isArray(rawAtHead) && rawAtHead.length > 0).toBe(true);
    expect(controller!.rawHeaders).toBeNull();
    s.attempt.abort(new Error('done'));
  });

  it('finish lets the rest of the body end so the connection is kept, and hangs up after the grace', async () => {
    const response = signal<import('node:http').ServerResponse>();
    const kept = await start((req, res) => {
      if (req.url !== '/events') return void res.end('again');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('final');
      response.resolve(res);
    });
    await kept.opened;
    const body = recorder();
    kept.attempt.attach(body);
    await body.got('final');
    kept.attempt.finish(60_000);
    // The rest of the body comes after finish, then the response ends: the attempt is over.
    (await response.promise).end('tail');
    await kept.over;
    expect(kept.done()).toBe(1);
    // Nothing after finish reaches the body.
    expect(body.text).toBe('final');
    // The connection went back to the pool: the next request on the agent (one connection) reuses it.
    const again = await agent!.request({ origin: server!.origin, path: '/again', method: 'GET' });
    expect(await again.body.text()).toBe('again');
    expect(server!.connections()).toBe(1);
    await agent!.close();
    await server!.close();

    const hungUp = signal();
    const silent = await start((req, res) => {
      req.socket.on('close', () => hungUp.resolve());
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('final');
    });
    await silent.opened;
    const quiet = recorder();
    silent.attempt.attach(quiet);
    await quiet.got('final');
    // The server never ends the body: after the grace the client hangs up (the server sees the close).
    silent.attempt.finish(30);
    await hungUp.promise;
    await silent.over;
    expect(silent.done()).toBe(1);
  });
});
