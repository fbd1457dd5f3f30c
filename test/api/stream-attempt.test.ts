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
}

async function start(handler: Handler, errorLimit = 1024): Promise<Started> {
  server = await startTestServer(handler);
  agent = new Agent({ connections: 1 });
  let attempt!: StreamAttempt;
  let doneCalls = 0;
  const opened = new Promise<Opened>((settle, fail) => {
    attempt = new StreamAttempt(settle, fail, errorLimit, () => doneCalls++);
  });
  agent.dispatch({ origin: server.origin, path: '/events', method: 'GET', headers: {} }, attempt);
  return { attempt, opened, done: () => doneCalls };
}

/** A body that records what it was given. */
function recorder(): StreamBody & { text: string; ended: Promise<'end' | Error> } {
  let settle!: (v: 'end' | Error) => void;
  const r = {
    text: '',
    ended: new Promise<'end' | Error>((s) => (settle = s)),
    data: (chunk: Buffer) => void (r.text += chunk.toString()),
    end: () => settle('end'),
    error: (err: unknown) => settle(err as Error),
  };
  return r;
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('StreamAttempt', () => {
  it('opens paused and delivers the body, chunk by chunk, only once a body is attached', async () => {
    const { attempt, opened, done } = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('one;');
      setTimeout(() => res.end('two'), 20);
    });
    const head = await opened;
    expect(head).toMatchObject({ ok: true, status: 200 });
    await delay(60);
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
    const { attempt, opened } = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('part');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    await opened;
    const body = recorder();
    attempt.attach(body);
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
    await delay(20);
    late.attempt.abort(new Error('stop late'));
    expect(await body.ended).toMatchObject({ message: 'stop late' });
  });

  it('finish lets the rest of the body end so the connection is kept, and hangs up after the grace', async () => {
    let closed = false;
    const kept = await start((req, res) => {
      req.socket.on('close', () => (closed = true));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('final');
      setTimeout(() => res.end('tail'), 30);
    });
    await kept.opened;
    const body = recorder();
    kept.attempt.attach(body);
    await delay(10);
    kept.attempt.finish(1000);
    await delay(80);
    expect(kept.done()).toBe(1);
    expect(closed).toBe(false);
    // Nothing after finish reaches the body.
    expect(body.text).toBe('final');
    await agent!.close();
    await server!.close();

    let hungUp = false;
    const silent = await start((req, res) => {
      req.socket.on('close', () => (hungUp = true));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('final');
    });
    await silent.opened;
    silent.attempt.attach(recorder());
    await delay(10);
    silent.attempt.finish(30);
    await delay(150);
    expect(hungUp).toBe(true);
    expect(silent.done()).toBe(1);
  });
});
