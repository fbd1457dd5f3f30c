import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got, and what it answered (null: it never answered). */
export interface Received {
  n: number;
  headers: IncomingMessage['headers'];
  body: string;
  status: number | null;
}

/** What to do with the n-th request (1-based): answer with a status, hold it open and never answer, or answer once the promise gives a status. */
export type Behaviour = (n: number, body: string) => number | 'hang' | Promise<number>;

/** A real HTTP receiver of notifications on loopback (a node:http server in the test). */
export interface Receiver {
  url: string;
  requests: Received[];
  /** Requests it answered 2xx to, by the event id in their body (or their X-Resq-Event-Id). */
  acceptedIds(): string[];
  /** Resolves once `n` requests came in. */
  waitFor(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(behaviour: Behaviour = () => 200, port = 0): Promise<Receiver> {
  const requests: Received[] = [];
  const hung = new Set<ServerResponse>();
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const rec: Received = { n: requests.length + 1, headers: req.headers, body, status: null };
      requests.push(rec);
      for (const w of waiters.filter((x) => requests.length >= x.n)) w.resolve();
      const what = behaviour(rec.n, body);
      const answer = (status: number) => {
        hung.delete(res);
        // A request its sender gave up on stays unanswered.
        if (res.destroyed) return;
        rec.status = status;
        res.writeHead(status, { 'Content-Type': 'text/plain' }).end('ok');
      };
      if (typeof what === 'number') return answer(what);
      hung.add(res);
      if (what !== 'hang') void what.then(answer);
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hooks/secret-path-token`,
    requests,
    acceptedIds: () => requests.filter((r) => r.status !== null && r.status < 300).map((r) => String(r.headers['x-resq-event-id'])),
    waitFor: (n) => (requests.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    close: async () => {
      for (const r of hung) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
