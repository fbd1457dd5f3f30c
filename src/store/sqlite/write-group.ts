import { isBusy, isFull, retryBusy } from './busy.js';
import type { DbWait } from '../db-wait.js';

interface Pending {
  fn: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/** A write's result, or what it threw (`failed`: tslab's older TypeScript does not narrow on a boolean tag). */
interface Outcome {
  failed: boolean;
  value: unknown;
}

/** Thrown out of a plain attempt to roll it back (see WriteGroup.#run). */
const ONE_THREW = Symbol('one write threw');

/** What a group needs from the database: an IMMEDIATE transaction and a savepoint inside it. */
export interface GroupTx {
  /** Runs `fn` in one IMMEDIATE transaction (BEGIN … COMMIT). */
  transaction(fn: () => void): void;
  /** Runs `fn` in a savepoint of the open transaction: rolled back alone when it throws. */
  savepoint<T>(fn: () => T): T;
}

/**
 * Group commit. The writes asked for in one turn of the event loop (ten thousand runs in
 * flight end, start and are claimed in bursts) share one IMMEDIATE transaction; one that
 * throws (a lost lease) is rolled back alone (the group runs again with a savepoint per
 * write) and rejects alone, while the others commit together. A caller's promise settles
 * only after COMMIT, so nobody acts on a change that is not durable, and each change is
 * still whole (all of its statements or none). BEGIN/COMMIT, the WAL append and the checkpoints they bring were
 * the largest single cost of a run in flight (three transactions per run); grouped, a burst
 * pays them once. A busy database fails the whole group before anything is kept: it is
 * waited on and the group runs again.
 */
export class WriteGroup {
  readonly #tx: GroupTx;
  readonly #sleep: ((ms: number) => Promise<void>) | DbWait;
  #queue: Pending[] = [];
  #scheduled: NodeJS.Immediate | null = null;
  /** Groups taken from the queue and not settled yet (one waiting out a busy file, say). */
  readonly #flushing = new Set<Promise<void>>();

  /** `sleep`: the pause between tries of a busy file, or the store's bounded wait (db-wait.ts). */
  constructor(tx: GroupTx, sleep: ((ms: number) => Promise<void>) | DbWait) {
    this.#tx = tx;
    this.#sleep = sleep;
  }

  /** Runs `fn` in the next group's transaction; settles with its result after COMMIT. */
  write<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      this.#scheduled ??= setImmediate(() => void this.#flush());
    });
  }

  /** Writes still waiting for their group. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Runs the waiting writes now and settles every group (before the database closes). */
  async drain(): Promise<void> {
    while (this.#queue.length > 0 || this.#flushing.size > 0) {
      if (this.#queue.length > 0) void this.#flush();
      await Promise.all(this.#flushing);
    }
  }

  #flush(): Promise<void> {
    if (this.#scheduled) clearImmediate(this.#scheduled);
    this.#scheduled = null;
    const group = this.#queue;
    this.#queue = [];
    if (group.length === 0) return Promise.resolve();
    const settled = this.#settle(group).finally(() => this.#flushing.delete(settled));
    this.#flushing.add(settled);
    return settled;
  }

  async #settle(group: readonly Pending[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await retryBusy(() => this.#run(group), this.#sleep);
    } catch (error) {
      // BEGIN or COMMIT failed for another reason than a busy file: nothing was kept.
      for (const p of group) p.reject(error);
      return;
    }
    for (let i = 0; i < group.length; i++) {
      const o = outcomes[i]!;
      if (o.failed) group[i]!.reject(o.value);
      else group[i]!.resolve(o.value);
    }
  }

  /**
   * Runs the group in one transaction. Writes rarely throw (a lost lease), so the group is
   * first run plainly; when one throws, that attempt is rolled back whole and the group runs
   * again with each write in a savepoint of its own (two statements more per write).
   */
  #run(group: readonly Pending[]): Outcome[] {
    try {
      return this.#attempt(group, false);
    } catch (e) {
      if (e !== ONE_THREW) throw e;
      return this.#attempt(group, true);
    }
  }

  #attempt(group: readonly Pending[], savepoints: boolean): Outcome[] {
    const outcomes: Outcome[] = new Array(group.length);
    this.#tx.transaction(() => {
      for (let i = 0; i < group.length; i++) {
        try {
          outcomes[i] = { failed: false, value: savepoints ? this.#tx.savepoint(group[i]!.fn) : group[i]!.fn() };
        } catch (error) {
          // A busy statement fails the group: rolled back whole and run again. A full database
          // fails it whole too (SQLite may have rolled the transaction back already): nothing kept.
          if (isBusy(error) || isFull(error)) throw error;
          if (!savepoints) throw ONE_THREW;
          outcomes[i] = { failed: true, value: error };
        }
      }
    });
    return outcomes;
  }

}
