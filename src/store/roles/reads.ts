import type { ItemFilter, PauseQuery, PauseRecord } from '../shapes.js';
import type { BatchLive, ItemPage, ItemPageQuery, RunMinute } from '../item-page-shapes.js';
import type { BatchRecord, DecisionRecord, FileRecord, FileStatus, ItemRecord, ItemState, RunRecord, WorkerRecord } from '../types.js';

/** A batch's counts and live workers, for `batches` and `status`. */
export interface BatchOverview {
  batch: BatchRecord;
  counts: Record<ItemState, number>;
  approvedCost: number;
  files: Record<FileStatus, number>;
  workers: WorkerRecord[];
}

/** The latest finished items of a batch: when each ended, and when each of their runs ran. */
export interface RecentFinishes {
  /** When each item ended, newest first. */
  finishedAt: string[];
  /** Every ended run of those items: admitted and ended (ISO 8601). */
  runs: { createdAt: string; finishedAt: string }[];
}

/** Queued items that cannot start before an earlier item of their thread ends (thread keys as given). */
export interface ThreadWaits {
  /** How many wait, by the state of the item they wait behind (the first unfinished item of their thread). */
  byState: Partial<Record<ItemState, number>>;
  /** The first of them in file order, each with the item it waits behind. */
  first: { id: string; threadKey: string; behindId: string; behindState: ItemState }[];
}

/** One exported item with everything its row shows, read in one aggregate query. */
export interface ItemAggregate {
  item: ItemRecord;
  runIds: string[];
  /** When each run of the chain was recorded as admitted and as ended (null: not ended), first to last. */
  /** Each run's admission, end and length (null: running, or ended unwatched with no service times). */
  runTimes: { createdAt: string; finishedAt: string | null; seconds: number | null }[];
  decisions: Pick<DecisionRecord, 'tool' | 'input' | 'answer' | 'by' | 'person' | 'reason' | 'cost'>[];
  files: Pick<FileRecord, 'id' | 'role' | 'name' | 'path' | 'bytes' | 'sha256' | 'status' | 'host'>[];
}

/**
 * The reads role: a batch's items, runs and decisions as status, the item view, export rows
 * and the web view read them (and the news that a person answered, to read again).
 */
export interface ReadStore {
  /** Counts, cost, files and live workers of a batch. */
  overview(batchId: string, nowMs?: number, staleMs?: number): Promise<BatchOverview>;
  getItem(batchId: string, itemId: string): Promise<ItemRecord | null>;
  /** Items in file order, filtered (a page: use `afterSeq` and `limit` to walk a large batch). */
  listItems(batchId: string, f?: ItemFilter): Promise<ItemRecord[]>;
  /** Item counts by state. */
  itemCounts(batchId: string): Promise<Record<ItemState, number>>;
  /**
   * The latest `limit` items that ended (completed, failed or errored; not cancelled), each
   * with its finish and the times its runs ran, for the read model's rate and ETA.
   */
  recentFinishes(batchId: string, limit: number): Promise<RecentFinishes>;
  /**
   * Queued items waiting behind an unfinished earlier item of their thread: counted, the first
   * `limit` listed. `o.itemId`: only that one (whether it waits so, and behind what);
   * `o.heldOnly`: only those behind a held item, read from the held items up (cheap for a worker).
   */
  threadWaits(batchId: string, limit: number, o?: { itemId?: string; heldOnly?: boolean }): Promise<ThreadWaits>;
  getRun(runId: string): Promise<RunRecord | null>;
  /** An item's runs, first to last. */
  runChain(batchId: string, itemId: string): Promise<RunRecord[]>;
  decisionsForItem(batchId: string, itemId: string): Promise<DecisionRecord[]>;
  /**
   * Every pause of a batch (runs that asked for an answer) with the decision made on it, in
   * the order they were recorded: what `policy check` replays and how long held items waited.
   */
  batchPauses(batchId: string, q?: PauseQuery): Promise<PauseRecord[]>;
  /** Cost approved so far in a batch, its own (reports, status, /metrics). */
  approvedCost(batchId: string): Promise<number>;
  /**
   * Cost approved so far in a batch's budget group: the batch, and every batch that spends with
   * it or that it spends with (NewBatch.spendsWith). What its `batch_budget` is held to.
   */
  budgetSpent(batchId: string): Promise<number>;
  /** Export rows: items with their runs, decisions and files, a page at a time, in file order; only items in `states` when given. */
  aggregates(batchId: string, afterSeq: number, limit: number, states?: readonly ItemState[]): Promise<ItemAggregate[]>;
  /** Every meta key of a batch's items, each once, in the order they first appear (by file order, then within the row). */
  metaKeys(batchId: string): Promise<string[]>;
  /**
   * Calls `cb` at once when a person answers an item of the batch on any machine (PostgreSQL:
   * LISTEN/NOTIFY). Optional: without it the runner finds answers by its regular poll.
   * Returns what stops listening.
   */
  onAnswered?(batchId: string, cb: () => void): () => void;

  // ---- web view projections (resq serve)
  /** A page of a batch's items, filtered and sorted, walked by a keyset cursor (`next`). */
  itemPage(batchId: string, q: ItemPageQuery): Promise<ItemPage>;
  /** Runs in flight, the adaptive cap, the first `heldLimit` held items and the finished span. */
  batchLive(batchId: string, heldLimit: number): Promise<BatchLive>;
  /** Runs admitted and finished per minute, oldest first. */
  runMinutes(batchId: string): Promise<RunMinute[]>;
}
