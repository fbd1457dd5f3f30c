import type { BatchRecord, WorkerRecord, WorkerStore } from '../store/index.js';
import { isGoneHere, processStart } from '../local-process.js';

/** What a heartbeat learnt about the batch. */
export interface Beat {
  cancelled: boolean;
  /** The batch's adaptive cap, when a worker lowered it. */
  capLimit: number | null;
  /** Live workers of the batch, this one included. */
  workers: number;
  /** Workers of this host found gone and given up just now (their items are free to take). */
  reaped: number;
}

/**
 * One worker's presence on a batch: registered with its host, pid and process start
 * identity, a heartbeat that renews its leases, and the judgement of other workers'
 * liveness (by heartbeat, or at once on this host when their process is gone: see
 * local-process.ts).
 */
export class Presence {
  readonly #store: WorkerStore;
  readonly #batch: BatchRecord;
  readonly #host: string;
  readonly #pid: number;
  readonly #pidStart: string | null;
  readonly #leaseMs: number;
  #worker: WorkerRecord | null = null;

  /** `pidStart`: the start identity of process `pid` (read from the system when not given). */
  constructor(o: { store: WorkerStore; batch: BatchRecord; host: string; pid: number; pidStart?: string | null; leaseMs: number }) {
    this.#store = o.store;
    this.#batch = o.batch;
    this.#host = o.host;
    this.#pid = o.pid;
    this.#pidStart = o.pidStart !== undefined ? o.pidStart : processStart(o.pid);
    this.#leaseMs = o.leaseMs;
  }

  /** This worker (after {@link register}). */
  get worker(): WorkerRecord {
    if (!this.#worker) throw new Error('worker not registered');
    return this.#worker;
  }

  /** The lease this worker claims with. */
  get lease(): { workerId: string; leaseMs: number } {
    return { workerId: this.worker.id, leaseMs: this.#leaseMs };
  }

  /** Registers; returns the other live workers (after giving up dead local ones). */
  async register(now?: number): Promise<WorkerRecord[]> {
    this.#worker = await this.#store.registerWorker(this.#batch.id, { host: this.#host, pid: this.#pid, pidStart: this.#pidStart }, now);
    await this.reapDeadLocal(now);
    return (await this.#store.liveWorkers(this.#batch.id, this.#leaseMs, now)).filter((w) => w.id !== this.worker.id);
  }

  /** Renews the heartbeat and this worker's leases; counts the live workers (see {@link census}). */
  async beat(now?: number): Promise<Beat> {
    const b = await this.#store.heartbeat(this.lease, now);
    return { ...b, ...(await this.census(now)) };
  }

  /**
   * Live workers of the batch, this one included, after giving up the workers of this host
   * whose process is gone (`reaped`): run on the scheduler's regular tick, it costs the one
   * read of the live workers it makes anyway, and a look at each local worker's process.
   */
  async census(now?: number): Promise<{ workers: number; reaped: number }> {
    const live = await this.#store.liveWorkers(this.#batch.id, this.#leaseMs, now);
    const reaped = await this.#reap(live, now);
    return { workers: Math.max(1, live.length - reaped), reaped };
  }

  /** Other live workers that hold items. */
  async busyOthers(now?: number): Promise<WorkerRecord[]> {
    return (await this.#store.liveWorkers(this.#batch.id, this.#leaseMs, now)).filter((w) => w.id !== this.worker.id && w.items > 0);
  }

  /**
   * Workers on this host whose process is gone (killed, crashed) give their items up at
   * once instead of after their lease: a resume right after a kill -9 re-attaches without
   * waiting. Another host's workers are judged by their heartbeat alone. Returns how many.
   */
  async reapDeadLocal(now?: number): Promise<number> {
    return this.#reap(await this.#store.liveWorkers(this.#batch.id, this.#leaseMs, now), now);
  }

  /** Retires the workers of `live` that are gone (see {@link reapDeadLocal}); returns how many. */
  async #reap(live: readonly WorkerRecord[], now?: number): Promise<number> {
    let n = 0;
    for (const w of live) {
      if (!this.#isGone(w)) continue;
      await this.#store.retireWorker(w.id, now);
      n++;
    }
    return n;
  }

  /** Whether another worker of this host is gone (its process ended, or its pid now names another process). */
  #isGone(w: WorkerRecord): boolean {
    if (w.id === this.worker.id || w.host !== this.#host) return false;
    // Without start identities to compare, a worker with this process's pid is a dead one
    // whose pid this process was given.
    if (w.pid === this.#pid && (w.pidStart === null || this.#pidStart === null)) return true;
    return isGoneHere(w, this.#host);
  }

  /** Leaves: this worker's leases end now. */
  async retire(now?: number): Promise<void> {
    if (this.#worker) await this.#store.retireWorker(this.#worker.id, now);
  }
}
