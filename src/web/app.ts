import { Hono } from 'hono';
import type { BatchStore, FileStore, ReadStore, TransitionStore } from '../store/index.js';
import type { WebActions } from './actions.js';
import { fileRoutes } from './file-routes.js';
import type { LiveHub } from './live.js';
import { readRoutes } from './read-routes.js';
import { sendError } from './respond.js';
import { guard, securityHeaders } from './security.js';
import { staticRoutes } from './static-files.js';
import { type WebEnv, writeRoutes } from './write-routes.js';

/** The store roles `resq serve` uses: batches found, reads, files, and a person's answers, cancels and retries. */
export type WebStore = BatchStore & ReadStore & FileStore & TransitionStore;

/** What the web app is made of. */
export interface AppDeps {
  store: WebStore;
  token: string;
  hostAllowed: (host: string | undefined) => boolean;
  actions: WebActions;
  live: LiveHub;
  now: () => number;
  /** An unexpected failure of a route (a bug, or the database gone): the route answers 500. */
  onError?: (e: unknown) => void;
  keepAliveMs?: number;
}

/**
 * The web view as a Hono app: security headers and the token/Host/Origin guard in front of
 * everything, then the JSON API, the files, /metrics and the page. Thin like the CLI: each
 * route parses, calls the store's reads or the library's operations, and renders.
 */
export function buildApp(d: AppDeps): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.use('*', securityHeaders);
  app.use('*', guard({ token: d.token, hostAllowed: d.hostAllowed }));
  readRoutes(app, { store: d.store, live: d.live, now: d.now, ...(d.keepAliveMs ? { keepAliveMs: d.keepAliveMs } : {}) });
  writeRoutes(app, { store: d.store, actions: d.actions });
  fileRoutes(app, d.store);
  staticRoutes(app);
  app.notFound((c) => (c.req.path.startsWith('/api/') ? sendError(c, 404, 'RESQ_NOT_FOUND', `no route ${c.req.method} ${c.req.path}`) : c.text('not found\n', 404)));
  app.onError((e, c) => {
    d.onError?.(e);
    return sendError(c, 500, 'RESQ_INTERNAL', 'internal error (the server logged it)');
  });
  return app;
}
