import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/api/client.js';
import { ApiError, AuthError, NetworkError, NotFoundError } from '../../src/api/errors.js';
import { KEY, sendJson, startTestServer, type Handler, type TestServer } from './helpers/test-server.js';

const servers: TestServer[] = [];
let client: ServiceClient | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler): Promise<TestServer> {
  const s = await startTestServer(handler);
  servers.push(s);
  return s;
}

function makeClient(base: TestServer, connections?: number): ServiceClient {
  client = new ServiceClient({ baseUrl: base.baseUrl, apiKey: KEY, sleep: async () => {}, retry: { maxAttempts: 2 }, connections });
  return client;
}

async function readAll(body: AsyncIterable<Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of body) parts.push(c);
  return Buffer.concat(parts).toString('utf8');
}

const fileHandler: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'Text/Markdown; charset=utf-8', 'content-length': 7 });
  res.end('# hello');
};

describe('openFile', () => {
  it('sends the key to the base origin and reports media type and size', async () => {
    const base = await serve(fileHandler);
    const file = await makeClient(base).openFile(`${base.baseUrl}/files/f1`);
    expect(file.mediaType).toBe('text/markdown');
    expect(file.size).toBe(7);
    expect(await readAll(file.body)).toBe('# hello');
    expect(base.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(base.requests[0]!.url).toBe('/api/v1/files/f1');
  });

  it('resolves a relative URL below the base URL', async () => {
    const base = await serve(fileHandler);
    const file = await makeClient(base).openFile('files/f2');
    await readAll(file.body);
    expect(base.requests[0]!.url).toBe('/api/v1/files/f2');
  });

  it('sends no key to a URL on another origin', async () => {
    const base = await serve(fileHandler);
    const other = await serve(fileHandler);
    const file = await makeClient(base).openFile(`${other.origin}/bucket/f1?sig=abc`);
    await readAll(file.body);
    expect(other.requests[0]!.headers.authorization).toBeUndefined();
    expect(other.requests[0]!.url).toBe('/bucket/f1?sig=abc');
    expect(base.requests).toHaveLength(0);
  });

  it('follows a redirect to another origin without the key', async () => {
    const other = await serve(fileHandler);
    const base = await serve((_req, res) => {
      res.writeHead(302, { location: `${other.origin}/signed/f1?sig=xyz` });
      res.end('moved');
    });
    const file = await makeClient(base).openFile(`${base.baseUrl}/files/f1`);
    expect(await readAll(file.body)).toBe('# hello');
    expect(base.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(other.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('follows a relative redirect on the same origin with the key', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/api/v1/files/f1') {
        res.writeHead(307, { location: '/api/v1/files/f1-v2' });
        return void res.end();
      }
      fileHandler(req, res, undefined as never);
    });
    const file = await makeClient(base).openFile(`${base.baseUrl}/files/f1`);
    await readAll(file.body);
    expect(base.requests.map((r) => [r.url, r.headers.authorization])).toEqual([
      ['/api/v1/files/f1', `Bearer ${KEY}`],
      ['/api/v1/files/f1-v2', `Bearer ${KEY}`],
    ]);
  });

  it('gives up on a redirect loop and on a redirect without Location', async () => {
    const loop = await serve((req, res) => {
      res.writeHead(302, req.url?.includes('noloc') ? {} : { location: req.url ?? '/' });
      res.end();
    });
    const c = makeClient(loop);
    await expect(c.openFile(`${loop.baseUrl}/files/a`)).rejects.toThrow(/more than 5 redirects/);
    expect(loop.requests).toHaveLength(6);
    await expect(c.openFile(`${loop.baseUrl}/files/noloc`)).rejects.toBeInstanceOf(ApiError);
  });

  it('treats a 3xx that is not a redirect as an error, not an empty file', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(304);
      res.end();
    });
    const err = await makeClient(base).openFile(`${base.baseUrl}/files/f1`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(304);
  });

  it('ends a download in progress when the client closes', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(10));
    });
    const c = makeClient(base);
    const file = await c.openFile(`${base.baseUrl}/files/f1`);
    const reading = readAll(file.body).catch((e: unknown) => e);
    await c.close();
    expect(await reading).toMatchObject({ code: 'RESQ_NETWORK', phase: 'closed' });
  });

  it('maps 404 and 410 to NotFoundError', async () => {
    const base = await serve((req, res) => sendJson(res, req.url?.includes('gone') ? 410 : 404, { error: { message: 'expired' } }));
    const c = makeClient(base);
    await expect(c.openFile(`${base.baseUrl}/files/old`)).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.openFile(`${base.baseUrl}/files/gone`)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('names another origin without its query string in errors', async () => {
    const base = await serve(fileHandler);
    const other = await serve((_req, res) => sendJson(res, 403, {}));
    const err = (await makeClient(base)
      .openFile(`${other.origin}/bucket/f1?X-Amz-Signature=SECRETSIG`)
      .catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(AuthError);
    expect(err.message).toBe(`HTTP 403 GET ${other.origin}/bucket/f1: forbidden`);
  });

  it('surfaces a connection cut mid-body as a NetworkError on the stream', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 1000 });
      res.write(Buffer.alloc(100));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const file = await makeClient(base).openFile(`${base.baseUrl}/files/f1`);
    await expect(readAll(file.body)).rejects.toBeInstanceOf(NetworkError);
  });

  it('releases the connection when the body is destroyed unread', async () => {
    const base = await serve((req, res, seen) => {
      if (!req.url?.endsWith('/f1')) return fileHandler(req, res, seen);
      // A body that never ends: only destroying it frees the single connection.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(10));
    });
    const c = makeClient(base, 1);
    const first = await c.openFile(`${base.baseUrl}/files/f1`);
    first.body.destroy();
    const second = await c.openFile(`${base.baseUrl}/files/f2`);
    expect(await readAll(second.body)).toBe('# hello');
  });

  it('errors the body with the abort reason', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(10));
    });
    const controller = new AbortController();
    const file = await makeClient(base).openFile(`${base.baseUrl}/files/f1`, { signal: controller.signal });
    const reason = new Error('cancelled download');
    const reading = readAll(file.body);
    controller.abort(reason);
    await expect(reading).rejects.toBe(reason);
  });
});
