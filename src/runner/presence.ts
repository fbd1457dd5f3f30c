import type { BatchRecord, WorkerRecord, WorkerStore } from '../store/index.js';

/** What a heartbeat learnt about the batch. */
export interface Beat {
  cancelled: boolean;
  /** The batch's adaptive cap, when a worker lowered it. */
  capLimit: number | null;
  /** Live workers of the batch, this one included. */
  workers: number;
}

/**
 * One worker's presence on a batch: registered with its host and pid, a heartbeat that
 * renews its leases, and the judgement of other workers' liveness (by heartbeat, or at
 * once on this host when their process is gone).
 */
export class Presence {
  readonly #store: WorkerStore;
  readonly #batch: BatchRecord;
  readonly #host: string;
  readonly #pid: number;
  readonly #leaseMs: number;
  #worker: WorkerRecord | null = null;

  constructor(o: { store: WorkerStore; batch: BatchRecord; host: string; pid: number; leaseMs: number }) {
    this.#store = o.store;
    this.#batch = o.batch;
    this.#host = o.host;
    this.#pid = o.pid;
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
    this.#worker = await this.#store.registerWorker(this.#batch.id, { host: this.#host, pid: this.#pid }, now);
    await this.reapDeadLocal(now);
    return (await this.#store.liveWorkers(this.#batch.id, this.#leaseMs, now)).filter((w) => w.id !== this.worker.id);
  }

  /** Renews the heartbeat and this worker's leases. */
  async beat(now?: number): Promise<Beat> {
    const b = await this.#store.heartbeat(this.lease, now);
    return { ...b, workers: await this.countLive(now) };
  }

  /** Live workers of the batch, this one included. */
  async countLive(now?: number): Promise<number> {
    return Math.max(1, (await this.#store.liveWorkers(this.#batch.id, this.#leaseMs, now)).length);
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
    let n = 0;
    for (const w of await this.#store.liveWorkers(this.#batch.id, this.#leaseMs, now)) {
      if (w.id === this.worker.id || w.host !== this.#host || isAlive(w.pid, this.#pid)) continue;
      await this.#store.retireWorker(w.id, now);
      n++;
    }
    return n;
  }

  /** Leaves: this worker's leases end now. */
  async retire(now?: number): Promise<void> {
    if (this.#worker) await this.#store.retireWorker(this.#worker.id, now);
  }
}

/** Whether a process of this host is running (`myPid` is this process: a dead worker may have had its pid before). */
function isAlive(pid: number, myPid: number): boolean {
  if (pid === myPid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, under another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
