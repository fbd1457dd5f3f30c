import type { WorkerStore } from '../store/index.js';
import { AdaptiveCap } from './adaptive-cap.js';

/** Longest a freed slot waits to be claimed together with others: 10 ms per thousand slots, at most 100 ms. */
const GATHER_MS_PER_SLOT = 0.01;
const GATHER_MS_MAX = 100;

/**
 * The batch's cap as one worker sees it: the batch's concurrency, lowered for every worker
 * after HTTP 429 (the adaptive cap is stored with the batch), and this worker's share of it
 * (the cap split over the live workers, so they share the work), never more than fit this
 * machine (its open files: descriptor-fit.ts; halved for a while when it ran short anyway).
 */
export class BatchCap {
  readonly #cap: AdaptiveCap;
  /** What this machine fits: this worker's alone, never stored (another machine may fit more). */
  readonly #local: AdaptiveCap;
  readonly #store: WorkerStore;
  readonly #batchId: string;
  readonly #onChange: (cap: number, reason: string) => void;
  /** Live workers of the batch, this one included (from the last heartbeat). */
  workers = 1;
  /** The batch's stored cap limit as this worker last saw or wrote it. */
  #seen: number | null = null;

  /** `local`: most runs in flight this machine fits. @default o.cap */
  constructor(o: { cap: number; local?: number; store: WorkerStore; batchId: string; onChange: (cap: number, reason: string) => void }) {
    this.#cap = new AdaptiveCap(o.cap);
    this.#local = new AdaptiveCap(o.local ?? o.cap);
    this.#store = o.store;
    this.#batchId = o.batchId;
    this.#onChange = o.onChange;
  }

  /** The batch's cap now. */
  get current(): number {
    return this.#cap.current;
  }

  /** This worker's share of the cap (a dead worker's share passes to the others once its heartbeat is stale). */
  get share(): number {
    return Math.max(1, Math.min(this.#local.current, Math.ceil(this.#cap.current / this.workers)));
  }

  /** How long a freed slot may wait to be claimed with others. */
  get gatherMs(): number {
    return Math.min(GATHER_MS_MAX, this.share * GATHER_MS_PER_SLOT);
  }

  /** The fewest free slots worth a claim of their own before {@link gatherMs} has passed. */
  get gather(): number {
    return Math.max(1, Math.floor(this.share / 64));
  }

  /** The service admitted a request: the cap recovers by one slot per cap's worth of admissions. */
  admitted(): void {
    this.#cap.admitted();
    this.#local.admitted();
  }

  /** This machine ran short (EMFILE, ENOMEM, …) although the runs fit: this worker's share halves for a while; nothing is stored. */
  localFault(now: number): void {
    this.#local.throttled(now);
  }

  /** The service throttled an admission (HTTP 429): the cap halves, for every worker of the batch. */
  throttled(now: number): void {
    if (!this.#cap.throttled(now)) return;
    this.#onChange(this.#cap.current, 'HTTP 429 from the service');
    this.#seen = this.#cap.current;
    this.#store.setCapLimit(this.#batchId, this.#cap.current).catch(() => {
      // Best effort: this worker's own cap is lowered already.
    });
  }

  /**
   * At a heartbeat: a lower cap another worker set after its 429s is taken here, and this
   * worker's recovery raises the batch's again, lifting it at the full concurrency. Only a
   * 429 lowers it.
   */
  async sync(limit: number | null): Promise<void> {
    if (limit === null) {
      this.#seen = null;
      return;
    }
    if (limit !== this.#seen && limit < this.#cap.current) {
      // Another worker lowered it since this one last looked.
      this.#seen = limit;
      this.#cap.lowerTo(limit);
      this.#onChange(this.#cap.current, 'lowered by another worker of the batch (HTTP 429)');
    } else if (this.#cap.current > limit) {
      const next = this.#cap.current >= this.#cap.max ? null : this.#cap.current;
      await this.#store.setCapLimit(this.#batchId, next);
      this.#seen = next;
    } else this.#seen = limit;
  }
}
