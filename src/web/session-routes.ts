import type { Hono } from 'hono';
import { z } from 'zod';
import { badRequest, sendJson } from './respond.js';
import { pageOrigin } from './security.js';
import { clearedSessionCookie } from './session-cookie.js';
import { INVITE_MAX_MS, INVITE_MS, type SessionBook } from './sessions.js';
import { viaHttps } from './proxy.js';
import { jsonBody, type WebEnv } from './write-routes.js';

/** `POST /api/invites`: how long the invitation may wait for its visit (hours, at most 30 days). */
export const InviteBodySchema = z.object({ hours: z.number().positive().max(INVITE_MAX_MS / 3_600_000).optional() });
/** An invitation: a link that lets its first visitor in, once, until `expiresAt`. */
export const InviteSchema = z.object({ link: z.string(), expiresAt: z.string() });

/**
 * Sign out: `POST /api/session/end` ends the browser's session in the store (for every server
 * on the database) and removes its cookie with the flags it was set with. Invite:
 * `POST /api/invites` makes a one-time login link for a teammate (the token stays out of it).
 */
export function sessionRoutes(app: Hono<WebEnv>, o: { sessions: SessionBook; cookieName: string; behindProxy: boolean }): void {
  app.post('/api/session/end', async (c) => {
    const id = c.get('session');
    if (id) await o.sessions.end(id);
    const secure = viaHttps(o.behindProxy, (n) => c.req.header(n));
    return new Response(null, { status: 204, headers: { 'Set-Cookie': clearedSessionCookie(o.cookieName, secure), 'Cache-Control': 'no-store', 'Clear-Site-Data': '"cache"' } });
  });

  app.post('/api/invites', async (c) => {
    const body = await jsonBody(c);
    if (!body.ok) return body.res;
    const parsed = InviteBodySchema.safeParse(body.value);
    if (!parsed.success) return badRequest(c, 'body', parsed.error);
    const { code, expiresAt } = await o.sessions.invite(parsed.data.hours === undefined ? INVITE_MS : Math.round(parsed.data.hours * 3_600_000));
    // The guard checked the Host: the link is this page's own address.
    const origin = pageOrigin(c, c.req.header('host')!, o.behindProxy)!;
    return sendJson(c, InviteSchema, { link: `${origin}/?code=${code}`, expiresAt: expiresAt.toISOString() }, 201);
  });
}
