import type { ServiceClient } from '../api/index.js';
import type { Policy } from '../policy/index.js';
import type { BatchRecord, ItemRecord, TransitionStore } from '../store/index.js';
import type { RunnerEvent } from './events.js';
import type { DriveContext } from './item-driver.js';
import type { StepContext } from './scheduler-options.js';

/** What every item of a batch runner's drive shares (one object per runner). */
export interface DriveShared {
  store: TransitionStore;
  client: ServiceClient;
  batch: BatchRecord;
  policy: Policy | null;
  follow: 'sse' | 'poll';
  emit: (e: RunnerEvent) => void;
  /** Judges an item that completed and records its verdicts (never throws); absent: the batch has no scorers here. */
  scoreCompleted?: ((item: ItemRecord) => Promise<void>) | undefined;
}

/**
 * One item's {@link DriveContext}: the runner's shared parts and the scheduler's slot, read
 * through the prototype, so a run in flight keeps one small object here, not a context with
 * a closure for each of emit, admitted and release.
 */
export class ItemDriveContext implements DriveContext {
  readonly #shared: DriveShared;
  readonly #step: StepContext;

  constructor(shared: DriveShared, step: StepContext) {
    this.#shared = shared;
    this.#step = step;
  }

  get store(): TransitionStore {
    return this.#shared.store;
  }

  get client(): ServiceClient {
    return this.#shared.client;
  }

  get batch(): BatchRecord {
    return this.#shared.batch;
  }

  get policy(): Policy | null {
    return this.#shared.policy;
  }

  get follow(): 'sse' | 'poll' {
    return this.#shared.follow;
  }

  get signal(): AbortSignal {
    return this.#step.signal;
  }

  emit(e: RunnerEvent): void {
    this.#shared.emit(e);
  }

  get scoreCompleted(): ((item: ItemRecord) => Promise<void>) | undefined {
    return this.#shared.scoreCompleted;
  }

  admitted(): void {
    this.#step.admitted();
  }

  release(): void {
    this.#step.release();
  }

  rereading(): void {
    this.#step.rereading();
  }

  reread(): void {
    this.#step.reread();
  }
}
