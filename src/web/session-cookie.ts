import { generateCookie, generateSignedCookie, getSignedCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';

export { getSignedCookie };

/** The flags a session cookie is set and cleared with: the clearing must match, or a browser may keep it. */
function flags(secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'Strict', path: '/', ...(secure ? { secure: true } : {}) };
}

/**
 * The Set-Cookie of a session: its random id signed (HMAC-SHA256, Hono's signed cookie),
 * HttpOnly, SameSite=Strict, for every path; Secure when the proxy in front speaks https.
 * No Max-Age: the browser drops it when it closes, the server after a working day unused.
 */
export function serializeSessionCookie(name: string, id: string, key: string, secure: boolean): Promise<string> {
  return generateSignedCookie(name, id, key, flags(secure));
}

/** The Set-Cookie that removes a session cookie from the browser: the same flags as its setting. */
export function clearedSessionCookie(name: string, secure: boolean): string {
  return generateCookie(name, '', { ...flags(secure), maxAge: 0 });
}
