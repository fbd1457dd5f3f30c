import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  systemClock
} from "./chunk-64FYAIQV.mjs";
import {
  ResqError
} from "./chunk-4EMWZ36I.mjs";

// src/store/db-wait.ts
var DEFAULT_DB_WAIT_MS = 6e4;
var DatabaseWaitError = class extends ResqError {
  code = "RESQ_DATABASE";
  /** The failure that kept coming back (`ECONNRESET`, `57P01`, `SQLITE_BUSY`, …). */
  reason;
  constructor(message, reason, options) {
    super(message, options);
    this.reason = reason;
  }
};
function waitDelayMs(attempt, random = Math.random) {
  const cap = Math.min(1e3, 25 * 2 ** attempt);
  return Math.floor(cap / 2 + random() * cap / 2);
}
var DbWait = class {
  #where;
  #waitMs;
  #clock;
  #onWait;
  /** When the outage began (ms), or null while the database answers. */
  #since = null;
  #said = false;
  /** Operations now between a failure and their end: the outage lasts while any is. */
  #waiting = 0;
  /** `where`: the database as it may be printed (a URL's password masked). */
  constructor(where, o = {}) {
    this.#where = where;
    this.#waitMs = o.waitMs ?? DEFAULT_DB_WAIT_MS;
    this.#clock = o.clock ?? systemClock;
    this.#onWait = o.onWait;
  }
  /** The bound as a person reads it. */
  get bound() {
    return `${Math.round(this.#waitMs / 1e3)} s`;
  }
  /**
   * Runs `fn` until it succeeds or fails for good. `transient` names a failure worth waiting
   * out (its code), or returns null for one that is not (thrown at once).
   */
  async run(fn, transient) {
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
  async #pause(e, reason, attempt) {
    const now = this.#clock.now();
    this.#since ??= now;
    const waited = now - this.#since;
    if (waited >= this.#waitMs) {
      const msg = e instanceof Error ? e.message : String(e);
      throw new DatabaseWaitError(
        `the database ${this.#where} failed for ${this.bound} (${reason}: ${msg}); stopped with every item as stored: resume when it answers again`,
        reason,
        { cause: e }
      );
    }
    if (!this.#said) {
      this.#said = true;
      this.#onWait?.(`the database ${this.#where} failed (${reason}): waiting for it up to ${this.bound}`);
    }
    await this.#clock.sleep(Math.min(waitDelayMs(attempt), this.#waitMs - waited));
  }
};

export {
  DEFAULT_DB_WAIT_MS,
  DatabaseWaitError,
  DbWait
};
//# sourceMappingURL=chunk-LX2MAEXG.mjs.map
