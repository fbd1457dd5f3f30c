import type {
  AdmittedRun,
  BatchDecision,
  BatchAppender,
  BatchLoader,
  BatchTotals,
  CreditTotals,
  FinishedModelRun,
  ItemFilter,
  ItemQuery,
  ItemStats,
  ModelBatchRecord,
  ModelRunRecord,
  ModelRunReport,
  NewBatch,
  NewDecision,
  NewModelRow,
  PauseOutcome,
  RunSnapshot,
  RunTime,
} from './shapes.js';
import type { BatchLive, ItemPage, ItemPageQuery, RunMinute } from './web-shapes.js';
import type {
  BatchRecord,
  BatchSettings,
  DecisionRecord,
  FileCopy,
  FileRecord,
  FileStatus,
  ItemRecord,
  ItemState,
  RunRecord,
  WorkerRecord,
} from './types.js';

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

/** A batch's counts and live workers, for `batches` and `status`. */
export interface BatchOverview {
  batch: BatchRecord;
  counts: Record<ItemState, number>;
  approvedCost: number;
  files: Record<FileStatus, number>;
  workers: WorkerRecord[];
}

/** One exported item with everything its row shows, read in one aggregate query. */
export interface ItemAggregate {
  item: ItemRecord;
  runIds: string[];
  /** When each run of the chain was recorded as admitted and as ended (null: not ended), first to last. */
  runTimes: { createdAt: string; finishedAt: string | null }[];
  decisions: Pick<DecisionRecord, 'tool' | 'input' | 'answer' | 'by' | 'person' | 'reason' | 'cost'>[];
  files: Pick<FileRecord, 'id' | 'role' | 'name' | 'path' | 'bytes' | 'sha256' | 'status' | 'host'>[];
}

/**
 * The store port: every state change resq makes is one of these operations, each one
 * transaction; every read is one of these projections. The runner, files, models, CLI and
 * notebook helpers see only this interface: no SQL, no database handle, no transaction.
 * Adapters: SQLite (src/store/sqlite) and PostgreSQL (src/store/postgres). A busy database
 * makes an operation wait and retry inside the adapter; it never surfaces as an item's state.
 */
export interface Store {
  /** Where the store is, safe to print (a password is masked). */
  readonly location: string;
  /** Closes the connection(s). */
  close(): Promise<void>;

  // ---- batches
  /** Starts loading a new batch; everything lands in one transaction, or nothing does. */
  beginBatchLoad(batch: NewBatch, opts?: { bulk?: boolean }): Promise<BatchLoader>;
  /**
   * Starts appending a grown question set's new rows to a batch (`resq run --append`), in
   * one transaction that other appends of the batch wait for.
   */
  beginBatchAppend(batchId: string): Promise<BatchAppender>;
  /** Records a new models batch, its model and every row: all or nothing. */
  loadModelBatch(batch: NewBatch, model: Omit<ModelBatchRecord, 'batchId'>, rows: readonly NewModelRow[]): Promise<void>;
  /** A batch by name or id. */
  findBatch(nameOrId: string): Promise<BatchRecord | null>;
  /** Every batch, newest first (the order `resq batches` and the notebooks show). */
  listBatches(kind?: BatchRecord['kind']): Promise<BatchRecord[]>;
  /** The newest batch, or null. */
  latestBatch(kind?: BatchRecord['kind']): Promise<BatchRecord | null>;
  /** Replaces what a batch runs with (a later `run`/`resume` with overrides). */
  updateBatchSettings(id: string, settings: BatchSettings, policy: unknown, baseUrl: string | null): Promise<void>;
  /** Marks a batch cancelled and every queued item `cancelled`; returns the items moved. */
  cancelBatch(batchId: string): Promise<number>;
  /** Counts, cost, files and live workers of a batch. */
  overview(batchId: string, nowMs?: number, staleMs?: number): Promise<BatchOverview>;

  // ---- workers and claims
  /** Registers a worker on a batch. */
  registerWorker(batchId: string, w: { host: string; pid: number }, nowMs?: number): Promise<WorkerRecord>;
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
   * Calls `cb` at once when a person answers an item of the batch on any machine (PostgreSQL:
   * LISTEN/NOTIFY). Optional: without it the runner finds answers by its regular poll.
   * Returns what stops listening.
   */
  onAnswered?(batchId: string, cb: () => void): () => void;
  /** Gives an item's lease up without changing its state (a stopping worker, a retry later). */
  releaseItem(batchId: string, itemId: string, workerId: string): Promise<void>;

  // ---- agent runs: item transitions
  /** Records an admitted run (first or after a respond) and moves the item to `running`. */
  markAdmitted(item: ItemRecord, run: AdmittedRun): Promise<ItemRecord>;
  /** Records a finished run and the item's final state; the lease ends. */
  markFinished(item: ItemRecord, run: RunSnapshot, state: 'completed' | 'failed' | 'cancelled'): Promise<ItemRecord>;
  /** Ends an unfinished item as `cancelled` (its run was cancelled, no live worker holds it); false if it had ended. */
  markCancelled(batchId: string, itemId: string): Promise<boolean>;
  /** Records a paused run and what `decide` (given the batch's approved cost) makes of it. */
  markPaused(item: ItemRecord, run: RunSnapshot, decide: (approvedCost: number) => PauseOutcome): Promise<{ outcome: PauseOutcome; item: ItemRecord }>;
  /** A person's answer to a held item: recorded; the item waits for any worker to send it. */
  answerHeld(batchId: string, itemId: string, decision: NewDecision, nextKey: string): Promise<void>;
  /** A held item looked at again under a (new) policy. */
  redecideHeld(batchId: string, itemId: string, decide: (approvedCost: number) => PauseOutcome): Promise<PauseOutcome>;
  /** A permanent client-side fault: the item ends in `error` with its message and, when known, a code (`http_400`, the service's code, …). */
  markError(batchId: string, itemId: string, message: string, code?: string | null): Promise<ItemRecord | null>;
  /** Puts finished items back to `queued` for a new attempt (`resq retry`); returns how many. */
  requeue(batchId: string, itemIds: readonly string[] | null, states: readonly ItemState[]): Promise<string[]>;

