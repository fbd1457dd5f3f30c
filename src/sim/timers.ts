import { TimerHeap } from './timer-heap.js';

/**
 * Every timer the simulator starts goes through here, so that `close()` can clear them all
 * and a test process exits promptly. Timers are unref'd: the listening server alone keeps
 * a `resq sim` process alive.
 */
export class TimerSet {
  #timers = new Set<NodeJS.Timeout>();
  #closed = false;
  readonly #heap = new TimerHeap();

  /**
   * Calls `fn` at `due` (a performance.now() time). Cheaper than {@link timeout} when many are
   * pending (one Node timer for all of them) but cannot be cleared: `fn` checks whether it is
   * still wanted. Does nothing once closed.
   */
  at(due: number, fn: () => void): void {
    this.#heap.at(due, fn);
  }

  /** Like setTimeout; returns the handle for {@link clear}. Does nothing once closed. */
  timeout(fn: () => void, ms: number): NodeJS.Timeout | undefined {
    if (this.#closed) return undefined;
    const t = setTimeout(() => {
      this.#timers.delete(t);
      fn();
    }, Math.max(0, ms));
    t.unref();
    this.#timers.add(t);
    return t;
  }

  /** Like setInterval. Does nothing once closed. */
  interval(fn: () => void, ms: number): NodeJS.Timeout | undefined {
    if (this.#closed) return undefined;
    const t = setInterval(fn, ms);
    t.unref();
    this.#timers.add(t);
    return t;
  }

  /** A promise that resolves after `ms` (or at once when closed). */
  delay(ms: number): Promise<void> {
    if (this.#closed || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      if (!this.timeout(resolve, ms)) resolve();
    });
  }

  /** Clears one timer or interval. */
  clear(t: NodeJS.Timeout | undefined): void {
    if (!t) return;
    clearTimeout(t);
    this.#timers.delete(t);
  }

  /** Clears everything and refuses new timers. */
  closeAll(): void {
    this.#closed = true;
    this.#heap.close();
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }

  /** Whether {@link closeAll} has run. */
  get isClosed(): boolean {
    return this.#closed;
  }
}
