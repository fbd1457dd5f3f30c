import { type Clock, systemClock } from '../clock.js';
import { ResqError } from '../errors.js';

/**
 * The one policy both adapters follow when the database fails in passing: a
 * connection reset, refused or timed out, a server starting up, shutting down or shut down by
 * an administrator, a serialization failure or deadlock, a busy SQLite file. The statement —
 * or the transaction, whole — is tried again with a growing pause, up to a bound; the first
 * wait of an outage is said once, with the bound. Never a crash, never an "internal error",
 * never an item's failure: past the bound the operation throws {@link DatabaseWaitError},
 * which stops the worker with the items as stored (a resume carries on).
 */

/** Default bound on waiting out a database that fails in passing, in ms. */
export const DEFAULT_DB_WAIT_MS = 60_000;

/** How long the database was waited on, past its bound: the worker stops, nothing lost. */
export class DatabaseWaitError extends ResqError {
  override readonly code: string = 'RESQ_DATABASE';
  /** The failure that kept coming back (`ECONNRESET`, `57P01`, `SQLITE_BUSY`, …). */
  readonly reason: string;
  constructor(message: string, reason: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/** Options of a {@link DbWait}. */
export interface DbWaitOptions {
  /** The bound on one outage, in ms. @default DEFAULT_DB_WAIT_MS */
  waitMs?: number;
  /** Told once per outage, in a line for a person, when an operation starts waiting. */
  onWait?: (message: string) => void;
  clock?: Clock;
}

/** Pause before the `attempt`-th try again: 25 ms doubling to 1 s, with jitter. */
export function waitDelayMs(attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(1000, 25 * 2 ** attempt);
  return Math.floor(cap / 2 + (random() * cap) / 2);
}

/**
 * Waits out transient failures of one database. An outage starts at the first failure of any
 * operation and ends when no operation that failed is still trying: operations failing
 * together share its bound and its one message.
 */
export class DbWait {
  readonly #where: string;
  readonly #waitMs: number;
  readonly #clock: Clock;
  readonly #onWait: ((message: string) => void) | undefined;
  /** When the outage began (ms), or null while the database answers. */
  #since: number | null = null;
  #said = false;
  /** Operations now between a failure and their end: the outage lasts while any is. */
  #waiting = 0;

  /** `where`: the database as it may be printed (a URL's password masked). */
  constructor(where: string, o: DbWaitOptions = {}) {
    this.#where = where;
    this.#waitMs = o.waitMs ?? DEFAULT_DB_WAIT_MS;
    this.#clock = o.clock ?? systemClock;
    this.#onWait = o.onWait;
  }

  /** The bound as a person reads it. */
  get bound(): string {
    return `${Math.round(this.#waitMs / 1000)} s`;
  }

  /**
   * Runs `fn` until it succeeds or fails for good. `transient` names a failure worth waiting
   * out (its code), or returns null for one that is not (thrown at once).
   */
  async run<T>(fn: () => Promise<T>, transient: (e: unknown) => string | null): Promise<T> {
    let failed = false;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          return await fn();
        } catch (e) {
          const reason = transient(e);
          if (reason === null) throw e;
          if (!failed) this.#waiting++;
          failed = true;
          await this.#pause(e, reason, attempt);
        }
      }
    } finally {
      if (failed && --this.#waiting === 0) {
        this.#since = null;
        this.#said = false;
      }
    }
  }

  /** One failure more of an outage: the pause before trying again, or the end of the wait. */
  async #pause(e: unknown, reason: string, attempt: number): Promise<void> {
    const now = this.#clock.now();
    this.#since ??= now;
    const waited = now - this.#since;
    if (waited >= this.#waitMs) {
      const msg = e instanceof Error ? e.message : String(e);
      throw new DatabaseWaitError(
        `the database ${this.#where} failed for ${this.bound} (${reason}: ${msg}); stopped with every item as stored: resume when it answers again`,
        reason,
        { cause: e },
      );
    }
    if (!this.#said) {
      this.#said = true;
      this.#onWait?.(`the database ${this.#where} failed (${reason}): waiting for it up to ${this.bound}`);
    }
    await this.#clock.sleep(Math.min(waitDelayMs(attempt), this.#waitMs - waited));
  }
}
