/**
 * One cap over several batches run by one process: a batch's answers and its agent judge's
 * judgings (`<batch>.judge`) take their runs in flight from the same slots, so judging as each
 * item completes never puts more runs at the service than the batch's concurrency.
 *
 * A member marked `first` (the judge) is served before the others: slots it has work waiting
 * for (`want`) are kept from the other members, so a judging starts as soon as a slot frees,
 * not once every answer has been sent.
 */
export class SharedSlots {
  readonly #limit: () => number;
  readonly #members = new Set<Member>();

  /** `limit`: the most runs in flight over all members (read at each claim: the cap moves). */
  constructor(limit: () => number) {
    this.#limit = limit;
  }

  /** Runs in flight over all members now, and slots taken for claims under way. */
  get inUse(): number {
    let n = 0;
    for (const m of this.#members) n += m.inFlight() + m.taken;
    return n;
  }

  /** Work the first members wait to start (kept from the others' claims). */
  get #wanted(): number {
    let n = 0;
    for (const m of this.#members) if (m.first) n += m.wanted;
    return n;
  }

  /**
   * A scheduler takes part: `inFlight` reads its runs in flight (and those waiting to be
   * retried: they keep their slots), `wake` starts its next look for work.
   */
  join(o: { first?: boolean; inFlight: () => number; wake: () => void }): SlotMember {
    const m = new Member(this, o.first ?? false, o.inFlight, o.wake);
    this.#members.add(m);
    return m;
  }

  /** @internal Slots `m` may claim now. */
  freeFor(m: Member): number {
    const kept = m.first ? 0 : this.#wanted;
    return Math.max(0, this.#limit() - this.inUse - kept);
  }

  /** @internal A slot of `from` came free, or a first member gave up its wants: the others look again. */
  wakeOthers(from: Member): void {
    for (const m of this.#members) if (m !== from) m.wake();
  }

  /** @internal */
  leave(m: Member): void {
    this.#members.delete(m);
    this.wakeOthers(m);
  }
}

/** One scheduler's part in {@link SharedSlots}. */
export interface SlotMember {
  /** Slots this member may claim now. */
  free(): number;
  /**
   * Takes up to `n` free slots for a claim under way (another member's claim meanwhile cannot
   * have them); returns how many. Give them back with {@link settle} once the claimed items
   * count as in flight.
   */
  take(n: number): number;
  /** The claim for `taken` slots is over: `got` items started; `dry`: fewer than it asked for (nothing more waits for it). */
  settle(taken: number, got: number, dry: boolean): void;
  /** `n` more items of this member's batch wait to be claimed (a first member's are kept slots). */
  want(n: number): void;
  /** One of this member's slots came free. */
  freed(): void;
  /** The member's scheduler ended. */
  leave(): void;
}

class Member implements SlotMember {
  wanted = 0;
  /** Slots taken for claims under way. */
  taken = 0;
  readonly pool: SharedSlots;
  readonly first: boolean;
  readonly inFlight: () => number;
  readonly wake: () => void;
  constructor(pool: SharedSlots, first: boolean, inFlight: () => number, wake: () => void) {
    this.pool = pool;
    this.first = first;
    this.inFlight = inFlight;
    this.wake = wake;
  }

  free(): number {
    return this.pool.freeFor(this);
  }

  want(n: number): void {
    if (n <= 0) return;
    this.wanted += n;
    this.wake();
  }

  take(n: number): number {
    const got = Math.max(0, Math.min(n, this.free()));
    this.taken += got;
    return got;
  }

  settle(taken: number, got: number, dry: boolean): void {
    this.taken -= taken;
    // A dry claim: the rest went to another worker (or is not claimable yet): nothing is kept for it.
    if (this.wanted > 0) this.wanted = dry ? 0 : Math.max(0, this.wanted - got);
    if (got < taken) this.pool.wakeOthers(this);
  }

  freed(): void {
    this.pool.wakeOthers(this);
  }

  leave(): void {
    this.wanted = 0;
    this.pool.leave(this);
  }
}
