import { Agent } from 'undici';

/** Connections per shard: undici's pool looks for a free connection by scanning all of its own. */
export const STREAM_SHARD_SIZE = 64;

/**
 * Connections for event streams, in shards of {@link STREAM_SHARD_SIZE}. A stream holds its
 * connection for a run's whole life, so with thousands of runs in flight one undici pool
 * held thousands of busy connections and scanned them all for every new stream (O(n) per
 * stream, O(n²) per batch). Here a stream goes to the least busy shard that has room, and
 * each shard scans at most its own few connections.
 */
export class StreamPools {
  readonly #make: (connections: number) => Agent;
  readonly #max: number;
  readonly #shards: { agent: Agent; active: number }[] = [];

  /** @param max most connections over all shards (the client's `connections`) */
  constructor(make: (connections: number) => Agent, max: number) {
    this.#make = make;
    this.#max = Math.max(1, max);
  }

  /** Shards made so far (for tests and diagnostics). */
  get shards(): number {
    return this.#shards.length;
  }

  /** Takes a connection slot for one stream; release it when the stream ends. */
  acquire(): StreamSlot {
    let best: { agent: Agent; active: number } | null = null;
    for (const s of this.#shards) if (!best || s.active < best.active) best = s;
    // A new shard only when every shard is full, and only up to the client's connections.
    if (!best || (best.active >= STREAM_SHARD_SIZE && this.#shards.length * STREAM_SHARD_SIZE < this.#max)) {
      best = { agent: this.#make(Math.min(STREAM_SHARD_SIZE, this.#max)), active: 0 };
      this.#shards.push(best);
    }
    best.active++;
    return new StreamSlot(best);
  }

  /** Closes every shard. */
  async close(): Promise<void> {
    await Promise.all(this.#shards.map((s) => s.agent.close()));
  }
}

/** One stream's connection slot in its shard: one object, released once (a second release does nothing). */
export class StreamSlot {
  readonly #shard: { agent: Agent; active: number };
  #released = false;

  constructor(shard: { agent: Agent; active: number }) {
    this.#shard = shard;
  }

  /** The shard's dispatcher the stream goes through. */
  get dispatcher(): Agent {
    return this.#shard.agent;
  }

  /** Gives the slot back (when the stream ends). */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#shard.active--;
  }
}
