import { timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { getSignedCookie, serializeSessionCookie } from './session-cookie.js';
import type { SessionBook } from './sessions.js';
import type { Throttle } from './throttle.js';
import { forwardedProto, viaHttps } from './proxy.js';

export { allowedHosts, isLoopback, urlHost } from './hosts.js';

/** Content-Security-Policy of every page and API answer: no inline script, no framing. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Content-Security-Policy of a user's or the service's file: nothing in it may run. */
export const FILE_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'none'";

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(token, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function plain(c: Context, status: 401 | 403 | 421 | 429, text: string, headers: Record<string, string> = {}): Response {
  return c.text(`${text}\n`, status, { 'Cache-Control': 'no-store', ...headers });
}

/** How a request proved who it is: the token (a script's Bearer header) or a session cookie. */
export type AuthVia = 'bearer' | 'session';

/** The address a request came from (the socket's; behind a proxy, the proxy's). */
function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** A path on this server to send a login visit on to: never `//host` or `/\host` (another site). */
export function samePath(url: URL): string {
  url.searchParams.delete('token');
  url.searchParams.delete('code');
  return `/${url.pathname.replace(/^[/\\]+/, '')}${url.search}`;
}

/** The origin of this page as the browser sees it: the Host it asked by, https when a proxy (`--behind-proxy`) says so. */
export function pageOrigin(c: Context, host: string, behindProxy: boolean): string | null {
  const scheme = viaHttps(behindProxy, (n) => c.req.header(n)) ? 'https' : 'http';
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return null;
  }
}

/** What the guard checks against. */
export interface GuardOptions {
  token: string;
  /** The key that signs session cookies. */
  sessionKey: string;
  cookieName: string;
  sessions: SessionBook;
  throttle: Throttle;
  hostAllowed: (host: string | undefined) => boolean;
  /** A reverse proxy is in front: its `Forwarded`/`X-Forwarded-Proto` are believed (Secure cookie, https Origin). */
  behindProxy: boolean;
}

const LINK_SPENT =
  'this login link was used already or has expired: ask for a new one (the page\'s "Invite" button, resq serve --invite), or restart resq serve for a new link';

/**
 * The guard in front of every route: a foreign Host is refused (421); a script proves itself
 * with `Authorization: Bearer TOKEN`, a browser with its session cookie (other schemes, such as
 * a login proxy's Basic, are left alone). A visit with a one-time `?code=` or with `?token=`
 * opens a new session — the cookie holds its random id, never the token — ends any session the
 * browser brought (no fixation), and is sent on to the same path on this server without the
 * secret in its URL (303). Wrong tokens and codes are throttled per client address (429), and a
 * throttled client's token or code is not even checked. A write by a session must carry this
 * page's exact Origin, scheme, host and port (403).
 */
export function guard(o: GuardOptions): MiddlewareHandler<{ Variables: { authVia: AuthVia; session: string | null } }> {
  return async (c, next) => {
    const host = c.req.header('host');
    if (!o.hostAllowed(host)) return plain(c, 421, 'this server does not answer for that Host (start resq serve with --allow-host NAME to add one)');
    const address = clientAddress(c);
    const wait = (): Response | null => {
      const s = o.throttle.waitS(address);
      if (s === 0) return null;
      o.throttle.fail(address, false);
      return plain(c, 429, `too many wrong tokens or login codes from this address: wait ${s} s`, { 'Retry-After': String(s) });
    };
    const wrong = (text: string): Response => {
      o.throttle.fail(address);
      return plain(c, 401, text);
    };

    let via: AuthVia | null = null;
    let session: string | null = null;
    /** The session id of the browser's cookie when its signature holds, live or not. */
    let brought: string | null = null;
    const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
    if (bearer) {
      const refused = wait();
      if (refused) return refused;
      if (!sameToken(bearer[1]!, o.token)) return wrong('wrong token');
      via = 'bearer';
    } else {
      const id = await getSignedCookie(c, o.sessionKey, o.cookieName);
      brought = typeof id === 'string' ? id : null;
      if (brought !== null && (await o.sessions.use(brought))) {
        via = 'session';
        session = brought;
      }
    }

    const url = new URL(c.req.url);
    const code = url.searchParams.get('code');
    const token = url.searchParams.get('token');
    if ((code !== null || token !== null) && (c.req.method === 'GET' || c.req.method === 'HEAD')) {
      const headers: Record<string, string> = { Location: samePath(url), 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };
      const toPage = () => new Response(null, { status: 303, headers });
      const refused = wait();
      // A browser already signed in goes to the page as it is; anyone else waits.
      if (refused) return via === 'session' ? toPage() : refused;
      const good = code !== null ? await o.sessions.spendCode(code) : sameToken(token!, o.token);
      if (!good) {
        // A spent login link opened again by a signed-in browser goes to the page.
        if (via === 'session') return toPage();
        return wrong(code !== null ? LINK_SPENT : 'wrong token');
      }
      if (brought !== null) await o.sessions.end(brought);
      const id = await o.sessions.open();
      headers['Set-Cookie'] = await serializeSessionCookie(o.cookieName, id, o.sessionKey, viaHttps(o.behindProxy, (n) => c.req.header(n)));
      return toPage();
    }

    if (via === null)
      return plain(c, 401, 'token required: open a login link resq serve printed or an invitation (…/?code=…), or send Authorization: Bearer TOKEN');
    if (via === 'session' && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const origin = c.req.header('origin');
      const expected = pageOrigin(c, host!, o.behindProxy);
      if (origin === undefined || expected === null || origin.toLowerCase() !== expected.toLowerCase()) return plain(c, 403, originRefused(c, origin, o.behindProxy));
    }
    c.set('authVia', via);
    c.set('session', session);
    await next();
  };
}

/** Why a write's Origin is refused, with the likely fix when an https proxy is in front but not declared. */
function originRefused(c: Context, origin: string | undefined, behindProxy: boolean): string {
  const proxied = !behindProxy && forwardedProto((n) => c.req.header(n)) !== null && origin?.toLowerCase().startsWith('https:');
  return `a write must come from this page (Origin differs)${proxied ? ': behind an https proxy, start resq serve with --behind-proxy' : ''}`;
}

/** Headers every answer carries: the page CSP, no sniffing, no referrer, no framing, and nothing kept in a cache unless the route says so. */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const h = c.res.headers;
  if (!h.has('Content-Security-Policy')) h.set('Content-Security-Policy', PAGE_CSP);
  if (!h.has('Cache-Control')) h.set('Cache-Control', 'no-store');
  h.set('X-Content-Type-Options', 'nosniff');
  h.set('Referrer-Policy', 'no-referrer');
  h.set('X-Frame-Options', 'DENY');
  h.set('Cross-Origin-Opener-Policy', 'same-origin');
  h.set('Cross-Origin-Resource-Policy', 'same-origin');
};
