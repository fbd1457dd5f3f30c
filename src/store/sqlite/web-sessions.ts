import { type SessionUse, sessionUse, settleSessionUse, WEB_SESSION_KEEP_MS } from '../common/web-sessions.js';
import type { SqliteContext } from './database.js';

// The web view's sessions and login codes (migration 025_web_sessions): digests only, times in ms.

/** Records a new session (dropping those long unused). */
export function openSession(cx: SqliteContext, idDigest: string, nowMs: number): void {
  cx.db.prepare('DELETE FROM web_sessions WHERE last_seen_at < ?').run(nowMs - WEB_SESSION_KEEP_MS);
  cx.db.prepare('INSERT INTO web_sessions (id_digest, created_at, last_seen_at) VALUES (?, ?, ?)').run(idDigest, nowMs, nowMs);
}

/** What a use at `nowMs` finds (read only). */
function checkSession(cx: SqliteContext, idDigest: string, idleMs: number, nowMs: number): SessionUse {
  const row = cx.db.prepare('SELECT last_seen_at AS lastSeenAt, ended_at AS endedAt FROM web_sessions WHERE id_digest = ?').get(idDigest) as
    | { lastSeenAt: number; endedAt: number | null }
    | undefined;
  return sessionUse(row ?? null, idleMs, nowMs);
}

/** Writes a use the check allowed; false when the session ended in between. */
function touchSession(cx: SqliteContext, idDigest: string, nowMs: number): boolean {
  return cx.db.prepare('UPDATE web_sessions SET last_seen_at = max(last_seen_at, ?) WHERE id_digest = ? AND ended_at IS NULL').run(nowMs, idDigest).changes === 1;
}

/** Ends a session. */
export function endSession(cx: SqliteContext, idDigest: string, nowMs: number): void {
  cx.db.prepare('UPDATE web_sessions SET ended_at = ? WHERE id_digest = ? AND ended_at IS NULL').run(nowMs, idDigest);
}

/** Records a login code (dropping those long expired). */
export function addCode(cx: SqliteContext, codeDigest: string, expiresAtMs: number, nowMs: number): void {
  cx.db.prepare('DELETE FROM web_login_codes WHERE expires_at < ?').run(nowMs - WEB_SESSION_KEEP_MS);
  cx.db.prepare('INSERT INTO web_login_codes (code_digest, created_at, expires_at) VALUES (?, ?, ?)').run(codeDigest, nowMs, expiresAtMs);
}

/** Spends a code in one statement: false when it was spent, expired or unknown. */
export function spendCode(cx: SqliteContext, codeDigest: string, nowMs: number): boolean {
  return cx.db.prepare('UPDATE web_login_codes SET spent_at = ? WHERE code_digest = ? AND spent_at IS NULL AND expires_at >= ?').run(nowMs, codeDigest, nowMs).changes === 1;
}

/**
 * Whether a session is live, counting this use: the check a read (`via.read`), its last use
 * written at most once a minute and one found idle ended, each a write (`via.write`).
 */
export async function useSession(
  cx: SqliteContext,
  idDigest: string,
  idleMs: number,
  nowMs: number,
  via: { read<T>(fn: () => T): Promise<T>; write<T>(fn: () => T): Promise<T> },
): Promise<boolean> {
  const use = await via.read(() => checkSession(cx, idDigest, idleMs, nowMs));
  return settleSessionUse(use, { end: () => via.write(() => endSession(cx, idDigest, nowMs)), touch: () => via.write(() => touchSession(cx, idDigest, nowMs)) });
}
