import { sessionUse, settleSessionUse, WEB_SESSION_KEEP_MS } from '../common/web-sessions.js';
import type { Queryable } from './pool.js';
import { one } from './sql.js';

// The web view's sessions and login codes (migration 025_web_sessions): digests only, times in ms
// from the caller's clock. Plain statements (not prepared by name): a login is rare, and a use is one read.

/** Records a new session (dropping those long unused) in one statement. */
export async function openSession(c: Queryable, idDigest: string, nowMs: number): Promise<void> {
  await c.query(
    `WITH gone AS (DELETE FROM web_sessions WHERE last_seen_at < $3)
     INSERT INTO web_sessions (id_digest, created_at, last_seen_at) VALUES ($1, $2, $2)`,
    [idDigest, nowMs, nowMs - WEB_SESSION_KEEP_MS],
  );
}

/** Whether a session is live, counting this use (its last use written at most once a minute; one found idle ended). */
export async function useSession(c: Queryable, idDigest: string, idleMs: number, nowMs: number): Promise<boolean> {
  const row = await one<{ last_seen_at: string; ended_at: string | null }>(c, 'SELECT last_seen_at, ended_at FROM web_sessions WHERE id_digest = $1', [idDigest]);
  const use = sessionUse(row && { lastSeenAt: Number(row.last_seen_at), endedAt: row.ended_at === null ? null : Number(row.ended_at) }, idleMs, nowMs);
  return settleSessionUse(use, {
    end: () => endSession(c, idDigest, nowMs),
    touch: async () => (await c.query('UPDATE web_sessions SET last_seen_at = GREATEST(last_seen_at, $1) WHERE id_digest = $2 AND ended_at IS NULL', [nowMs, idDigest])).rowCount === 1,
  });
}

export async function endSession(c: Queryable, idDigest: string, nowMs: number): Promise<void> {
  await c.query('UPDATE web_sessions SET ended_at = $1 WHERE id_digest = $2 AND ended_at IS NULL', [nowMs, idDigest]);
}

/** Records a one-time login code (dropping those long expired) in one statement. */
export async function addCode(c: Queryable, codeDigest: string, expiresAtMs: number, nowMs: number): Promise<void> {
  await c.query(
    `WITH gone AS (DELETE FROM web_login_codes WHERE expires_at < $4)
     INSERT INTO web_login_codes (code_digest, created_at, expires_at) VALUES ($1, $2, $3)`,
    [codeDigest, nowMs, expiresAtMs, nowMs - WEB_SESSION_KEEP_MS],
  );
}

/** Spends a code in one statement: the first of two servers at once wins it. */
export async function spendCode(c: Queryable, codeDigest: string, nowMs: number): Promise<boolean> {
  const r = await c.query('UPDATE web_login_codes SET spent_at = $1 WHERE code_digest = $2 AND spent_at IS NULL AND expires_at >= $1', [nowMs, codeDigest]);
  return r.rowCount === 1;
}
