import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { CODE_MS, INVITE_MS, SESSION_IDLE_MS, SessionBook, secretDigest, sessionCookieName, sessionKey } from '../../src/web/sessions.js';
import { tempDir } from '../support/cli.js';

describe('login codes and sessions (a real SQLite file, a clock the test moves)', () => {
  const dir = tempDir('resq-sessions-');
  let n = 0;
  const stores: SqliteStore[] = [];
  afterAll(async () => Promise.all(stores.map((s) => s.close())));
  const book = (path = join(dir, `s${n++}.db`), key = sessionKey('t1')) => {
    let t = 1_000_000;
    const store = SqliteStore.open(path);
    stores.push(store);
    return { b: new SessionBook({ store, key, now: () => t }), store, path, advance: (ms: number) => (t += ms) };
  };

  it('a code is good once, and only within a few minutes', async () => {
    const { b, advance } = book();
    const code = b.newCode();
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await b.spendCode(code)).toBe(true);
    expect(await b.spendCode(code)).toBe(false);
    expect(await b.spendCode('made-up')).toBe(false);
    const late = b.newCode();
    advance(CODE_MS + 1);
    expect(await b.spendCode(late)).toBe(false);
  });

  it('an invitation is good once, for a day unless told, and its end is said', async () => {
    const { b, advance } = book();
    const day = await b.invite();
    expect(day.expiresAt.getTime()).toBe(1_000_000 + INVITE_MS);
    const hour = await b.invite(3_600_000);
    advance(3_600_001);
    expect(await b.spendCode(hour.code)).toBe(false);
    expect(await b.spendCode(day.code)).toBe(true);
    expect(await b.spendCode(day.code)).toBe(false);
  });

  it('a session lives while used, ends after a working day unused or when signed out, and stays ended', async () => {
    const { b, advance } = book();
    const id = await b.open();
    advance(SESSION_IDLE_MS);
    expect(await b.use(id)).toBe(true);
    advance(SESSION_IDLE_MS + 1);
    expect(await b.use(id)).toBe(false);
    expect(await b.use(id)).toBe(false);
    const other = await b.open();
    await b.end(other);
    expect(await b.use(other)).toBe(false);
    expect(await b.use('never-opened')).toBe(false);
  });

  it('the database holds digests only: no session id or code as it was handed out', async () => {
    const { b, path } = book();
    const ids = [await b.open(), await b.open()];
    const codes = [b.newCode(), (await b.invite()).code];
    await b.written();
    const db = new Database(path, { readonly: true });
    const kept = JSON.stringify([db.prepare('SELECT * FROM web_sessions').all(), db.prepare('SELECT * FROM web_login_codes').all()]);
    db.close();
    expect(kept.match(/"id_digest"/g)).toHaveLength(2);
    expect(kept.match(/"code_digest"/g)).toHaveLength(2);
    for (const secret of [...ids, ...codes]) expect(kept).not.toContain(secret);
  });

  it("digests are keyed by the token: a code or session written under another token's key (or by a database writer without it) lets no one in", async () => {
    const { b, store, path } = book();
    const other = book(path, sessionKey('t2')).b;
    const code = (await other.invite()).code;
    const id = await other.open();
    expect(await b.spendCode(code)).toBe(false);
    expect(await b.use(id)).toBe(false);
    // What a database writer could insert: the plain SHA-256 of a code it chose.
    const { createHash } = await import('node:crypto');
    await store.addLoginCode(createHash('sha256').update('chosen').digest('base64url'), 2_000_000, 1_000_000);
    expect(await b.spendCode('chosen')).toBe(false);
    await store.addLoginCode(secretDigest(sessionKey('t1'), 'minted'), 2_000_000, 1_000_000);
    expect(await b.spendCode('minted')).toBe(true);
  });

  it('the cookie name carries the port; the signing key comes from the token (same token, same key)', () => {
    expect(sessionCookieName(8642)).toBe('resq-session-8642');
    expect(sessionKey('t1')).toBe(sessionKey('t1'));
    expect(sessionKey('t1')).not.toBe(sessionKey('t2'));
    expect(sessionKey('t1')).not.toContain('t1');
  });
});
