import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { BatchStore, FileStore, ReadStore, ScoreStore, TransitionStore, WebSessionStore } from '../store/index.js';
import type { WebActions } from './actions.js';
import { fileRoutes } from './file-routes.js';
import type { LiveHub } from './live.js';
import { readRoutes } from './read-routes.js';
import { ruleRoutes } from './rule-route.js';
import { sendError } from './respond.js';
import { guard, type GuardOptions, securityHeaders } from './security.js';
import { sessionRoutes } from './session-routes.js';
import { loadStatic, staticRoutes } from './static-files.js';
import { batchPageRoute } from './batch-page.js';
import { type WebEnv, writeRoutes } from './write-routes.js';

/** Most bytes of a request body (an answer is a few KiB): more is refused (413) before it is read. */
export const BODY_LIMIT = 64 * 1024;

/** The store roles `resq serve` uses: batches found, reads, files, a person's answers, cancels and retries, the sessions, and verdicts. */
export type WebStore = BatchStore & ReadStore & FileStore & TransitionStore & WebSessionStore & ScoreStore;

/** What the web app is made of: what its guard checks against (security.ts), and the rest. */
export interface AppDeps extends GuardOptions {
  store: WebStore;
  actions: WebActions;
  live: LiveHub;
  now: () => number;
  /** The database as `resq serve` was given it: suggested commands carry it as `--db`. */
  db?: string;
  /** An unexpected failure of a route (a bug, or the database gone): the route answers 500. */
  onError?: (e: unknown) => void;
  /** One line for whoever runs the server (a file refused, guessing throttled); never a secret. */
  log?: (line: string) => void;
  keepAliveMs?: number;
}

/**
 * The web view as a Hono app: security headers, the token/session/Host/Origin guard and the
 * body limit in front of everything, then the JSON API, the files, /metrics and the page. Thin like the CLI: each
 * route parses, calls the store's reads or the library's operations, and renders.
 */
export function buildApp(d: AppDeps): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  app.use('*', securityHeaders);
  app.use('*', guard(d));
  app.use('*', bodyLimit({ maxSize: BODY_LIMIT, onError: (c) => sendError(c, 413, 'RESQ_TOO_LARGE', `body: more than ${BODY_LIMIT / 1024} KiB`) }));
  sessionRoutes(app, { sessions: d.sessions, cookieName: d.cookieName, behindProxy: d.behindProxy });
  readRoutes(app, { store: d.store, live: d.live, now: d.now, db: d.db, ...(d.keepAliveMs ? { keepAliveMs: d.keepAliveMs } : {}) });
  ruleRoutes(app, { store: d.store, db: d.db });
  writeRoutes(app, { store: d.store, actions: d.actions, now: d.now, db: d.db });
  fileRoutes(app, d.store, d.log ?? (() => undefined));
  const files = loadStatic();
  batchPageRoute(app, { store: d.store, index: files.get('/static/index.html')?.body.toString('utf8') ?? '' });
  staticRoutes(app, files);
  app.notFound((c) => (c.req.path.startsWith('/api/') ? sendError(c, 404, 'RESQ_NOT_FOUND', `no route ${c.req.method} ${c.req.path}`) : c.text('not found\n', 404)));
  app.onError((e, c) => {
    d.onError?.(e);
    return sendError(c, 500, 'RESQ_INTERNAL', 'internal error (the server logged it)');
  });
  return app;
}
