/**
 * The web sessions role: `resq serve`'s browser sessions and one-time login codes, kept by their
 * digests only (never a raw id or code), so that a sign-out, an idle expiry or a spent code holds
 * across restarts and for every `resq serve` on the database. Times are the caller's clock (ms).
 */
export interface WebSessionStore {
  /** Records a new session, live from `nowMs`; sessions and codes long dead are dropped on the way. */
  openWebSession(idDigest: string, nowMs: number): Promise<void>;
  /**
   * Whether a session is live at `nowMs` — known, not ended, used within `idleMs` — counting this
   * use. One found idle is ended for good; an unknown one is refused.
   */
  useWebSession(idDigest: string, idleMs: number, nowMs: number): Promise<boolean>;
  /** Ends a session for good (signed out, or replaced by a new login). */
  endWebSession(idDigest: string, nowMs: number): Promise<void>;
  /** Records a one-time login code (a start's link, an invitation), live until `expiresAtMs`. */
  addLoginCode(codeDigest: string, expiresAtMs: number, nowMs: number): Promise<void>;
  /** Spends a login code: true once, for a live one; false for a spent, expired or unknown one. */
  spendLoginCode(codeDigest: string, nowMs: number): Promise<boolean>;
}
