/** Wrong tokens or login codes a client address may send in a minute before it waits. */
export const FAILURES_PER_MINUTE = 5;
const MINUTE = 60_000;
/** Most client addresses tracked at once (the oldest goes first). */
const MAX_ADDRESSES = 10_000;

/**
 * Guessing made slow: each client address may get a wrong token or login code
 * {@link FAILURES_PER_MINUTE} times in a sliding minute; then every try with a token or a code
 * from it is refused, without being checked, until the oldest failure is a minute old. The
 * failures are told to `report` in one line at most once a minute (never what was sent).
 */
export class Throttle {
  readonly #now: () => number;
  readonly #report: (line: string) => void;
  readonly #failures = new Map<string, number[]>();
  #unreported = 0;
  readonly #from = new Set<string>();
  #lastReport = -Infinity;

  constructor(o: { now: () => number; report: (line: string) => void }) {
    this.#now = o.now;
    this.#report = o.report;
  }

  /** Seconds `address` must wait before its next try, or 0 when it may try now. */
  waitS(address: string): number {
    const recent = this.#recent(address);
    if (recent.length < FAILURES_PER_MINUTE) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - FAILURES_PER_MINUTE]! + MINUTE - this.#now()) / 1000));
  }

  /** Counts a wrong token or code (or a try refused while waiting) from `address`. */
  fail(address: string, counted = true): void {
    const now = this.#now();
    if (counted) {
      const recent = this.#recent(address);
      recent.push(now);
      this.#failures.delete(address);
      this.#failures.set(address, recent.slice(-FAILURES_PER_MINUTE));
      while (this.#failures.size > MAX_ADDRESSES) this.#failures.delete(this.#failures.keys().next().value!);
    }
    this.#unreported++;
    if (this.#from.size < 5) this.#from.add(address);
    if (now - this.#lastReport >= MINUTE) {
      const n = this.#unreported;
      this.#report(`${n} wrong token${n === 1 ? '' : 's'} or login code${n === 1 ? '' : 's'} ${Number.isFinite(this.#lastReport) ? 'since the last line ' : ''}from ${[...this.#from].join(', ')} (after ${FAILURES_PER_MINUTE} a minute an address waits)`);
      this.#lastReport = now;
      this.#unreported = 0;
      this.#from.clear();
    }
  }

  #recent(address: string): number[] {
    const now = this.#now();
    return (this.#failures.get(address) ?? []).filter((t) => now - t < MINUTE);
  }
}
