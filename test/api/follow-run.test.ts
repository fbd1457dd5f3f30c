import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/api/client.js';
import { NotFoundError } from '../../src/api/errors.js';
import type { ClientLogEvent } from '../../src/api/log-events.js';
import type { ClientOptions } from '../../src/api/options.js';
import type { RunEvent } from '../../src/api/run-events.js';
import { openSse, sseEvent } from './helpers/sse.js';
import { KEY, recordingSleep, runBody, sendJson, startTestServer, type Handler, type TestServer } from './helpers/test-server.js';

let server: TestServer | undefined;
let client: ServiceClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function setup(handler: Handler, opts: Partial<ClientOptions> = {}) {
  server = await startTestServer(handler);
  const slept = recordingSleep();
  const logs: ClientLogEvent[] = [];
  client = new ServiceClient({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    sleep: slept.sleep,
    random: () => 0.5,
    onLog: (e) => logs.push(e),
    pollIntervalMs: 3000,
    retry: { maxAttempts: 1, baseDelayMs: 8 },
    ...opts,
  });
  return { server, client, delays: slept.delays, logs };
}

const isEvents = (url: string | undefined) => (url ?? '').includes('/events');

describe('followRun', () => {
  it('reconnects with after = the last event id and resolves with the final run event', async () => {
    let connection = 0;
    const { server, client, logs } = await setup((req, res) => {
      if (!isEvents(req.url)) return sendJson(res, 500, {});
      openSse(res);
      connection += 1;
      if (connection === 1) {
        res.end(sseEvent(0, 'text.delta', { text: 'a' }) + sseEvent(1, 'tool.started', { tool: 'x' }));
      } else if (connection === 2) {
        res.end(sseEvent(2, 'run', runBody('r1', 'running')) + sseEvent(3, 'text.delta', { text: 'b' }));
      } else {
        res.write(sseEvent(4, 'run', runBody('r1', 'completed', { output: { text: 'ab', tool_results: [] } })));
      }
    });
    const events: RunEvent[] = [];
    const run = await client.followRun('r1', { onEvent: (e) => events.push(e) });
    expect(run).toMatchObject({ id: 'r1', status: 'completed', output: { text: 'ab' } });
    expect(events.map((e) => e.event)).toEqual(['text.delta', 'tool.started', 'run', 'text.delta', 'run']);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/runs/r1/events',
      '/api/v1/runs/r1/events?after=1',
      '/api/v1/runs/r1/events?after=3',
    ]);
    expect(logs.filter((l) => l.type === 'stream-reconnect').map((l) => l.type === 'stream-reconnect' && l.after)).toEqual([1, 3]);
  });

  it('with readFirst, reads a run that ended meanwhile and opens no stream', async () => {
    const { server, client } = await setup((req, res) => {
      if (isEvents(req.url)) return void openSse(res);
      sendJson(res, 200, runBody('r1', 'completed', { output: { text: 'done', tool_results: [] } }));
    });
    const run = await client.followRun('r1', { readFirst: true });
    expect(run).toMatchObject({ status: 'completed', output: { text: 'done' } });
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/runs/r1']);
  });

  it('with readFirst, streams a run that is still going', async () => {
    const { server, client } = await setup((req, res) => {
      if (!isEvents(req.url)) return sendJson(res, 200, runBody('r1', 'running'));
      openSse(res);
      res.write(sseEvent(0, 'run', runBody('r1', 'failed')));
    });
    const run = await client.followRun('r1', { readFirst: true });
    expect(run.status).toBe('failed');
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/runs/r1', '/api/v1/runs/r1/events']);
  });

  it('starts from the given after', async () => {
    const { server, client } = await setup((_req, res) => {
      openSse(res);
      res.end(sseEvent(8, 'run', runBody('r1', 'requires_action', { required_action: { tool: 'confirm_scope', input: {} } })));
    });
    const run = await client.followRun('r1', { after: 7 });
    expect(run.required_action?.tool).toBe('confirm_scope');
    expect(server.requests[0]!.url).toBe('/api/v1/runs/r1/events?after=7');
  });

  it('falls back to polling after three connections without a new event', async () => {
    let reads = 0;
    const { server, client, logs, delays } = await setup((req, res) => {
      if (isEvents(req.url)) {
        openSse(res);
        return void res.end(': nothing\n\n');
      }
      reads += 1;
      sendJson(res, 200, runBody('r1', reads < 3 ? 'running' : 'failed'));
    });
    const run = await client.followRun('r1');
    expect(run.status).toBe('failed');
    const eventsRequests = server.requests.filter((r) => isEvents(r.url)).length;
    expect(eventsRequests).toBe(3);
    expect(reads).toBe(3);
    expect(logs.map((l) => l.type)).toEqual(['stream-reconnect', 'stream-reconnect', 'stream-fallback']);
    // Two backoff waits between connections, then two poll intervals.
    expect(delays.slice(-2)).toEqual([3000, 3000]);
  });

  it('counts failed connections towards the fallback', async () => {
    const { server, client, logs } = await setup((req, res) => {
      if (isEvents(req.url)) return sendJson(res, 502, { error: { message: 'proxy says no' } });
      sendJson(res, 200, runBody('r1', 'completed'));
    });
    const run = await client.followRun('r1');
    expect(run.status).toBe('completed');
    expect(server.requests.filter((r) => isEvents(r.url))).toHaveLength(3);
    const fallback = logs.find((l) => l.type === 'stream-fallback');
    expect(fallback).toMatchObject({ failures: 3 });
    expect(fallback && 'reason' in fallback && fallback.reason).toContain('HTTP 502');
  });

  it('fails a stream whose event outgrows maxEventChars, reconnects, then polls', async () => {
    const { server, client, logs } = await setup(
      (req, res) => {
        if (!isEvents(req.url)) return sendJson(res, 200, runBody('r1', 'completed'));
        openSse(res);
        res.write(`data: ${'x'.repeat(5000)}`);
      },
      { maxEventChars: 1024 },
    );
    const run = await client.followRun('r1');
    expect(run.status).toBe('completed');
    expect(server.requests.filter((r) => isEvents(r.url))).toHaveLength(3);
    const fallback = logs.find((l) => l.type === 'stream-fallback');
    expect(fallback && 'reason' in fallback && fallback.reason).toContain('an event is larger than 1024 characters');
  });

  it('reads the run when the final run event is malformed', async () => {
    const { server, client } = await setup((req, res) => {
      if (!isEvents(req.url)) return sendJson(res, 200, runBody('r1', 'completed'));
      openSse(res);
      res.end(sseEvent(1, 'run', { status: 'completed' }));
    });
    const run = await client.followRun('r1');
    expect(run.status).toBe('completed');
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/runs/r1/events', '/api/v1/runs/r1']);
  });

  it('polls only in poll mode, every pollIntervalMs', async () => {
    let reads = 0;
    const { server, client, delays } = await setup((_req, res) => {
      reads += 1;
      sendJson(res, 200, runBody('r1', reads < 4 ? (reads === 2 ? 'cancelling' : 'running') : 'cancelled'));
    });
    const run = await client.followRun('r1', { mode: 'poll' });
    expect(run.status).toBe('cancelled');
    expect(server.requests.every((r) => r.url === '/api/v1/runs/r1')).toBe(true);
    expect(delays).toEqual([3000, 3000, 3000]);
  });

  it('keeps polling through transient failures', async () => {
    let reads = 0;
    const { client, logs } = await setup((_req, res) => {
      reads += 1;
      if (reads <= 2) return sendJson(res, 503, {});
      sendJson(res, 200, runBody('r1', 'completed'));
    }, { retry: { maxAttempts: 3 } });
    // maxAttempts 3 per read: the first read fails twice then succeeds inside its own retries.
    expect((await client.followRun('r1', { mode: 'poll' })).status).toBe('completed');
    expect(logs.filter((l) => l.type === 'retry')).toHaveLength(2);
  });

  it('logs a poll that fails after its retries and polls again', async () => {
    let reads = 0;
    const { client, logs } = await setup((_req, res) => {
      reads += 1;
      if (reads <= 2) return void res.socket?.destroy();
      sendJson(res, 200, runBody('r1', 'completed'));
    }, { retry: { maxAttempts: 2 } });
    // The first read fails on both of its attempts; the poll loop logs it and reads again.
    expect((await client.followRun('r1', { mode: 'poll' })).status).toBe('completed');
    expect(logs.map((l) => l.type)).toEqual(['retry', 'poll-error']);
    expect(reads).toBe(3);
  });

  it('gives up on an unknown run at once', async () => {
    const { server, client } = await setup((_req, res) => sendJson(res, 404, { error: { code: 'not_found', message: 'no such run' } }));
    await expect(client.followRun('nope')).rejects.toBeInstanceOf(NotFoundError);
    expect(server.requests).toHaveLength(1);
  });

  it('stops when aborted', async () => {
    const { client } = await setup((_req, res) => {
      openSse(res);
      res.write(sseEvent(1, 'text.delta', { text: 'a' }));
    });
    const controller = new AbortController();
    const reason = new Error('stop');
    const p = client.followRun('r1', { signal: controller.signal, onEvent: () => controller.abort(reason) });
    await expect(p).rejects.toBe(reason);
  });
});
