import { type Clock, systemClock } from '../../clock.js';
import type { BatchOverview, Claim, ClaimRequest, FileClaim, FileClaimRequest, FileHolder, ForecastTarget, ItemAggregate, KeptForecast, Lease, Store } from '../port.js';
import type {
  AdmittedRun,
  BatchAppender,
  BatchLoader,
  FinishedModelRun,
  ItemFilter,
  ItemQuery,
  ModelBatchRecord,
  ModelRunReport,
  NewBatch,
  BudgetGuard,
  NewDecision,
  NewModelRow,
  PauseOutcome,
  RunSnapshot,
  PauseQuery,
} from '../shapes.js';
import type { BatchRecord, BatchSettings, DownloadedFile, FileStatus, ItemRecord, ItemState, WorkerStart } from '../types.js';
import { beginBatchAppend } from './batch-append.js';
import { beginBatchLoad } from './batch-load.js';
import { retryBusy } from './busy.js';
import { DbWait, type DbWaitOptions } from '../db-wait.js';
import { type Db, openDatabase } from './database.js';
import * as outbox from './outbox.js';
import * as scores from './scores.js';
import type { ScoreQuery } from '../roles/scores.js';
import type { ItemVerdicts, ScorerRef, ScorerTotals, Verdict } from '../../score/types.js';
import * as notifyCommands from './notify-commands.js';
import type { NewOutboxEvent, NotifyCommandSender, OutboxClaim, OutboxOutcome, OutboxState } from '../roles/outbox.js';
import * as models from './model-transitions.js';
import { type Repos, reposOf } from './repos.js';
import * as t from './transitions.js';
import { ItemPages } from './item-pages.js';
import { WriteGroup } from './write-group.js';
import type { ItemPageQuery } from '../item-page-shapes.js';
import type { Holding } from '../common/fencing.js';
import { settleSessionUse } from '../common/web-sessions.js';

/**
 * The SQLite adapter of the store port (the embedded default: one file). Every change is
 * one IMMEDIATE transaction, so the busy timeout applies and two processes never deadlock
 * on a lock upgrade; a busy file is waited on (see busy.ts), never reported as an item's fault.
 * Leases and heartbeats take their time inside the write transaction, under the file's write
 * lock (never a time read before a wait for the lock): a worker that waited on a busy file
 * does not write a lease already expired.
 */
export class SqliteStore implements Store {
  readonly location: string;
  readonly #r: Repos;
  /** Writes asked for in one turn share one transaction (see write-group.ts). */
  readonly #group: WriteGroup;
  readonly #pages: ItemPages;

  /** Time for leases, heartbeats and the overview's live workers when the caller gives none. */
  readonly #clock: Clock;

  /** A busy file is waited on up to a bound, said once (db-wait.ts). */
  readonly #wait: DbWait;

  constructor(db: Db, location: string, clock: Clock = systemClock, wait: DbWaitOptions = {}) {
    this.#clock = clock;
    this.#wait = new DbWait(location, { clock, ...wait });
    this.#r = reposOf(db, clock);
    this.location = location;
    this.#pages = new ItemPages(db);
    // Wrappers made once (making one per call cost a wrapper each time).
    const tx = db.transaction((fn: () => void) => fn());
    const savepoint = db.transaction((fn: () => unknown) => fn());
    this.#group = new WriteGroup({ transaction: tx.immediate, savepoint: savepoint as <T>(fn: () => T) => T }, this.#wait);
  }

  /** Opens a database file (created and migrated when needed). */
  static open(path: string, opts: { readonly?: boolean; clock?: Clock } & DbWaitOptions = {}): SqliteStore {
    return new SqliteStore(openDatabase(path, opts), path, opts.clock, opts);
  }

  /** The connection, for the adapter's own tests and migrations only. */
  get db(): Db {
    return this.#r.db;
  }