  // ---- reads of items and runs
  getItem(batchId: string, itemId: string): Promise<ItemRecord | null>;
  /** Items in file order, filtered (a page: use `afterSeq` and `limit` to walk a large batch). */
  listItems(batchId: string, f?: ItemFilter): Promise<ItemRecord[]>;
  /** Item counts by state. */
  itemCounts(batchId: string): Promise<Record<ItemState, number>>;
  /** Start and end of finished items, for rate and ETA. */
  finishedSpan(batchId: string): Promise<{ first: string | null; last: string | null; n: number }>;
  getRun(runId: string): Promise<RunRecord | null>;
  /** An item's runs, first to last. */
  runChain(batchId: string, itemId: string): Promise<RunRecord[]>;
  decisionsForItem(batchId: string, itemId: string): Promise<DecisionRecord[]>;
  /** Cost approved so far in a batch. */
  approvedCost(batchId: string): Promise<number>;
  /** Export rows: items with their runs, decisions and files, a page at a time, in file order; only items in `states` when given. */
  aggregates(batchId: string, afterSeq: number, limit: number, states?: readonly ItemState[]): Promise<ItemAggregate[]>;
  /** Every meta key of a batch's items, each once, in the order they first appear (by file order, then within the row). */
  metaKeys(batchId: string): Promise<string[]>;

  // ---- files
  /** Records that a file is on this host's disk. */
  markFileDownloaded(batchId: string, fileId: string, v: { path: string; bytes: number; sha256: string; mediaType: string | null; host: string }): Promise<void>;
  markFileStatus(batchId: string, fileId: string, status: Exclude<FileStatus, 'downloaded'>, error: string | null): Promise<void>;
  getFile(batchId: string, fileId: string): Promise<FileRecord | null>;
  filesForBatch(batchId: string, statuses?: readonly FileStatus[]): Promise<FileRecord[]>;
  filesForItem(batchId: string, itemId: string): Promise<FileRecord[]>;
  fileCounts(batchId: string): Promise<Record<FileStatus, number>>;
  /** Paths already used by downloads of a batch. */
  filePaths(batchId: string): Promise<{ id: string; path: string }[]>;
  /**
   * Records that `host` holds a copy of a downloaded file at `path` (one copy per host;
   * a later one replaces it). The file's own record, its first copy, is left as it is.
   */
  recordFileCopy(batchId: string, fileId: string, copy: { host: string; path: string; bytes: number; sha256: string }): Promise<void>;
  /** The copies of a batch's files other than their first (see {@link recordFileCopy}), in file order. */
  fileCopies(batchId: string): Promise<FileCopy[]>;
  expiryReport(batchId: string, warnBefore: string): Promise<{ bytes: number; soonest: string | null; expiring: FileRecord[] }>;

  // ---- model batches
  modelBatch(batchId: string): Promise<ModelBatchRecord | null>;
  modelRun(batchId: string, itemId: string): Promise<ModelRunRecord | null>;
  modelRuns(batchId: string, afterSeq: number, limit: number): Promise<{ item: ItemRecord; run: ModelRunRecord }[]>;
  /** A row is about to be (re)sent with `key`. */
  markModelSubmitting(batchId: string, itemId: string, key: string, mode: ModelBatchRecord['mode'], resend: boolean): Promise<void>;
  markModelAdmitted(batchId: string, itemId: string, httpStatus: number, run: ModelRunReport): Promise<void>;
  markModelFinished(batchId: string, itemId: string, run: FinishedModelRun, o: { httpStatus: number | null; failed: boolean; polls: number }): Promise<void>;
  markModelError(batchId: string, itemId: string, message: string, polls?: number): Promise<void>;
  /** The request surely never arrived: the row is queued again. */
  markModelUnsent(batchId: string, itemId: string): Promise<void>;
  addModelPolls(batchId: string, itemId: string, polls: number): Promise<void>;
  modelCredits(batchId: string): Promise<CreditTotals>;
  /** Reads of running jobs so far. */
  modelPolls(batchId: string): Promise<number>;
  /** Changes the mode a models batch sends with (a later run with another `--mode`). */
  setModelMode(batchId: string, mode: ModelBatchRecord['mode']): Promise<void>;

  // ---- notebook projections
  queryItems(batchId: string, q?: ItemQuery): Promise<ItemRecord[]>;
  itemStats(batchId: string): Promise<Map<string, ItemStats>>;
  batchTotals(batchId: string): Promise<BatchTotals>;
  itemSeconds(batchId: string): Promise<number[]>;
  runTimes(batchId: string): Promise<RunTime[]>;
  batchDecisions(batchId: string): Promise<BatchDecision[]>;

  // ---- web view projections (resq serve)
  /** A page of a batch's items, filtered and sorted, walked by a keyset cursor (`next`). */
  itemPage(batchId: string, q: ItemPageQuery): Promise<ItemPage>;
  /** Runs in flight, the adaptive cap, the first `heldLimit` held items and the finished span. */
  batchLive(batchId: string, heldLimit: number): Promise<BatchLive>;
  /** Runs admitted and finished per minute, oldest first. */
  runMinutes(batchId: string): Promise<RunMinute[]>;
}
