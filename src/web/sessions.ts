import { createHash, createHmac, randomBytes } from 'node:crypto';

/** How long a login code may wait for its visit. */
export const CODE_MS = 5 * 60_000;
/** How long a session may stay unused: a working day. */
export const SESSION_IDLE_MS = 8 * 60 * 60_000;
/** Most sessions and codes held at once (the oldest idle one goes first). */
const MAX_SESSIONS = 10_000;
const MAX_CODES = 100;

const digest = (s: string): string => createHash('sha256').update(s, 'utf8').digest('base64url');

/** The cookie of this server's sessions: its name carries the port, so two servers on one host never share it. */
export function sessionCookieName(port: number): string {
  return `resq-session-${port}`;
}

/**
 * The key that signs session cookies, derived from the token: a fixed `RESQ_SERVE_TOKEN`
 * keeps sessions across restarts, a new token (the default) ends them all.
 */
export function sessionKey(token: string): string {
  return createHmac('sha256', token).update('resq serve session v1').digest('base64url');
}

/**
 * Login codes and sessions, in memory only (no secret reaches the database or a file). A code
 * is spent by its first use and dies unused after {@link CODE_MS}; a session ends when signed
 * out or after {@link SESSION_IDLE_MS} unused. Codes and session ids are kept only as digests.
 */
export class SessionBook {
  readonly #now: () => number;
  readonly #codes = new Map<string, number>();
  /** Session digest → last use (ms); insertion order is refreshed on use, so the first is the idlest. */
  readonly #sessions = new Map<string, number>();
  /** Sessions ended here (signed out, idle): a signed cookie of one is refused until restart. */
  readonly #ended = new Set<string>();

  constructor(o: { now: () => number }) {
    this.#now = o.now;
  }

  /** A new one-time login code (128 random bits). */
  newCode(): string {
    const code = randomBytes(16).toString('base64url');
    this.#codes.set(digest(code), this.#now() + CODE_MS);
    while (this.#codes.size > MAX_CODES) this.#codes.delete(this.#codes.keys().next().value!);
    return code;
  }

  /** Spends a code: true once, for a live code; false for a spent, expired or unknown one. */
  spendCode(code: string): boolean {
    const d = digest(code);
    const until = this.#codes.get(d);
    if (until === undefined) return false;
    this.#codes.delete(d);
    return this.#now() <= until;
  }

  /** A new session id (128 random bits), live from now. */
  open(): string {
    const id = randomBytes(16).toString('base64url');
    this.#touch(digest(id));
    return id;
  }

  /**
   * Whether a session (its cookie's signature already checked) is live, counting this use. A
   * signed id this process does not know is one of a previous run with the same token: taken up.
   */
  use(id: string): boolean {
    const d = digest(id);
    if (this.#ended.has(d)) return false;
    const last = this.#sessions.get(d);
    if (last !== undefined && this.#now() - last > SESSION_IDLE_MS) {
      this.#end(d);
      return false;
    }
    this.#touch(d);
    return true;
  }

  /** Ends a session (sign out). */
  end(id: string): void {
    this.#end(digest(id));
  }

  #touch(d: string): void {
    this.#sessions.delete(d);
    this.#sessions.set(d, this.#now());
    while (this.#sessions.size > MAX_SESSIONS) this.#end(this.#sessions.keys().next().value!);
  }

  #end(d: string): void {
    this.#sessions.delete(d);
    this.#ended.add(d);
    while (this.#ended.size > MAX_SESSIONS * 10) this.#ended.delete(this.#ended.values().next().value!);
  }
}
