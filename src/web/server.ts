import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { systemClock, type Clock } from '../clock.js';
import type { WebStore } from './app.js';
import { libraryActions, type WebActions } from './actions.js';
import { buildApp } from './app.js';
import { LiveHub } from './live.js';
import { allowedHosts, isLoopback, ownHosts, urlHost } from './hosts.js';
import { SessionBook, sessionCookieName, sessionKey } from './sessions.js';
import { Throttle } from './throttle.js';
import { isLocalErrno } from '../local-fault.js';

/** Options of {@link startWebServer}. */
export interface WebServerOptions {
  store: WebStore;
  /** @default '127.0.0.1' */
  host?: string;
  /** 0 picks a free port. @default 8642 */
  port?: number;
  /** The token every request must carry. @default a new random one */
  token?: string;
  /** More Host names to answer (a reverse proxy's public name). @default none */
  allowHosts?: readonly string[];
  /** A reverse proxy is in front: its `Forwarded` / `X-Forwarded-Proto` are believed. @default false */
  behindProxy?: boolean;
  /** The writes; @default the library's operations on `store` */
  actions?: WebActions;
  /** Least time between two live snapshots of a batch. @default 1000 */
  tickMs?: number;
  /** Time, and the live pollers' wait between ticks. @default systemClock */
  clock?: Clock;
  /** The database as `resq serve` was given it: the commands the page and the API suggest carry it as `--db` (src/text/command-hint.ts). @default the default database */
  db?: string;
  /** Unexpected failures (bugs, a database gone away). */
  onError?: (e: unknown) => void;
  /** One line for whoever runs the server: a file refused and why, wrong tokens counted (at most once a minute). Never a secret. */
  log?: (line: string) => void;
}

/** A running web view. */
export interface WebServer {
  /** Address to open once: `http://HOST:PORT/?code=CODE`, a login code spent by its first visit (or after a few minutes unused). */
  url: string;
  /** Another one-time login address (a new code, good for a few minutes). */
  loginUrl(): string;
  /** An invitation: a one-time login address good for `lifeMs` (a day unless told), written to the store first. */
  invite(lifeMs?: number): Promise<{ link: string; expiresAt: Date }>;
  /** `http://HOST:PORT` without the token. */
  origin: string;
  host: string;
  port: number;
  /** The token: scripts send `Authorization: Bearer TOKEN`; `?token=TOKEN` also opens a session. */
  token: string;
  /** The Host names the server answers by itself (beyond loopback: the machine's names and addresses). */
  hosts: string[];
  /** Whether it is bound beyond loopback (reachable from the network, over plain HTTP). */
  network: boolean;
  /** Stops listening, ends open event streams, stops the live pollers (the store stays open). */
  close(): Promise<void>;
}

/** A new token: 32 random bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Starts `resq serve`'s HTTP server over a store. */
export async function startWebServer(o: WebServerOptions): Promise<WebServer> {
  const host = o.host ?? '127.0.0.1';
  const token = o.token ?? newToken();
  const clock = o.clock ?? systemClock;
  const now = () => clock.now();
  const live = new LiveHub({ store: o.store, clock, ...(o.tickMs ? { tickMs: o.tickMs } : {}), ...(o.onError ? { onError: o.onError } : {}), ...(o.db ? { db: o.db } : {}) });
  const key = sessionKey(token);
  const sessions = new SessionBook({ store: o.store, key, now, ...(o.onError ? { onError: o.onError } : {}) });
  const throttle = new Throttle({ now, report: (line) => o.log?.(line) });
  let app: ReturnType<typeof buildApp> | null = null;
  const server = createAdaptorServer({ fetch: (req, env) => app!.fetch(req, env), hostname: host });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 8642, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A connection this process had no descriptor for (accept EMFILE): libuv sheds it and the
  // browser tries again; the view keeps serving. Anything else is thrown as before.
  server.on('error', (e) => {
    if (!isLocalErrno(e)) throw e;
  });
  const port = (server.address() as AddressInfo).port;
  app = buildApp({
    store: o.store,
    token,
    sessionKey: key,
    cookieName: sessionCookieName(port),
    sessions,
    throttle,
    hostAllowed: allowedHosts(host, port, o.allowHosts ?? []),
    behindProxy: o.behindProxy ?? false,
    actions: o.actions ?? libraryActions(o.store),
    live,
    now,
    ...(o.db ? { db: o.db } : {}),
    ...(o.onError ? { onError: o.onError } : {}),
    ...(o.log ? { log: o.log } : {}),
  });
  const origin = `http://${urlHost(host)}:${port}`;
  const loginUrl = () => `${origin}/?code=${sessions.newCode()}`;
  const url = loginUrl();
  // The printed link works as soon as it is printed.
  await sessions.written();
  return {
    url,
    loginUrl,
    invite: async (lifeMs) => {
      const { code, expiresAt } = await sessions.invite(lifeMs);
      return { link: `${origin}/?code=${code}`, expiresAt };
    },
    origin,
    host,
    port,
    token,
    hosts: ownHosts(host, port),
    network: !isLoopback(host),
    close: async () => {
      live.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}
