import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { collect, spawnCli } from './cli.js';

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

/** A loopback port nobody listens on, for now (a receiver that is down, started there later). */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

/**
 * The simulator and the receivers of a describe block of notification tests (hooks registered
 * in the caller): `sim()` once started, `receiver()` a fresh one closed after its test.
 */
export function simAndReceivers(simOptions: Parameters<typeof startSim>[0]): { sim: () => Sim; receiver: (b?: Behaviour, port?: number) => Promise<Receiver> } {
  let sim: Sim;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    sim = await startSim(simOptions);
  });
  afterAll(async () => sim?.close());
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  return {
    sim: () => sim,
    receiver: async (b, port) => {
      const r = await startReceiver(b, port);
      receivers.push(r);
      return r;
    },
  };
}

/** Runs `resq serve` over `db` until `r` has had `n` requests (what a server sends while no worker runs), then stops it. */
export async function serveUntil(db: string, r: Receiver, n: number): Promise<void> {
  const serve = spawnCli(['serve', '--db', db, '--port', '0'], { RESQ_LEASE_MS: '1000' });
  const served = collect(serve);
  try {
    await r.waitFor(n);
  } finally {
    serve.kill('SIGTERM');
    await served;
  }
}
