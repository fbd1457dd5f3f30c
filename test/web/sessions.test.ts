import { describe, expect, it } from 'vitest';
import { CODE_MS, SESSION_IDLE_MS, SessionBook, sessionCookieName, sessionKey } from '../../src/web/sessions.js';

describe('login codes and sessions (a clock the test moves)', () => {
  const book = () => {
    let t = 1_000_000;
    return { b: new SessionBook({ now: () => t }), advance: (ms: number) => (t += ms) };
  };

  it('a code is good once, and only within a few minutes', () => {
    const { b, advance } = book();
    const code = b.newCode();
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(b.spendCode(code)).toBe(true);
    expect(b.spendCode(code)).toBe(false);
    expect(b.spendCode('made-up')).toBe(false);
    const late = b.newCode();
    advance(CODE_MS + 1);
    expect(b.spendCode(late)).toBe(false);
  });

  it('a session lives while used, ends after a working day unused or when signed out, and stays ended', () => {
    const { b, advance } = book();
    const id = b.open();
    advance(SESSION_IDLE_MS);
    expect(b.use(id)).toBe(true);
    advance(SESSION_IDLE_MS + 1);
    expect(b.use(id)).toBe(false);
    expect(b.use(id)).toBe(false);
    const other = b.open();
    b.end(other);
    expect(b.use(other)).toBe(false);
  });

  it('the cookie name carries the port; the signing key comes from the token (same token, same key)', () => {
    expect(sessionCookieName(8642)).toBe('resq-session-8642');
    expect(sessionKey('t1')).toBe(sessionKey('t1'));
    expect(sessionKey('t1')).not.toBe(sessionKey('t2'));
    expect(sessionKey('t1')).not.toContain('t1');
  });
});
