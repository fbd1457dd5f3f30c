import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AfterFault } from './faults.js';
import type { Reply } from './http-io.js';

/** What a route handler gets. */
export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  account: string;
  params: Record<string, string>;
  query: URLSearchParams;
  requestId: string;
  /** The route key, e.g. `POST /runs/:id/respond`. */
  routeKey: string;
  /** Method and concrete path, the scope of an idempotency key. */
  scope: string;
  /** For streaming routes: the after-side-effect fault drawn for this request. */
  afterFault: AfterFault;
  /** performance.now() when the request arrived (before any injected latency). */
  arrivedAt: number;
}

/** A handler answers with a JSON reply, or writes a stream itself and returns 'streamed'. */
export type Handler = (ctx: RouteContext) => Promise<Reply | 'streamed'>;

/** One route of /api/v1. */
export interface Route {
  method: string;
  /** Path under /api/v1 with `:name` segments, e.g. `/runs/:id`. */
  pattern: string;
  handler: Handler;
  /** Streaming routes draw their after-fault up front and apply it themselves. */
  streams?: boolean;
}

/** What matching a path found. */
export type Match =
  | { kind: 'found'; route: Route; params: Record<string, string>; routeKey: string }
  | { kind: 'method'; allow: string[]; routeKey: string }
  | { kind: 'none' };

/** Matches method and path (under /api/v1) against the routes. */
export function matchRoute(routes: Route[], method: string, path: string): Match {
  const allow: string[] = [];
  let pattern = '';
  for (const route of routes) {
    const params = matchPattern(route.pattern, path);
    if (!params) continue;
    pattern = route.pattern;
    if (route.method === method || (method === 'HEAD' && route.method === 'GET')) {
      return { kind: 'found', route, params, routeKey: `${route.method} ${route.pattern}` };
    }
    allow.push(route.method);
  }
  return allow.length ? { kind: 'method', allow, routeKey: `${method} ${pattern}` } : { kind: 'none' };
}

function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? '';
    const g = got[i] ?? '';
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) return undefined;
  }
  return params;
}
