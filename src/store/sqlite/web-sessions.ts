import { type SessionUse, sessionUse, WEB_SESSION_KEEP_MS } from '../common/web-sessions.js';
import type { Db } from './database.js';

/** The web view's sessions and login codes (migration 025_web_sessions): digests only, times in ms. */
export class WebSessionRepo {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  open(idDigest: string, nowMs: number): void {
    this.#db.prepare('DELETE FROM web_sessions WHERE last_seen_at < ?').run(nowMs - WEB_SESSION_KEEP_MS);
    this.#db.prepare('INSERT INTO web_sessions (id_digest, created_at, last_seen_at) VALUES (?, ?, ?)').run(idDigest, nowMs, nowMs);
  }

  /** What a use at `nowMs` finds (read only). */
  check(idDigest: string, idleMs: number, nowMs: number): SessionUse {
    const row = this.#db.prepare('SELECT last_seen_at AS lastSeenAt, ended_at AS endedAt FROM web_sessions WHERE id_digest = ?').get(idDigest) as
      | { lastSeenAt: number; endedAt: number | null }
      | undefined;
    return sessionUse(row ?? null, idleMs, nowMs);
  }

  /** Writes a use the check allowed; false when the session ended in between. */
  touch(idDigest: string, nowMs: number): boolean {
    return this.#db.prepare('UPDATE web_sessions SET last_seen_at = max(last_seen_at, ?) WHERE id_digest = ? AND ended_at IS NULL').run(nowMs, idDigest).changes === 1;
  }

  end(idDigest: string, nowMs: number): void {
    this.#db.prepare('UPDATE web_sessions SET ended_at = ? WHERE id_digest = ? AND ended_at IS NULL').run(nowMs, idDigest);
  }

  addCode(codeDigest: string, expiresAtMs: number, nowMs: number): void {
    this.#db.prepare('DELETE FROM web_login_codes WHERE expires_at < ?').run(nowMs - WEB_SESSION_KEEP_MS);
    this.#db.prepare('INSERT INTO web_login_codes (code_digest, created_at, expires_at) VALUES (?, ?, ?)').run(codeDigest, nowMs, expiresAtMs);
  }

  spendCode(codeDigest: string, nowMs: number): boolean {
    return this.#db.prepare('UPDATE web_login_codes SET spent_at = ? WHERE code_digest = ? AND spent_at IS NULL AND expires_at >= ?').run(nowMs, codeDigest, nowMs).changes === 1;
  }
}
