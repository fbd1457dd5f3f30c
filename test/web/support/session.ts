import type { WebServer } from '../../../src/web/server.js';

/** The `name=value` of a Set-Cookie header. */
export function cookiePair(setCookie: string | null): string {
  if (!setCookie) throw new Error('no Set-Cookie');
  return setCookie.split(';')[0]!;
}

/** Opens a one-time login link as a browser would; resolves with the session cookie to send back (`Cookie:` value). */
export async function login(server: WebServer, link = server.loginUrl()): Promise<string> {
  const r = await fetch(link, { redirect: 'manual' });
  if (r.status !== 303) throw new Error(`login answered ${r.status}: ${await r.text()}`);
  return cookiePair(r.headers.get('set-cookie'));
}

/** A clock the test moves (the live pollers' sleep stays real). */
export function testClock(start = Date.parse('2030-01-02T09:00:00Z')): { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void>; advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    sleep: (ms, signal) =>
      new Promise((resolve) => {
        const timer = setTimeout(resolve, Math.min(ms, 50));
        signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      }),
    advance: (ms) => {
      t += ms;
    },
  };
}
