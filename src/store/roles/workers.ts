import type { ItemRecord, ItemState, WorkerRecord, WorkerStart } from '../types.js';

/** Who is asking: the worker that holds an item's lease. */
export interface Lease {
  workerId: string;
  /** How long a claim or renewal keeps the item, in ms. */
  leaseMs: number;
}

/** What a claim asks for. */
export interface ClaimRequest extends Lease {
  /** Most items to hand back (the worker's free slots). */
  max: number;
  /** The batch's cap on runs in flight over all workers, as this worker knows it now. */
  cap: number;
  /** Queued items are looked for after this seq (a worker's cursor); -1 from the start. */
  afterSeq: number;
  /** Most queued items to move to `submitting` (`--limit`). @default max */
  maxQueued?: number;
  /** States in which an item without a live lease is taken over. @default submitting, running, waiting */
  takeOver?: readonly ItemState[];
  /**
   * Items of this worker whose run has already ended at the service while their outcome is
   * being stored: counted as free slots while the store still counts them in flight (ids,
   * not a count, so an outcome that lands meanwhile is not subtracted twice). @default none
   */
  ended?: readonly string[];
  /**
   * Items not to take over although their lease is gone: the ones this worker gave up on
   * (its retry-later schedule spent) and released for a resume. @default none
   */
  skip?: readonly string[];
}

/** What a claim hands back. */
export interface Claim {
  /** Items now owned by the worker: taken over (their lease had expired), answered, or newly submitting. */
  items: ItemRecord[];
  /** The highest seq of a queued item looked at (the worker's next cursor). */
  cursor: number;
  /** How many of `items`, at its end, were queued until this claim (never sent before). */
  fresh: number;
  /** Runs in flight over every worker after this claim. */
  inFlight: number;
  /** The batch was cancelled: claim nothing more. */
  cancelled: boolean;
}

/** The workers-and-claims role: a worker's presence on a batch, its leases, and the items it claims. */
export interface WorkerStore {
  /** Registers a worker on a batch (with its process's start identity when known: see WorkerRecord.pidStart). */
  registerWorker(batchId: string, w: WorkerStart, nowMs?: number): Promise<WorkerRecord>;
  /**
   * Renews the worker's heartbeat and the lease of every item it owns; returns whether the
   * batch was cancelled and the batch's adaptive cap (lowered after HTTP 429), if any.
   */
  heartbeat(lease: Lease, nowMs?: number): Promise<{ cancelled: boolean; capLimit: number | null }>;
  /** Sets the batch's adaptive cap, shared by its workers (null: back to the full concurrency). */
  setCapLimit(batchId: string, capLimit: number | null): Promise<void>;
  /** The worker leaves: its leases end now, so any live worker may take its items at once. */
  retireWorker(workerId: string, nowMs?: number): Promise<void>;
  /** Workers whose heartbeat is younger than `staleMs`. */
  liveWorkers(batchId: string, staleMs: number, nowMs?: number): Promise<WorkerRecord[]>;
  /**
   * Claims work in one transaction: items whose lease expired (re-attached or re-posted
   * by the claimer), answered items, then queued items in file order (one at a time per
   * thread) moved to `submitting` with their key stored — never more runs in flight over
   * all workers than `cap`.
   */
  claimItems(batchId: string, req: ClaimRequest, nowMs?: number): Promise<Claim>;
  /** Claims the next queued item of a thread after `afterSeq` (the thread's predecessor just finished). */
  claimNextInThread(batchId: string, threadKey: string, afterSeq: number, req: Lease & { cap: number }, nowMs?: number): Promise<ItemRecord | null>;
  /**
   * Gives an item's lease up without changing its state (a stopping worker, a retry later),
   * while `workerId` holds it — and, with `fence`, still by the token of its claim.
   */
  releaseItem(batchId: string, itemId: string, workerId: string, fence?: number): Promise<void>;
}