  #write<T>(fn: (r: Repos) => T): Promise<T> {
    return this.#group.write(() => fn(this.#r));
  }

  #read<T>(fn: (r: Repos) => T): Promise<T> {
    return retryBusy(() => fn(this.#r), this.#wait);
  }

  async close(): Promise<void> {
    if (this.#r.db.open) await this.#group.drain();
    if (this.#r.db.open) this.#r.db.close();
  }

  // ---- batches
  async beginBatchLoad(batch: NewBatch, opts: { bulk?: boolean } = {}): Promise<BatchLoader> {
    return retryBusy(() => beginBatchLoad(this.#r, batch, opts), this.#wait);
  }
  async beginBatchAppend(batchId: string): Promise<BatchAppender> {
    return retryBusy(() => beginBatchAppend(this.#r, batchId), this.#wait);
  }
  loadModelBatch(batch: NewBatch, model: Omit<ModelBatchRecord, 'batchId'>, rows: readonly NewModelRow[]): Promise<void> {
    return this.#write((r) => models.loadModelBatch(r, batch, model, rows));
  }
  findBatch(nameOrId: string): Promise<BatchRecord | null> {
    return this.#read((r) => r.batches.find(nameOrId));
  }
  listBatches(kind?: BatchRecord['kind']): Promise<BatchRecord[]> {
    return this.#read((r) => r.batches.list(kind));
  }
  latestBatch(kind?: BatchRecord['kind']): Promise<BatchRecord | null> {
    return this.#read((r) => r.batches.latest(kind));
  }
  updateBatchSettings(id: string, settings: BatchSettings, policy: unknown, baseUrl: string | null): Promise<void> {
    return this.#write((r) => r.batches.updateSettings(id, settings, policy, baseUrl));
  }
  cancelBatch(batchId: string, nowMs?: number): Promise<number> {
    return this.#write((r) => r.claims.cancel(batchId, nowMs ?? this.#clock.now()));
  }
  overview(batchId: string, nowMs?: number, staleMs = 60_000): Promise<BatchOverview> {
    return this.#read((r) => {
      const batch = r.batches.find(batchId);
      if (!batch) throw new Error(`batch ${batchId} not found`);
      return {
        batch,
        counts: r.counts.byState(batchId),
        approvedCost: r.decisions.approvedCost(batchId),
        files: r.files.counts(batchId),
        workers: r.claims.live(batchId, staleMs, nowMs ?? this.#clock.now()),
      };
    });
  }

  // ---- workers and claims
  registerWorker(batchId: string, w: WorkerStart, nowMs?: number) {
    return this.#write((r) => r.claims.register(batchId, w, nowMs ?? this.#clock.now()));
  }
  heartbeat(lease: Lease, nowMs?: number): Promise<{ cancelled: boolean; capLimit: number | null }> {
    return this.#write((r) => r.claims.heartbeat(lease, nowMs ?? this.#clock.now()));
  }
  setCapLimit(batchId: string, capLimit: number | null): Promise<void> {
    return this.#write((r) => r.claims.setCapLimit(batchId, capLimit));
  }
  retireWorker(workerId: string, nowMs?: number): Promise<void> {
    return this.#write((r) => r.claims.retire(workerId, nowMs ?? this.#clock.now()));
  }
  liveWorkers(batchId: string, staleMs: number, nowMs?: number) {
    return this.#read((r) => r.claims.live(batchId, staleMs, nowMs ?? this.#clock.now()));
  }
  claimItems(batchId: string, req: ClaimRequest, nowMs?: number): Promise<Claim> {
    return this.#write((r) => r.claims.claim(batchId, req, nowMs ?? this.#clock.now()));
  }
  claimNextInThread(batchId: string, threadKey: string, afterSeq: number, req: Lease & { cap: number }, nowMs?: number): Promise<ItemRecord | null> {
    return this.#write((r) => r.claims.claimNextInThread(batchId, threadKey, afterSeq, req, nowMs ?? this.#clock.now()));
  }
  releaseItem(batchId: string, itemId: string, workerId: string, fence?: number): Promise<void> {
    return this.#write((r) => r.claims.release(batchId, itemId, workerId, fence));
  }

  // ---- agent runs
  markAdmitted(item: ItemRecord, run: AdmittedRun): Promise<ItemRecord> {
    return this.#write((r) => t.markAdmitted(r, item, run));
  }
  markFinished(item: ItemRecord, run: RunSnapshot, state: 'completed' | 'failed' | 'cancelled'): Promise<ItemRecord> {
    return this.#write((r) => t.markFinished(r, item, run, state));
  }
  markCancelled(batchId: string, itemId: string): Promise<boolean> {
    return this.#write((r) => t.markCancelled(r, batchId, itemId));
  }
  markPaused(item: ItemRecord, run: RunSnapshot, decide: (approvedCost: number) => PauseOutcome) {
    return this.#write((r) => t.markPaused(r, item, run, decide));
  }
  answerHeld(batchId: string, itemId: string, decision: NewDecision, nextKey: string, budget?: BudgetGuard): Promise<{ overBudget: boolean }> {
    return this.#write((r) => t.answerHeld(r, batchId, itemId, decision, nextKey, budget));
  }
  redecideHeld(batchId: string, itemId: string, decide: (approvedCost: number) => PauseOutcome): Promise<PauseOutcome> {
    return this.#write((r) => t.redecideHeld(r, batchId, itemId, decide));
  }
  markError(batchId: string, itemId: string, message: string, code?: string | null, held?: Holding): Promise<ItemRecord | null> {
    return this.#write((r) => t.markError(r, batchId, itemId, message, code ?? null, held));
  }
  requeue(batchId: string, itemIds: readonly string[] | null, states: readonly ItemState[]): Promise<string[]> {
    return this.#write((r) => r.claims.requeue(batchId, itemIds, states));
  }

  // ---- reads
  getItem(batchId: string, itemId: string) {
    return this.#read((r) => r.reads.get(batchId, itemId));
  }
  listItems(batchId: string, f: ItemFilter = {}) {
    return this.#read((r) => r.reads.list(batchId, f));
  }
  itemCounts(batchId: string) {
    return this.#read((r) => r.counts.byState(batchId));
  }
  threadWaits(batchId: string, limit: number, o: { itemId?: string; heldOnly?: boolean } = {}) {
    return this.#read((r) => r.reads.threadWaits(batchId, limit, o));
  }
  recentFinishes(batchId: string, limit: number) {
    return this.#read((r) => r.reads.recentFinishes(batchId, limit));
  }
  getRun(runId: string) {
    return this.#read((r) => r.runs.get(runId));
  }
  runChain(batchId: string, itemId: string) {
    return this.#read((r) => r.runs.chain(batchId, itemId));
  }
  decisionsForItem(batchId: string, itemId: string) {
    return this.#read((r) => r.decisions.forItem(batchId, itemId));
  }
  batchPauses(batchId: string, q?: PauseQuery) {
    return this.#read((r) => r.summaries.pauses(batchId, q));
  }
  approvedCost(batchId: string) {
    return this.#read((r) => r.decisions.approvedCost(batchId));
  }
  aggregates(batchId: string, afterSeq: number, limit: number, states?: readonly ItemState[]): Promise<ItemAggregate[]> {
    return this.#read((r) => r.aggregates.aggregates(batchId, afterSeq, limit, states));
  }
  metaKeys(batchId: string): Promise<string[]> {
    return this.#read((r) => r.aggregates.metaKeys(batchId));
  }

  // ---- files
  markFileDownloaded(batchId: string, fileId: string, v: DownloadedFile, claim?: FileClaim) {
    return this.#write((r) => r.files.markDownloaded(batchId, fileId, v, claim));
  }
  markFileStatus(batchId: string, fileId: string, status: Exclude<FileStatus, 'downloaded'>, error: string | null, claim?: FileClaim) {
    return this.#write((r) => r.files.markStatus(batchId, fileId, status, error, claim));
  }
  getFile(batchId: string, fileId: string) {
    return this.#read((r) => r.files.get(batchId, fileId));
  }
  filesForBatch(batchId: string, statuses?: readonly FileStatus[]) {
    return this.#read((r) => r.files.forBatch(batchId, statuses));
  }
  filesForItem(batchId: string, itemId: string) {
    return this.#read((r) => r.files.forItem(batchId, itemId));
  }
  fileCounts(batchId: string) {
    return this.#read((r) => r.files.counts(batchId));
  }
  filePaths(batchId: string) {
    return this.#read((r) => r.files.paths(batchId));
  }
  recordFileCopy(batchId: string, fileId: string, c: { host: string; path: string; bytes: number; sha256: string }, keep?: 'keep') {
    return this.#write((r) => r.files.recordCopy(batchId, fileId, c, keep));
  }
  fileCopies(batchId: string) {
    return this.#read((r) => r.files.copies(batchId));
  }
  expiryReport(batchId: string, warnBefore: string) {
    return this.#read((r) => r.files.expiryReport(batchId, warnBefore));
  }
  claimFile(batchId: string, fileId: string, holder: FileHolder, req: FileClaimRequest) {
    return this.#write((r) => r.fileClaims.claim(batchId, fileId, holder, req, req.nowMs ?? this.#clock.now()));
  }
  fileClaimHolder(batchId: string, fileId: string) {
    return this.#read((r) => r.fileClaims.holder(batchId, fileId));
  }
  renewFileClaim(batchId: string, fileId: string, claim: FileClaim, leaseMs: number, nowMs?: number) {
    return this.#write((r) => r.fileClaims.renew(batchId, fileId, claim, leaseMs, nowMs ?? this.#clock.now()));
  }
  releaseFileClaim(batchId: string, fileId: string, claim: FileClaim) {
    return this.#write((r) => r.fileClaims.release(batchId, fileId, claim));
  }

  // ---- model batches
  modelBatch(batchId: string) {
    return this.#read((r) => r.modelRuns.batch(batchId));
  }
  modelRun(batchId: string, itemId: string) {
    return this.#read((r) => r.modelRuns.get(batchId, itemId));
  }
  modelRuns(batchId: string, afterSeq: number, limit: number) {
    return this.#read((r) => r.aggregates.modelRuns(batchId, afterSeq, limit));
  }
  markModelSubmitting(batchId: string, itemId: string, key: string, mode: ModelBatchRecord['mode'], resend: boolean) {
    return this.#write((r) => models.markModelSubmitting(r, batchId, itemId, key, mode, resend));
  }
  markModelAdmitted(batchId: string, itemId: string, httpStatus: number, run: ModelRunReport) {
    return this.#write((r) => models.markModelAdmitted(r, batchId, itemId, httpStatus, run));
  }
  markModelFinished(batchId: string, itemId: string, run: FinishedModelRun, o: { httpStatus: number | null; failed: boolean; polls: number }) {
    return this.#write((r) => models.markModelFinished(r, batchId, itemId, run, o));
  }
  markModelError(batchId: string, itemId: string, message: string, polls = 0) {
    return this.#write((r) => models.markModelError(r, batchId, itemId, message, polls));
  }
  markModelUnsent(batchId: string, itemId: string) {
    return this.#write((r) => models.markModelUnsent(r, batchId, itemId));
  }
  addModelPolls(batchId: string, itemId: string, polls: number) {
    return this.#write((r) => r.modelRuns.addPolls(batchId, itemId, polls));
  }
  modelCredits(batchId: string) {
    return this.#read((r) => r.modelRuns.credits(batchId));
  }
  modelPolls(batchId: string) {
    return this.#read((r) => r.modelRuns.pollCount(batchId));
  }
  setModelMode(batchId: string, mode: ModelBatchRecord['mode']) {
    return this.#write((r) => r.modelRuns.setMode(batchId, mode));
  }

  // ---- notebook projections
  queryItems(batchId: string, q: ItemQuery = {}) {
    return this.#read((r) => r.summaries.items(batchId, q));
  }
  itemStats(batchId: string) {
    return this.#read((r) => r.summaries.itemStats(batchId));
  }
  batchTotals(batchId: string) {
    return this.#read((r) => r.summaries.batchTotals(batchId));
  }
  itemSeconds(batchId: string) {
    return this.#read((r) => r.summaries.itemSeconds(batchId));
  }
  runTimes(batchId: string) {
    return this.#read((r) => r.summaries.runTimes(batchId));
  }
  batchDecisions(batchId: string) {
    return this.#read((r) => r.summaries.decisions(batchId));
  }

  // ---- web view projections
  itemPage(batchId: string, q: ItemPageQuery) {
    return this.#read(() => this.#pages.itemPage(batchId, q));
  }
  batchLive(batchId: string, heldLimit: number) {
    return this.#read(() => this.#pages.batchLive(batchId, heldLimit));
  }
  runMinutes(batchId: string) {
    return this.#read(() => this.#pages.runMinutes(batchId));
  }

  // ---- outbox (notifications)
  addOutboxEvent(batchId: string, event: NewOutboxEvent, nowMs?: number): Promise<boolean> {
    return this.#write((r) => outbox.addEvent(r.db, batchId, event, nowMs ?? this.#clock.now()));
  }
  collateHeld(batchId: string, o: { digestMs: number; remindMs: number | null }, nowMs?: number): Promise<number> {
    return this.#write((r) => outbox.collateHeld(r.db, batchId, o, nowMs ?? this.#clock.now()));
  }
  claimOutbox(owner: string, o: { leaseMs: number; limit: number; batchIds?: readonly string[] | null }, nowMs?: number): Promise<OutboxClaim[]> {
    return this.#write((r) => outbox.claim(r.db, owner, o, nowMs ?? this.#clock.now()));
  }
  settleOutbox(claim: OutboxClaim, outcome: OutboxOutcome, nowMs?: number): Promise<boolean> {
    return this.#write((r) => outbox.settle(r.db, claim, outcome, nowMs ?? this.#clock.now()));
  }
  outboxState(batchId: string): Promise<OutboxState> {
    return this.#read((r) => outbox.state(r.db, batchId));
  }
  holdNotifyCommand(batchId: string, sender: NotifyCommandSender, leaseMs: number, nowMs?: number): Promise<void> {
    return this.#write((r) => notifyCommands.holdNotifyCommand(r.db, batchId, sender, leaseMs, nowMs ?? this.#clock.now()));
  }
  notifyCommands(batchId: string, nowMs?: number): Promise<NotifyCommandSender[]> {
    return this.#read((r) => notifyCommands.notifyCommands(r.db, batchId, nowMs ?? this.#clock.now()));
  }

  // ---- web sessions (a use is a read; its last use is written at most once a minute)
  openWebSession(idDigest: string, nowMs: number): Promise<void> {
    return this.#write((r) => r.webSessions.open(idDigest, nowMs));
  }
  async useWebSession(idDigest: string, idleMs: number, nowMs: number): Promise<boolean> {
    const use = await this.#read((r) => r.webSessions.check(idDigest, idleMs, nowMs));
    return settleSessionUse(use, { end: () => this.endWebSession(idDigest, nowMs), touch: () => this.#write((r) => r.webSessions.touch(idDigest, nowMs)) });
  }
  endWebSession(idDigest: string, nowMs: number): Promise<void> {
    return this.#write((r) => r.webSessions.end(idDigest, nowMs));
  }
  addLoginCode(codeDigest: string, expiresAtMs: number, nowMs: number): Promise<void> {
    return this.#write((r) => r.webSessions.addCode(codeDigest, expiresAtMs, nowMs));
  }
  spendLoginCode(codeDigest: string, nowMs: number): Promise<boolean> {
    return this.#write((r) => r.webSessions.spendCode(codeDigest, nowMs));
  }

  // ---- forecasts
  keepForecast(f: KeptForecast): Promise<void> {
    return this.#write((r) => r.forecasts.keep(f));
  }
  lastForecastOf(batch: ForecastTarget): Promise<KeptForecast | null> {
    return this.#read((r) => r.forecasts.lastOf(batch));
  }

  // ---- scores (scores.ts)
  recordVerdicts(batchId: string, itemId: string, verdicts: readonly Verdict[]): Promise<void> {
    return this.#write((r) => scores.recordVerdicts(r.db, batchId, itemId, verdicts));
  }
  verdictsOf(batchId: string, itemId: string): Promise<Verdict[]> {
    return this.#read((r) => scores.verdictsOf(r.db, batchId, itemId));
  }
  scoreTotals(batchId: string, scorers: readonly ScorerRef[]): Promise<ScorerTotals[]> {
    return this.#read((r) => scores.scoreTotals(r.db, batchId, scorers));
  }
  itemsToScore(batchId: string, scorer: ScorerRef, q: ScoreQuery): Promise<ItemRecord[]> {
    return this.#read((r) => scores.itemsToScore(r.db, batchId, scorer, q));
  }
  verdictsPage(batchId: string, q: { afterSeq: number; limit: number }): Promise<ItemVerdicts[]> {
    return this.#read((r) => scores.verdictsPage(r.db, batchId, q));
  }
  scorersJudged(batchId: string): Promise<ScorerRef[]> {
    return this.#read((r) => scores.scorersJudged(r.db, batchId));
  }
}
