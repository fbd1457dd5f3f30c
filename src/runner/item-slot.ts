import type { StepContext } from './scheduler-options.js';

/** What an item's slot tells its scheduler (one object per scheduler, shared by every slot). */
export interface SlotHost {
  /** The service admitted a request (the adaptive cap). */
  admitted(): void;
  /** The item's run ended before its outcome is stored: the store still counts the item. */
  endedEarly(itemId: string): void;
  /** The slot is free: the next item may be claimed. */
  freed(): void;
  /** A run taken over is being read again at the service ({@link StepContext.rereading}). */
  rereading(): void;
  /** That count ended: the run was found still going, or the item's drive ended. */
  reread(): void;
}

/**
 * One item's place among the runs in flight, and its step's context: one object per item
 * with its state in fields and its behaviour on the prototype, where closures per item
 * (release, early release, admitted) were kept for each run's whole life.
 */
export class ItemSlot implements StepContext {
  readonly signal: AbortSignal;
  readonly fresh: boolean;
  readonly #host: SlotHost;
  readonly #itemId: string;
  /** A thread's next item follows this one in its slot, so thread items hold theirs to the end. */
  readonly #holdToEnd: boolean;
  #released = false;
  /** Released when its run ended, before its outcome was stored. */
  #early = false;
  /** Its run, taken over, is being read again (counted by the host until found going or the drive ends). */
  #rereading = false;

  constructor(host: SlotHost, item: { id: string; threadKey: string | null }, signal: AbortSignal, fresh: boolean) {
    this.#host = host;
    this.#itemId = item.id;
    this.#holdToEnd = Boolean(item.threadKey);
    this.signal = signal;
    this.fresh = fresh;
  }

  /** Whether the slot went early (its item is among the ended ones whose outcome is not stored yet). */
  get early(): boolean {
    return this.#early;
  }

  admitted(): void {
    this.#host.admitted();
  }

  /**
   * The item's run has ended at the service but its outcome is not stored yet: the next
   * claim may use the slot now (the store counts the item until the outcome is written).
   * A thread item keeps its slot.
   */
  release(): void {
    if (this.#released || this.#holdToEnd) return;
    this.#early = true;
    this.#host.endedEarly(this.#itemId);
    this.free();
  }

  rereading(): void {
    if (this.#rereading) return;
    this.#rereading = true;
    this.#host.rereading();
  }

  /** Ends the count of a read again (once); the drive's end calls it too. */
  reread(): void {
    if (!this.#rereading) return;
    this.#rereading = false;
    this.#host.reread();
  }

  /** Frees the slot (once). */
  free(): void {
    if (this.#released) return;
    this.#released = true;
    this.#host.freed();
  }
}
