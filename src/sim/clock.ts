/** A wall clock that tests can move forward; timers stay real, only timestamps move. */
export class SimClock {
  #offsetMs = 0;
  /** Called with the new offset after every advance (the state file's journal keeps it). */
  onAdvance: ((offsetMs: number) => void) | null = null;

  /** Current time in ms since the epoch, including every advance. */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** Moves the clock forward by `ms` (negative values are refused). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`clock.advance: ms must be a finite number >= 0, got ${ms}`);
    this.#offsetMs += ms;
    this.onAdvance?.(this.#offsetMs);
  }

  /** How far the clock was moved, for a snapshot. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Puts the offset back from a snapshot. */
  restoreOffset(ms: number): void {
    this.#offsetMs = Math.max(0, ms);
  }

  /** The current time as an ISO 8601 string. */
  iso(): string {
    return new Date(this.now()).toISOString();
  }
}
