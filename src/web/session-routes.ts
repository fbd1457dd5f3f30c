import type { Hono } from 'hono';
import { clearedSessionCookie } from './session-cookie.js';
import type { SessionBook } from './sessions.js';
import type { WebEnv } from './write-routes.js';

/** Sign out: `POST /api/session/end` ends the browser's session here and removes its cookie. */
export function sessionRoutes(app: Hono<WebEnv>, o: { sessions: SessionBook; cookieName: string }): void {
  app.post('/api/session/end', (c) => {
    const id = c.get('session');
    if (id) o.sessions.end(id);
    return new Response(null, { status: 204, headers: { 'Set-Cookie': clearedSessionCookie(o.cookieName), 'Cache-Control': 'no-store', 'Clear-Site-Data': '"cache"' } });
  });
}
