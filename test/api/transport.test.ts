import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthError,
  BadRequestError,
  ConflictError,
  NetworkError,
  NotFoundError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
} from '../../src/api/errors.js';
import type { ClientLogEvent } from '../../src/api/log-events.js';
import { resolveOptions, type ClientOptions } from '../../src/api/options.js';
import { Transport } from '../../src/api/transport.js';
import { KEY, recordingSleep, sendJson, startTestServer, type Handler, type TestServer } from './helpers/test-server.js';

let server: TestServer | undefined;
let transport: Transport | undefined;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  transport = undefined;
  server = undefined;
});

async function setup(handler: Handler, opts: Partial<ClientOptions> = {}) {
  server = await startTestServer(handler);
  const slept = recordingSleep();
  const logs: ClientLogEvent[] = [];
  transport = new Transport(
    resolveOptions({
      baseUrl: server.baseUrl,
      apiKey: KEY,
      sleep: slept.sleep,
      random: () => 0.5,
      onLog: (e) => logs.push(e),
      retry: { baseDelayMs: 8, maxAttempts: 4 },
      ...opts,
    }),
  );
  return { server, transport, delays: slept.delays, logs };
}

/** Answers each request with the next scripted status (the last one repeats). */
function scripted(steps: ((res: Parameters<Handler>[1]) => void)[]): Handler {
  let i = 0;
  return (_req, res) => {
    const step = steps[Math.min(i++, steps.length - 1)]!;
    step(res);
  };
}

const ok = (res: Parameters<Handler>[1]) => sendJson(res, 200, { ok: true });
const status = (code: number, body: unknown = { error: { code: 'x', message: `status ${code}` } }, headers: Record<string, string> = {}) =>
  (res: Parameters<Handler>[1]) => sendJson(res, code, body, headers);
