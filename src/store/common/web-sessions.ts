/**
 * A session's last use is written at most this often: a page's every request need not be a
 * write, and an idle limit of hours is kept to within a minute.
 */
export const SESSION_TOUCH_MS = 60_000;

/** Sessions unused and codes expired this long ago are dropped (any idle limit is far below it). */
export const WEB_SESSION_KEEP_MS = 30 * 86_400_000;

/** What a session's row says about a use at `nowMs`: refused, live as it is, live with its last use to write, or to end now. */
export type SessionUse = 'refused' | 'live' | 'touch' | 'end';

/** The one rule for a session's use, both adapters' (pure). */
export function sessionUse(row: { lastSeenAt: number; endedAt: number | null } | null, idleMs: number, nowMs: number): SessionUse {
  if (row === null || row.endedAt !== null) return 'refused';
  if (nowMs - row.lastSeenAt > idleMs) return 'end';
  return nowMs - row.lastSeenAt >= SESSION_TOUCH_MS ? 'touch' : 'live';
}

/** Carries out a {@link SessionUse} with an adapter's writes: true when the session is live. */
export async function settleSessionUse(use: SessionUse, write: { end(): Promise<void>; touch(): Promise<boolean> }): Promise<boolean> {
  if (use === 'end') await write.end();
  if (use !== 'touch') return use === 'live';
  return write.touch();
}
