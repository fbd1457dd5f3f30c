import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the test server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Index of the TCP connection it came on (0-based, in order of connection). */
  connection: number;
}

/** A real HTTP server on a free loopback port, for transport edge cases. */
export interface TestServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** `origin + '/api/v1'` */
  baseUrl: string;
  requests: SeenRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => void | Promise<void>;

/** Starts a server whose every request goes to `handler` (after its body is read). */
export async function startTestServer(handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Map<Socket, number>();
  let count = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        connection: sockets.get(req.socket) ?? -1,
      };
      requests.push(seen);
      Promise.resolve(handler(req, res, seen)).catch((err: unknown) => {
        res.destroy(err as Error);
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.set(socket, count++);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/api/v1`,
    requests,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets.keys()) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Sends a JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A run object as the service returns it. */
export function runBody(id: string, status = 'running', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, status, thread_id: `thread-of-${id}`, output: { text: '', tool_results: [] }, ...extra };
}

/** A sleep that records the delays asked for and returns at once (honouring abort). */
export function recordingSleep(): { delays: number[]; sleep: (ms: number, signal?: AbortSignal) => Promise<void> } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms, signal) => {
      delays.push(ms);
      if (signal?.aborted) throw signal.reason;
    },
  };
}

/** The test key: distinctive so a leak is easy to find. */
export const KEY = 'sk-test-SECRET-7f3a9c';