const drop = (res: Parameters<Handler>[1]) => res.socket?.destroy();

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('Transport', () => {
  it('builds the request: base URL join, bearer key, JSON, Accept, Idempotency-Key', async () => {
    const { server, transport } = await setup(scripted([ok]));
    const res = await transport.sendJson({
      method: 'POST',
      target: '/runs',
      query: { a: 1 },
      json: { input: 'q' },
      idempotencyKey: 'key-1',
      retryClass: 'idempotent',
    });
    expect(res.data).toEqual({ ok: true });
    const seen = server.requests[0]!;
    expect(seen.url).toBe('/api/v1/runs?a=1');
    expect(seen.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers.accept).toBe('application/json');
    expect(seen.headers['idempotency-key']).toBe('key-1');
    expect(JSON.parse(seen.body)).toEqual({ input: 'q' });
  });

  it('retries 5xx with backoff and logs each retry', async () => {
    const { server, transport, delays, logs } = await setup(scripted([status(503), status(500), ok]));
    await transport.sendJson({ method: 'GET', target: '/runs/r1', retryClass: 'idempotent' });
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([4, 8]);
    expect(logs.map((l) => l.type === 'retry' && [l.attempt, l.maxAttempts, l.reason])).toEqual([
      [1, 4, 'HTTP 503'],
      [2, 4, 'HTTP 500'],
    ]);
  });

  it('honours Retry-After in seconds and as an HTTP date, capped', async () => {
    const date = new Date(Date.now() + 30_000).toUTCString();
    const { transport, delays } = await setup(
      scripted([status(429, {}, { 'retry-after': '2' }), status(503, {}, { 'retry-after': date }), status(429, {}, { 'retry-after': '99999' }), ok]),
      { retry: { maxAttempts: 5, maxRetryAfterMs: 45_000 } },
    );
    await transport.sendJson({ method: 'GET', target: '/threads', retryClass: 'idempotent' });
    expect(delays[0]).toBe(2000);
    expect(delays[1]).toBeGreaterThan(27_000);
    expect(delays[1]).toBeLessThanOrEqual(30_000);
    expect(delays[2]).toBe(45_000);
  });

  it.each([
    [400, BadRequestError],
    [401, AuthError],
    [403, AuthError],
    [404, NotFoundError],
    [422, BadRequestError],
  ])('does not retry %i and throws its class at once', async (code, Cls) => {
    const { server, transport, delays } = await setup(scripted([status(code)]));
    const err = await failure(transport.sendJson({ method: 'POST', target: '/runs', idempotencyKey: 'k', retryClass: 'idempotent' }));
    expect(err).toBeInstanceOf(Cls);
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
    expect((err as Error).message).toBe(`HTTP ${code} POST /runs: status ${code} [x]`);
  });

  it('gives up after maxAttempts with the attempt in the message', async () => {
    const { server, transport } = await setup(scripted([status(502, 'upstream down')]), { retry: { maxAttempts: 3 } });
    const err = await failure(transport.sendJson({ method: 'GET', target: '/runs/r1', retryClass: 'idempotent' }));
    expect(err).toBeInstanceOf(ServerError);
    expect((err as Error).message).toBe('HTTP 502 GET /runs/r1 (attempt 3/3): upstream down');
    expect(server.requests).toHaveLength(3);
  });

  it('retries a dropped connection for an idempotent request', async () => {
    const { server, transport } = await setup(scripted([drop, drop, ok]));
    const res = await transport.sendJson({ method: 'POST', target: '/runs', idempotencyKey: 'k', retryClass: 'idempotent' });
    expect(res.data).toEqual({ ok: true });
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry an unsafe request that may have reached the service', async () => {
    for (const step of [drop, status(500), status(503, {}, { 'retry-after': '0' })]) {
      const { server, transport } = await setup(scripted([step, ok]));
      const err = await failure(transport.sendJson({ method: 'POST', target: '/models/m/runs', retryClass: 'unsafe' }));
      expect(err instanceof NetworkError || err instanceof ServerError).toBe(true);
      expect(server.requests).toHaveLength(1);
      await transport.close();
      await server.close();
    }
  });

  it('retries an unsafe request on 429', async () => {
    const { server, transport } = await setup(scripted([status(429, {}, { 'retry-after': '0' }), ok]));
    await transport.sendJson({ method: 'POST', target: '/models/m/runs', retryClass: 'unsafe' });
    expect(server.requests).toHaveLength(2);
  });

  it('retries an unsafe request whose connection was refused, then reports a connect-phase NetworkError', async () => {
    const { server: s } = await setup(scripted([ok]));
    const deadBase = s.baseUrl;
    await s.close();
    const logs: ClientLogEvent[] = [];
    const t = new Transport(resolveOptions({ baseUrl: deadBase, apiKey: KEY, sleep: async () => {}, onLog: (e) => logs.push(e), retry: { maxAttempts: 3 } }));
    const err = await failure(t.sendJson({ method: 'POST', target: '/models/m/runs', retryClass: 'unsafe' }));
    await t.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ phase: 'connect', causeCode: 'ECONNREFUSED', attempt: 3 });
    expect(logs).toHaveLength(2);
  });

  it('waits out 409 thread_busy on its own budget', async () => {
    const busy = status(409, { error: { code: 'thread_busy', message: 'thread has a run going' } });
    const { server, transport, delays } = await setup(scripted([busy, busy, ok]), { retry: { threadBusyDelayMs: 1234 } });
    await transport.sendJson({ method: 'POST', target: '/runs', idempotencyKey: 'k', retryClass: 'idempotent', waitOnThreadBusy: true });
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([1234, 1234]);
  });

  it('gives up on a busy thread with a ConflictError that says so', async () => {
    const busy = status(409, { error: { code: 'thread_busy', message: 'busy' } });
    const { server, transport } = await setup(scripted([busy]), { retry: { threadBusyMaxAttempts: 3, maxAttempts: 2 } });
    const err = await failure(transport.sendJson({ method: 'POST', target: '/runs', idempotencyKey: 'k', retryClass: 'idempotent', waitOnThreadBusy: true }));
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).threadBusy).toBe(true);
    expect((err as Error).message).toBe('HTTP 409 POST /runs (thread busy 3/3): busy [thread_busy]');
    expect(server.requests).toHaveLength(3);
  });

  it('does not wait on a busy thread when the request does not ask to', async () => {
    const { server, transport } = await setup(scripted([status(409, { code: 'thread_busy' })]));
    await failure(transport.sendJson({ method: 'DELETE', target: '/threads/t', retryClass: 'idempotent' }));
    expect(server.requests).toHaveLength(1);
  });

  it('rejects with the abort reason and never retries after an abort', async () => {
    const controller = new AbortController();
    const reason = new Error('user stop');
    server = await startTestServer(scripted([status(503)]));
    transport = new Transport(
      resolveOptions({
        baseUrl: server.baseUrl,
        apiKey: KEY,
        sleep: async () => {
          controller.abort(reason);
        },
      }),
    );
    const err = await failure(transport.sendJson({ method: 'GET', target: '/runs/r', retryClass: 'idempotent', signal: controller.signal }));
    expect(err).toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('aborts a request in flight', async () => {
    const { server, transport } = await setup(() => {});
    const controller = new AbortController();
    const p = transport.sendJson({ method: 'GET', target: '/runs/r', retryClass: 'idempotent', signal: controller.signal });
    await waitFor(() => server.requests.length === 1);
    controller.abort(new Error('enough'));
    await expect(p).rejects.toThrow('enough');
  });

  it('times out waiting for headers and reports a TimeoutError', async () => {
    const { server, transport } = await setup(() => {}, { requestTimeoutMs: 150, retry: { maxAttempts: 2 } });
    const err = await failure(transport.sendJson({ method: 'GET', target: '/runs/r', retryClass: 'idempotent' }));
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toBe('timeout GET /runs/r (attempt 2/2): no response headers in time');
    expect(server.requests).toHaveLength(2);
  });

  it('throws ResponseShapeError for a 2xx body that is not JSON, without retrying', async () => {
    const { server, transport } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>');
    });
    const err = await failure(transport.sendJson({ method: 'GET', target: '/runs/r', retryClass: 'idempotent' }));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(server.requests).toHaveLength(1);
  });

  it('does not follow a redirect on an API request', async () => {
    const { server, transport } = await setup((_req, res) => {
      res.writeHead(302, { location: 'https://elsewhere.example/' });
      res.end();
    });
    const err = await failure(transport.sendJson({ method: 'GET', target: '/runs/r', retryClass: 'idempotent' }));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(302);
    expect(server.requests).toHaveLength(1);
  });

  it('returns the socket to the pool after successes and error responses (one connection serves all)', async () => {
    let n = 0;
    const { server, transport } = await setup((_req, res) => {
      n += 1;
      if (n % 3 === 0) sendJson(res, 404, { error: { message: 'x'.repeat(5000) } });
      else sendJson(res, 200, { n });
    }, { connections: 1, requestTimeoutMs: 2000 });
    for (let i = 0; i < 12; i++) {
      await transport.sendJson({ method: 'GET', target: `/runs/${i}`, retryClass: 'idempotent' }).catch(() => {});
    }
    expect(server.requests).toHaveLength(12);
    expect(server.connections()).toBe(1);
  });

  it('keeps long-lived responses off the connections of short requests', async () => {
    const { server, transport } = await setup((req, res) => {
      if (req.url?.endsWith('/events')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': open\n\n');
        return;
      }
      sendJson(res, 200, { ok: true });
    }, { requestTimeoutMs: 2000 });
    const post = () => transport.sendJson({ method: 'POST', target: '/runs', json: {}, retryClass: 'unsafe' });
    await post();
    // Until its idle connection is free again for the next request.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    const stream = await transport.openStream({ method: 'GET', target: '/runs/r1/events', retryClass: 'idempotent' });
    await post();
    // The stream did not take the first request's idle connection, so the next one found it.
    expect(server.requests.map((r) => r.connection)).toEqual([0, 1, 0]);
    stream.abort(new Error('done'));
  });

  it('a request or stream whose signal is already aborted rejects with its reason and sends nothing', async () => {
    const { server, transport } = await setup((_req, res) => sendJson(res, 200, { ok: true }));
    const reason = new Error('stopped before sending');
    const signal = AbortSignal.abort(reason);
    await expect(transport.sendJson({ method: 'POST', target: '/runs', json: {}, retryClass: 'unsafe', signal })).rejects.toBe(reason);
    await expect(transport.openStream({ method: 'GET', target: '/runs/r1/events', retryClass: 'idempotent', signal })).rejects.toBe(reason);
    // Nothing half-started is left behind: the next request goes out as usual.
    await transport.sendJson({ method: 'GET', target: '/runs/r1', retryClass: 'idempotent' });
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/runs/r1']);
  });

  it('rejects requests in flight when closed', async () => {
    const { server, transport } = await setup(() => {});
    const caught = failure(transport.sendJson({ method: 'GET', target: '/runs/r', retryClass: 'idempotent' }));
    await waitFor(() => server.requests.length === 1);
    await transport.close();
    const err = await caught;
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ phase: 'closed', retryable: false });
  });

  it('never puts the key in an error, its properties or a log event', async () => {
    const echo: Handler = (req, res) => {
      const auth = String(req.headers.authorization);
      if (req.url?.includes('drop')) return void res.socket?.destroy();
      sendJson(res, req.url?.includes('bad') ? 401 : 500, { error: { code: auth, message: `you sent ${auth}` } }, { 'x-debug': auth });
    };
    const { transport, logs } = await setup(echo, { retry: { maxAttempts: 2 } });
    const errors = [
      await failure(transport.sendJson({ method: 'GET', target: '/bad', retryClass: 'idempotent' })),
      await failure(transport.sendJson({ method: 'GET', target: '/server', retryClass: 'idempotent' })),
      await failure(transport.sendJson({ method: 'GET', target: '/drop', retryClass: 'idempotent' })),
    ];
    for (const err of errors) {
      expect(err).toBeInstanceOf(Error);
      expect(inspect(err, { depth: 10, showHidden: true })).not.toContain(KEY);
      expect(JSON.stringify(err)).not.toContain(KEY);
    }
    expect((errors[0] as Error).message).toContain('[redacted]');
    expect(logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(logs)).not.toContain(KEY);
  });
});

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!cond()) throw new Error('condition not met');
}
