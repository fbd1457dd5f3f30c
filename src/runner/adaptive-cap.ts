/**
 * The in-flight cap under back-pressure: halve on a 429 (at most once per `coolDownMs`),
 * grow by one for every `current` admissions (additive increase), never above `max`
 * nor below 1. Pure state: the runner reads `current` before each admission.
 */
export class AdaptiveCap {
  readonly max: number;
  #current: number;
  #credit = 0;
  #lastCut = -Infinity;
  readonly #coolDownMs: number;

  constructor(max: number, coolDownMs = 1000) {
    this.max = Math.max(1, Math.floor(max));
    this.#current = this.max;
    this.#coolDownMs = coolDownMs;
  }

  /** The cap now. */
  get current(): number {
    return this.#current;
  }

  /** The service said too many (429): halve the cap, once per cool-down. Returns whether it moved. */
  throttled(now: number): boolean {
    if (now - this.#lastCut < this.#coolDownMs || this.#current === 1) return false;
    this.#lastCut = now;
    this.#current = Math.max(1, Math.floor(this.#current / 2));
    this.#credit = 0;
    return true;
  }

  /** An admission went through: creep back towards the maximum. */
  /** Takes a lower cap another worker of the batch set (after its own 429s). Returns whether it changed. */
  lowerTo(cap: number): boolean {
    const n = Math.max(1, Math.min(this.max, Math.floor(cap)));
    if (n >= this.#current) return false;
    this.#current = n;
    this.#credit = 0;
    return true;
  }

  admitted(): void {
    if (this.#current >= this.max) return;
    this.#credit += 1;
    if (this.#credit >= this.#current) {
      this.#credit = 0;
      this.#current += 1;
    }
  }
}
