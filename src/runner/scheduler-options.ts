import type { BatchRecord, ItemRecord, ItemState, ReadStore, WorkerRecord, WorkerStore } from '../store/index.js';
import type { Clock } from '../clock.js';
import type { ErrorKind } from './error-kind.js';
import type { SharedSlots } from './shared-slots.js';

/** What a step may do with the scheduler while it drives an item. */
export interface StepContext {
  signal: AbortSignal;
  /** The service admitted a request (feeds the adaptive cap). */
  admitted(): void;
  /** The item's run has ended at the service: its slot may go to the next item now. */
  release(): void;
  /**
   * The item was taken over and its run is being read again at the service: until it is
   * found still going, or the item's drive ends (its outcome recorded), this worker claims
   * no new items. A resume records what became of the runs it already paid for before it
   * sends more: their reads do not queue behind new runs' requests, nor their outcomes
   * behind new runs' claims.
   */
  rereading(): void;
  /** The run read again is still going (it is followed now): claims may go on once no other is counted. */
  reread(): void;
  /** This worker moved the item out of `queued` (nothing was ever sent for it). */
  fresh: boolean;
}

/**
 * A step's answer that its item is to be sent again later, on the retry-later schedule a
 * transient failure takes (a model-run create the service provably did not act on).
 */
export interface TryLater {
  tryLater: string;
}

/** The answer {@link TryLater}, with its reason (said in the `retry-later` event). */
export function tryLater(reason: string): TryLater {
  return { tryLater: reason };
}

/** Whether a step's answer is {@link TryLater}. */
export function isTryLater(end: unknown): end is TryLater {
  return typeof end === 'object' && end !== null && 'tryLater' in end;
}

/**
 * Drives one claimed item until it leaves this worker (finished, held, error), asks to be
 * tried later ({@link TryLater}), or a request fails (it throws; the scheduler classifies).
 * Returns the item as it left, or null.
 */
export type Step = (item: ItemRecord, ctx: StepContext) => Promise<ItemRecord | TryLater | null>;

/** What the scheduler tells its owner. */
export type SchedulerEvent =
  | { type: 'joined'; worker: WorkerRecord; others: WorkerRecord[] }
  | { type: 'retry-later'; id: string; delayMs: number; reason: string }
  | { type: 'warning'; message: string }
  | { type: 'cap'; cap: number; reason: string }
  | { type: 'waiting-for-workers'; inFlight: number; workers: WorkerRecord[] }
  | { type: 'cancelled' }
  | { type: 'tick'; inFlight: number; cap: number };

/** Options of the one scheduler of question and model batches. */
export interface SchedulerOptions {
  store: WorkerStore & ReadStore;
  batch: BatchRecord;
  /** The batch's cap on runs in flight over all workers. */
  cap: number;
  /** Most runs in flight this worker's machine fits (its open files: descriptor-fit.ts). @default cap */
  localCap?: number;
  step: Step;
  /** Sorts a step's failure: the one place agent runs and model runs differ. */
  classify: (err: unknown, signal: AbortSignal) => ErrorKind;
  /** Records a permanent failure as the item's `error`; `code` as {@link errorCodeOf} gives it. */
  markError: (item: ItemRecord, message: string, code?: string) => Promise<void>;
  onEvent?: (e: SchedulerEvent) => void;
  /** Item left this worker (for progress tallies). */
  onLeave?: (item: ItemRecord) => void;
  /** @default DEFAULT_LEASE_MS */
  leaseMs?: number;
  /** @default leaseMs / 3 */
  heartbeatMs?: number;
  /** How often the loop looks for work when nothing woke it. @default 1000 */
  pollMs?: number;
  /** @default DEFAULT_RETRY_LATER_MS */
  retryLaterMs?: readonly number[];
  /** Stay while other workers have runs in flight (take over theirs if they die). @default true */
  wait?: boolean;
  /** Send at most this many queued items (`--limit`). */
  limit?: number;
  /** Slots shared with another batch this process runs (an agent judge's): runs in flight over both stay under one cap. */
  slots?: SharedSlots;
  /** This scheduler is served first from the shared slots (the judge: a judging starts as soon as a slot frees). @default false */
  slotsFirst?: boolean;
  /** Stay, idle, while this returns true (more work is coming from this process); woken by `wake()`. */
  stayWhile?: () => boolean;
  /** States in which an item without a live lease is taken over. */
  takeOver?: readonly ItemState[];
  clock?: Clock;
  host?: string;
  pid?: number;
}

/** How a scheduler run ended. */
export interface SchedulerResult {
  interrupted: boolean;
  cancelled: boolean;
  /** Items given up for now after repeated transient failures. */
  stalled: number;
  fatal: Error | null;
}
