import type { ItemState } from '../store/index.js';
import type { StateCounts } from './events.js';

/**
 * Item counts by state kept in memory from the transitions the runner makes, so that a
 * progress update costs nothing however large the batch; re-read from the store now and
 * then to take in changes made by other processes (`resq answer`).
 */
export class StateTally {
  #counts: StateCounts;
  readonly #known = new Map<string, ItemState>();

  constructor(initial: StateCounts) {
    this.#counts = { ...initial };
  }

  /** The counts now (a copy). */
  get counts(): StateCounts {
    return { ...this.#counts };
  }

  /** Remembers the state an item was in when the runner took it. */
  track(id: string, state: ItemState): void {
    this.#known.set(id, state);
  }

  /** Forgets an item the runner let go. */
  untrack(id: string): void {
    this.#known.delete(id);
  }

  /** Moves a tracked item to a new state. */
  move(id: string, to: ItemState): void {
    const from = this.#known.get(id);
    if (from === undefined || from === to) return;
    this.#counts[from] = Math.max(0, this.#counts[from] - 1);
    this.#counts[to] += 1;
    this.#known.set(id, to);
  }

  /** Replaces the counts with a fresh reading from the store. */
  reset(counts: StateCounts): void {
    this.#counts = { ...counts };
  }
}
