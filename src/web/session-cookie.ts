import { generateCookie, generateSignedCookie, getSignedCookie } from 'hono/cookie';

export { getSignedCookie };

/**
 * The Set-Cookie of a session: its random id signed (HMAC-SHA256, Hono's signed cookie),
 * HttpOnly, SameSite=Strict, for every path; Secure when the proxy in front speaks https.
 * No Max-Age: the browser drops it when it closes, the server after a working day unused.
 */
export function serializeSessionCookie(name: string, id: string, key: string, secure: boolean): Promise<string> {
  return generateSignedCookie(name, id, key, { httpOnly: true, sameSite: 'Strict', path: '/', ...(secure ? { secure: true } : {}) });
}

/** The Set-Cookie that removes a session cookie from the browser. */
export function clearedSessionCookie(name: string): string {
  return generateCookie(name, '', { httpOnly: true, sameSite: 'Strict', path: '/', maxAge: 0 });
}
