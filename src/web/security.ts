import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';

/** Name of the cookie the `?token=` visit sets. */
export const TOKEN_COOKIE = 'resq_token';

/** Content-Security-Policy of every page and API answer: no inline script, no framing. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Content-Security-Policy of a user's or the service's file: nothing in it may run. */
export const FILE_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'none'";

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Whether a host the server binds to is a loopback address. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host);
}

/** A host as it appears in a URL or a Host header (IPv6 in brackets). */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The Host headers the server answers (DNS rebinding guard): the bound host and port, every
 * loopback name when bound to loopback, and the names given with `--allow-host` (a name
 * without a port: any port, for a reverse proxy that forwards its own Host).
 */
export function allowedHosts(bound: string, port: number, extra: readonly string[]): (host: string | undefined) => boolean {
  const exact = new Set<string>([`${urlHost(bound)}:${port}`.toLowerCase()]);
  if (isLoopback(bound)) for (const h of ['127.0.0.1', 'localhost', '[::1]']) exact.add(`${h}:${port}`);
  const anyPort = new Set<string>();
  for (const e of extra) {
    const h = e.trim().toLowerCase();
    if (!h) continue;
    if (/:\d+$/.test(h)) exact.add(h);
    else anyPort.add(h);
  }
  return (host) => {
    if (!host) return false;
    const h = host.toLowerCase();
    if (exact.has(h)) return true;
    return anyPort.has(h.replace(/:\d+$/, ''));
  };
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(token, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === TOKEN_COOKIE) return v.join('=');
  }
  return null;
}

function plain(c: Context, status: 401 | 403 | 421, text: string): Response {
  return c.text(`${text}\n`, status, { 'Cache-Control': 'no-store' });
}

/** How a request proved it holds the token. */
export type AuthVia = 'bearer' | 'cookie';

/**
 * The guard in front of every route: a foreign Host is refused (421), a request without the
 * token is refused (401), a `?token=` visit sets the HttpOnly SameSite=Strict cookie and is
 * sent on without the token in its URL (303), and a write authenticated by the cookie must
 * come from the page's own origin (403). Scripts send `Authorization: Bearer TOKEN`: a
 * browser never adds that header on its own, so those writes need no Origin.
 */
export function guard(o: { token: string; hostAllowed: (host: string | undefined) => boolean }): MiddlewareHandler<{ Variables: { authVia: AuthVia } }> {
  return async (c, next) => {
    const host = c.req.header('host');
    if (!o.hostAllowed(host)) return plain(c, 421, 'this server does not answer for that Host (start resq serve with --allow-host NAME to add one)');
    const auth = c.req.header('authorization');
    const url = new URL(c.req.url);
    const queryToken = url.searchParams.get('token');
    let via: AuthVia | null = null;
    if (auth !== undefined) {
      const m = /^Bearer\s+(\S+)$/i.exec(auth);
      if (m && sameToken(m[1]!, o.token)) via = 'bearer';
      else return plain(c, 401, 'wrong token');
    } else {
      const cookie = cookieToken(c.req.header('cookie'));
      if (cookie !== null && sameToken(cookie, o.token)) via = 'cookie';
    }
    if (queryToken !== null && c.req.method === 'GET') {
      if (!sameToken(queryToken, o.token)) return plain(c, 401, 'wrong token');
      url.searchParams.delete('token');
      const secure = c.req.header('x-forwarded-proto') === 'https' ? '; Secure' : '';
      return new Response(null, {
        status: 303,
        headers: {
          Location: `${url.pathname}${url.search}`,
          'Set-Cookie': `${TOKEN_COOKIE}=${o.token}; HttpOnly; SameSite=Strict; Path=/${secure}`,
          'Cache-Control': 'no-store',
          'Referrer-Policy': 'no-referrer',
        },
      });
    }
    if (via === null)
      return plain(c, 401, 'token required: open the address resq serve printed (…/?token=…), or send Authorization: Bearer TOKEN');
    if (via === 'cookie' && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const origin = c.req.header('origin');
      let originHost: string | null = null;
      try {
        originHost = origin ? new URL(origin).host : null;
      } catch {
        originHost = null;
      }
      if (originHost === null || originHost.toLowerCase() !== host!.toLowerCase()) return plain(c, 403, 'a write must come from this page (Origin differs)');
    }
    c.set('authVia', via);
    await next();
  };
}

/** Headers every answer carries: the page CSP, no sniffing, no referrer, no framing. */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const h = c.res.headers;
  if (!h.has('Content-Security-Policy')) h.set('Content-Security-Policy', PAGE_CSP);
  h.set('X-Content-Type-Options', 'nosniff');
  h.set('Referrer-Policy', 'no-referrer');
  h.set('X-Frame-Options', 'DENY');
  h.set('Cross-Origin-Opener-Policy', 'same-origin');
  h.set('Cross-Origin-Resource-Policy', 'same-origin');
};
