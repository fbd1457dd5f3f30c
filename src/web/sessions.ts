import { createHmac, randomBytes } from 'node:crypto';
import type { WebSessionStore } from '../store/index.js';

/** How long a login code printed at start (or made by {@link SessionBook.newCode}) may wait for its visit. */
export const CODE_MS = 5 * 60_000;
/** How long a session may stay unused: a working day. */
export const SESSION_IDLE_MS = 8 * 60 * 60_000;
/** How long an invitation waits for its visit unless told: a day. */
export const INVITE_MS = 24 * 60 * 60_000;
/** The longest an invitation may wait: 30 days. */
export const INVITE_MAX_MS = 30 * 24 * 60 * 60_000;

/** 128 random bits, URL-safe. */
const secret = (): string => randomBytes(16).toString('base64url');

/** The cookie of this server's sessions: its name carries the port, so two servers on one host never share it. */
export function sessionCookieName(port: number): string {
  return `resq-session-${port}`;
}

/**
 * The key that signs session cookies, derived from the token: a fixed `RESQ_SERVE_TOKEN`
 * lets a session outlive a restart (and be taken by another server on the database), a new
 * token (the default) makes every earlier cookie unreadable.
 */
export function sessionKey(token: string): string {
  return createHmac('sha256', token).update('resq serve session v1').digest('base64url');
}

/** A one-time code made for someone, and until when it lets them in. */
export interface LoginCode {
  code: string;
  expiresAt: Date;
}

/**
 * What the store keeps of a session id or code: its HMAC-SHA256 under the session key, so the
 * database holds no secret, and whoever can write it but has not the token cannot mint a code.
 */
export function secretDigest(key: string, secret: string): string {
  return createHmac('sha256', key).update(secret, 'utf8').digest('base64url');
}

/**
 * Login codes and sessions, kept in the store by keyed digest only (never a raw id or code), so
 * a sign-out, an idle expiry or a spent code holds across restarts and for every `resq serve` on
 * the database with the same token. A code is spent by its first use and dies unused when its time is up; a
 * session ends when signed out, replaced by a new login, or after {@link SESSION_IDLE_MS} unused.
 */
export class SessionBook {
  readonly #store: WebSessionStore;
  readonly #now: () => number;
  /** Codes handed out but perhaps not yet written: a spend waits for them. */
  readonly #writing = new Set<Promise<void>>();
  readonly #onError: (e: unknown) => void;
  readonly #key: string;

  /** `key`: the session key ({@link sessionKey} of the token) the digests are made with. */
  constructor(o: { store: WebSessionStore; key: string; now: () => number; onError?: (e: unknown) => void }) {
    this.#store = o.store;
    this.#key = o.key;
    this.#now = o.now;
    this.#onError = o.onError ?? (() => undefined);
  }

  #digest(secret: string): string {
    return secretDigest(this.#key, secret);
  }

  /** A one-time login code that lets its first visitor in within `lifeMs`, once written. */
  async invite(lifeMs = INVITE_MS): Promise<LoginCode> {
    const code = secret();
    const now = this.#now();
    await this.#store.addLoginCode(this.#digest(code), now + lifeMs, now);
    return { code, expiresAt: new Date(now + lifeMs) };
  }

  /**
   * A new login code for the next {@link CODE_MS}, at once (a link to print): it is written
   * in the background, and {@link spendCode} and {@link written} wait for the write.
   */
  newCode(): string {
    const code = secret();
    const now = this.#now();
    const w = this.#store.addLoginCode(this.#digest(code), now + CODE_MS, now).catch(this.#onError);
    this.#writing.add(w);
    void w.finally(() => this.#writing.delete(w));
    return code;
  }

  /** Resolves once every code handed out is written. */
  async written(): Promise<void> {
    await Promise.all([...this.#writing]);
  }

  /** Spends a code: true once, for a live code; false for a spent, expired or unknown one. */
  async spendCode(code: string): Promise<boolean> {
    await this.written();
    return this.#store.spendLoginCode(this.#digest(code), this.#now());
  }

  /** A new session id (128 random bits), live from now. */
  async open(): Promise<string> {
    const id = secret();
    await this.#store.openWebSession(this.#digest(id), this.#now());
    return id;
  }

  /** Whether a session (its cookie's signature already checked) is live, counting this use. */
  use(id: string): Promise<boolean> {
    return this.#store.useWebSession(this.#digest(id), SESSION_IDLE_MS, this.#now());
  }

  /** Ends a session for good (signed out, or replaced by a new login). */
  end(id: string): Promise<void> {
    return this.#store.endWebSession(this.#digest(id), this.#now());
  }
}
