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
  NewItemColumns,
  BudgetGuard,
  NewDecision,
  NewModelRow,
  PauseOutcome,
  RunSnapshot,
  PauseQuery,
} from '../shapes.js';
import type { BatchRecord, BatchSettings, DownloadedFile, FileStatus, ItemRecord, ItemState, WorkerStart } from '../types.js';
import { appendItems, beginBatchAppend } from './batch-append.js';
import * as load from './batch-load.js';
import { retryBusy } from './busy.js';
import { DbWait, type DbWaitOptions } from '../db-wait.js';
import { contextOf, type Db, finishBatches, openDatabase, type SqliteContext, takingBackNotes } from './database.js';
import * as claims from './claims.js';
import { itemCounts } from './counts.js';
import * as decisions from './decisions.js';
import * as fileClaims from './file-claims.js';
import * as files from './files.js';
import { getItem } from './flights.js';
import * as forecasts from './forecasts.js';
import * as web from './item-pages.js';
import * as models from './models.js';
import * as scores from './scores.js';
import type { ItemVerdictsToRecord, ScoreQuery } from '../roles/scores.js';
import type { ItemVerdicts, ScorerRef, ScorerTotals, Verdict } from '../../score/types.js';
import * as notifyCommands from './notify-commands.js';
import * as outbox from './outbox.js';
import * as read from './reads.js';
import * as summaries from './summaries.js';
import * as t from './transitions.js';
import * as webSessions from './web-sessions.js';
import type { NewOutboxEvent, NotifyCommandSender, OutboxClaim, OutboxOutcome, OutboxState } from '../roles/outbox.js';
import { WriteGroup } from './write-group.js';
import type { ItemPageQuery } from '../item-page-shapes.js';
import type { Holding } from '../common/fencing.js';

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
  /** The connection, its clock and prepared statements: what every operation takes first. */
  readonly #cx: SqliteContext;
  /** Writes asked for in one turn share one transaction (see write-group.ts). */
  readonly #group: WriteGroup;

  /** Time for leases, heartbeats and the overview's live workers when the caller gives none. */
  readonly #clock: Clock;

  /** A busy file is waited on up to a bound, said once (db-wait.ts). */
  readonly #wait: DbWait;

  constructor(db: Db, location: string, clock: Clock = systemClock, wait: DbWaitOptions = {}) {
    this.#clock = clock;
    this.#wait = new DbWait(location, { clock, ...wait });
    this.#cx = contextOf(db, clock);
    this.location = location;
    // Wrappers made once (making one per call cost a wrapper each time).
    const cx = this.#cx;
    // A group's writes, then the batches they ended looked at once (database.ts finishBatches), then COMMIT.
    const tx = db.transaction((fn: () => void) => {
      cx.ended.length = 0;
      fn();
      finishBatches(cx);
    });
    // A write rolled back alone takes back the ends it noted.
    const savepoint = db.transaction((fn: () => unknown) => takingBackNotes(cx, fn));
    this.#group = new WriteGroup({ transaction: tx.immediate, savepoint: savepoint as <T>(fn: () => T) => T }, this.#wait);
  }

  /** Opens a database file (created and migrated when needed). */
  static open(path: string, opts: { readonly?: boolean; clock?: Clock } & DbWaitOptions = {}): SqliteStore {
    return new SqliteStore(openDatabase(path, opts), path, opts.clock, opts);
  }

  /** The connection, for the adapter's own tests and migrations only. */
  get db(): Db {
    return this.#cx.db;
  }

  #write<T>(fn: (cx: SqliteContext) => T): Promise<T> {
    return this.#group.write(() => fn(this.#cx));
  }

  #read<T>(fn: (cx: SqliteContext) => T): Promise<T> {
    return retryBusy(() => fn(this.#cx), this.#wait);
  }

  async close(): Promise<void> {
    if (this.#cx.db.open) await this.#group.drain();
    if (this.#cx.db.open) this.#cx.db.close();
  }

  // ---- batches
  async beginBatchLoad(batch: NewBatch, opts: { bulk?: boolean } = {}): Promise<BatchLoader> {
    return retryBusy(() => load.beginBatchLoad(this.#cx, batch, opts), this.#wait);
  }
  async beginBatchAppend(batchId: string): Promise<BatchAppender> {
    return retryBusy(() => beginBatchAppend(this.#cx, batchId), this.#wait);
  }
  appendItems(batchId: string, cols: NewItemColumns) {
    return this.#write((cx) => appendItems(cx, batchId, cols));
  }
  loadModelBatch(batch: NewBatch, model: Omit<ModelBatchRecord, 'batchId'>, rows: readonly NewModelRow[]): Promise<void> {
    return this.#write((cx) => load.loadModelBatch(cx, batch, model, rows));
  }
  findBatch(nameOrId: string): Promise<BatchRecord | null> {
    return this.#read((cx) => read.findBatch(cx, nameOrId));
  }
  listBatches(kind?: BatchRecord['kind']): Promise<BatchRecord[]> {
    return this.#read((cx) => read.listBatches(cx, kind));
  }
  latestBatch(kind?: BatchRecord['kind']): Promise<BatchRecord | null> {
    return this.#read((cx) => read.latestBatch(cx, kind));
  }
  updateBatchSettings(id: string, settings: BatchSettings, policy: unknown, baseUrl: string | null): Promise<void> {
    return this.#write((cx) => load.updateBatchSettings(cx, id, settings, policy, baseUrl));
  }
  cancelBatch(batchId: string, nowMs?: number): Promise<number> {
    return this.#write((cx) => claims.cancel(cx, batchId, nowMs ?? this.#clock.now()));
  }
  overview(batchId: string, nowMs?: number, staleMs = 60_000): Promise<BatchOverview> {
    return this.#read((cx) => {
      const batch = read.findBatch(cx, batchId);
      if (!batch) throw new Error(`batch ${batchId} not found`);
      return {
        batch,
        counts: itemCounts(cx, batchId),
        approvedCost: decisions.approvedCost(cx, batchId),
        files: files.fileCounts(cx, batchId),
        workers: claims.live(cx, batchId, staleMs, nowMs ?? this.#clock.now()),
      };
    });
  }

  // ---- workers and claims
  registerWorker(batchId: string, w: WorkerStart, nowMs?: number) {
    return this.#write((cx) => claims.register(cx, batchId, w, nowMs ?? this.#clock.now()));
  }
  heartbeat(lease: Lease, nowMs?: number): Promise<{ cancelled: boolean; capLimit: number | null }> {
    return this.#write((cx) => claims.heartbeat(cx, lease, nowMs ?? this.#clock.now()));
  }
  setCapLimit(batchId: string, capLimit: number | null): Promise<void> {
    return this.#write((cx) => claims.setCapLimit(cx, batchId, capLimit));
  }
  retireWorker(workerId: string, nowMs?: number): Promise<void> {
    return this.#write((cx) => claims.retire(cx, workerId, nowMs ?? this.#clock.now()));
  }
  liveWorkers(batchId: string, staleMs: number, nowMs?: number) {
    return this.#read((cx) => claims.live(cx, batchId, staleMs, nowMs ?? this.#clock.now()));
  }
  claimItems(batchId: string, req: ClaimRequest, nowMs?: number): Promise<Claim> {
    return this.#write((cx) => claims.claim(cx, batchId, req, nowMs ?? this.#clock.now()));
  }
  claimNextInThread(batchId: string, threadKey: string, afterSeq: number, req: Lease & { cap: number }, nowMs?: number): Promise<ItemRecord | null> {
    return this.#write((cx) => claims.claimNextInThread(cx, batchId, threadKey, afterSeq, req, nowMs ?? this.#clock.now()));
  }
  releaseItem(batchId: string, itemId: string, workerId: string, fence?: number): Promise<void> {
    return this.#write((cx) => claims.release(cx, batchId, itemId, workerId, fence));
  }

  // ---- agent runs
  markAdmitted(item: ItemRecord, run: AdmittedRun): Promise<ItemRecord> {
    return this.#write((cx) => t.markAdmitted(cx, item, run));
  }
  markFinished(item: ItemRecord, run: RunSnapshot, state: 'completed' | 'failed' | 'cancelled'): Promise<ItemRecord> {
    return this.#write((cx) => t.markFinished(cx, item, run, state));
  }
  markCancelled(batchId: string, itemId: string): Promise<boolean> {
    return this.#write((cx) => t.markCancelled(cx, batchId, itemId));
  }
  markPaused(item: ItemRecord, run: RunSnapshot, decide: (approvedCost: number) => PauseOutcome) {
    return this.#write((cx) => t.markPaused(cx, item, run, decide));
  }
  answerHeld(batchId: string, itemId: string, decision: NewDecision, nextKey: string, budget?: BudgetGuard): Promise<{ overBudget: boolean }> {
    return this.#write((cx) => t.answerHeld(cx, batchId, itemId, decision, nextKey, budget));
  }
  redecideHeld(batchId: string, itemId: string, decide: (approvedCost: number) => PauseOutcome): Promise<PauseOutcome> {
    return this.#write((cx) => t.redecideHeld(cx, batchId, itemId, decide));
  }
  markError(batchId: string, itemId: string, message: string, code?: string | null, held?: Holding): Promise<ItemRecord | null> {
    return this.#write((cx) => t.markError(cx, batchId, itemId, message, code ?? null, held));
  }
  requeue(batchId: string, itemIds: readonly string[] | null, states: readonly ItemState[]): Promise<string[]> {
    return this.#write((cx) => claims.requeue(cx, batchId, itemIds, states));
  }

  // ---- reads
  getItem(batchId: string, itemId: string) {
    return this.#read((cx) => getItem(cx, batchId, itemId));
  }
  listItems(batchId: string, f: ItemFilter = {}) {
    return this.#read((cx) => read.listItems(cx, batchId, f));
  }
  itemCounts(batchId: string) {
    return this.#read((cx) => itemCounts(cx, batchId));
  }
  threadWaits(batchId: string, limit: number, o: { itemId?: string; heldOnly?: boolean } = {}) {
    return this.#read((cx) => read.threadWaits(cx, batchId, limit, o));
  }
  recentFinishes(batchId: string, limit: number) {
    return this.#read((cx) => read.recentFinishes(cx, batchId, limit));
  }
  getRun(runId: string) {
    return this.#read((cx) => read.getRun(cx, runId));
  }
  runChain(batchId: string, itemId: string) {
    return this.#read((cx) => read.runChain(cx, batchId, itemId));
  }
  decisionsForItem(batchId: string, itemId: string) {
    return this.#read((cx) => decisions.decisionsForItem(cx, batchId, itemId));
  }
  batchPauses(batchId: string, q?: PauseQuery) {
    return this.#read((cx) => summaries.batchPauses(cx, batchId, q));
  }
  approvedCost(batchId: string) {
    return this.#read((cx) => decisions.approvedCost(cx, batchId));
  }
  budgetSpent(batchId: string) {
    return this.#read((cx) => decisions.budgetSpent(cx, batchId));
  }
  aggregates(batchId: string, afterSeq: number, limit: number, states?: readonly ItemState[]): Promise<ItemAggregate[]> {
    return this.#read((cx) => read.aggregates(cx, batchId, afterSeq, limit, states));
  }
  metaKeys(batchId: string): Promise<string[]> {
    return this.#read((cx) => read.metaKeys(cx, batchId));
  }

  // ---- files
  markFileDownloaded(batchId: string, fileId: string, v: DownloadedFile, claim?: FileClaim) {
    return this.#write((cx) => files.markFileDownloaded(cx, batchId, fileId, v, claim));
  }
  markFileStatus(batchId: string, fileId: string, status: Exclude<FileStatus, 'downloaded'>, error: string | null, claim?: FileClaim) {
    return this.#write((cx) => files.markFileStatus(cx, batchId, fileId, status, error, claim));
  }
  getFile(batchId: string, fileId: string) {
    return this.#read((cx) => files.getFile(cx, batchId, fileId));
  }
  filesForBatch(batchId: string, statuses?: readonly FileStatus[]) {
    return this.#read((cx) => files.filesForBatch(cx, batchId, statuses));
  }
  filesForItem(batchId: string, itemId: string) {
    return this.#read((cx) => files.filesForItem(cx, batchId, itemId));
  }
  fileCounts(batchId: string) {
    return this.#read((cx) => files.fileCounts(cx, batchId));
  }
  filePaths(batchId: string) {
    return this.#read((cx) => files.filePaths(cx, batchId));
  }
  recordFileCopy(batchId: string, fileId: string, c: { host: string; path: string; bytes: number; sha256: string }, keep?: 'keep') {
    return this.#write((cx) => files.recordFileCopy(cx, batchId, fileId, c, keep));
  }
  fileCopies(batchId: string) {
    return this.#read((cx) => files.fileCopies(cx, batchId));
  }
  expiryReport(batchId: string, warnBefore: string) {
    return this.#read((cx) => files.expiryReport(cx, batchId, warnBefore));
  }
  claimFile(batchId: string, fileId: string, holder: FileHolder, req: FileClaimRequest) {
    return this.#write((cx) => fileClaims.claimFile(cx, batchId, fileId, holder, req, req.nowMs ?? this.#clock.now()));
  }
  fileClaimHolder(batchId: string, fileId: string) {
    return this.#read((cx) => fileClaims.fileClaimHolder(cx, batchId, fileId));
  }
  renewFileClaim(batchId: string, fileId: string, claim: FileClaim, leaseMs: number, nowMs?: number) {
    return this.#write((cx) => fileClaims.renewFileClaim(cx, batchId, fileId, claim, leaseMs, nowMs ?? this.#clock.now()));
  }
  releaseFileClaim(batchId: string, fileId: string, claim: FileClaim) {
    return this.#write((cx) => fileClaims.releaseFileClaim(cx, batchId, fileId, claim));
  }

  // ---- model batches
  modelBatch(batchId: string) {
    return this.#read((cx) => models.modelBatch(cx, batchId));
  }
  modelRun(batchId: string, itemId: string) {
    return this.#read((cx) => models.modelRun(cx, batchId, itemId));
  }
  modelRuns(batchId: string, afterSeq: number, limit: number) {
    return this.#read((cx) => models.modelRuns(cx, batchId, afterSeq, limit));
  }
  markModelSubmitting(batchId: string, itemId: string, key: string, mode: ModelBatchRecord['mode'], resend: boolean) {
    return this.#write((cx) => models.markModelSubmitting(cx, batchId, itemId, key, mode, resend));
  }
  markModelAdmitted(batchId: string, itemId: string, httpStatus: number, run: ModelRunReport) {
    return this.#write((cx) => models.markModelAdmitted(cx, batchId, itemId, httpStatus, run));
  }
  markModelFinished(batchId: string, itemId: string, run: FinishedModelRun, o: { httpStatus: number | null; failed: boolean; polls: number }) {
    return this.#write((cx) => models.markModelFinished(cx, batchId, itemId, run, o));
  }
  markModelError(batchId: string, itemId: string, message: string, polls = 0) {
    return this.#write((cx) => models.markModelError(cx, batchId, itemId, message, polls));
  }
  markModelUnsent(batchId: string, itemId: string) {
    return this.#write((cx) => models.markModelUnsent(cx, batchId, itemId));
  }
  addModelPolls(batchId: string, itemId: string, polls: number) {
    return this.#write((cx) => models.addModelPolls(cx, batchId, itemId, polls));
  }
  modelCredits(batchId: string) {
    return this.#read((cx) => models.modelCredits(cx, batchId));
  }
  modelPolls(batchId: string) {
    return this.#read((cx) => models.modelPolls(cx, batchId));
  }
  setModelMode(batchId: string, mode: ModelBatchRecord['mode']) {
    return this.#write((cx) => models.setModelMode(cx, batchId, mode));
  }

  // ---- notebook projections
  queryItems(batchId: string, q: ItemQuery = {}) {
    return this.#read((cx) => summaries.queryItems(cx, batchId, q));
  }
  itemStats(batchId: string) {
    return this.#read((cx) => summaries.itemStats(cx, batchId));
  }
  batchTotals(batchId: string) {
    return this.#read((cx) => summaries.batchTotals(cx, batchId));
  }
  itemSeconds(batchId: string) {
    return this.#read((cx) => summaries.itemSeconds(cx, batchId));
  }
  runTimes(batchId: string) {
    return this.#read((cx) => summaries.runTimes(cx, batchId));
  }
  batchDecisions(batchId: string) {
    return this.#read((cx) => summaries.batchDecisions(cx, batchId));
  }

  // ---- web view projections
  itemPage(batchId: string, q: ItemPageQuery) {
    return this.#read((cx) => web.itemPage(cx, batchId, q));
  }
  batchLive(batchId: string, heldLimit: number) {
    return this.#read((cx) => web.batchLive(cx, batchId, heldLimit));
  }
  runMinutes(batchId: string) {
    return this.#read((cx) => web.runMinutes(cx, batchId));
  }

  // ---- outbox (notifications)
  addOutboxEvent(batchId: string, event: NewOutboxEvent, nowMs?: number): Promise<boolean> {
    return this.#write((cx) => outbox.addEvent(cx, batchId, event, nowMs ?? this.#clock.now()));
  }
  collateHeld(batchId: string, o: { digestMs: number; remindMs: number | null }, nowMs?: number): Promise<number> {
    return this.#write((cx) => outbox.collateHeld(cx, batchId, o, nowMs ?? this.#clock.now()));
  }
  claimOutbox(owner: string, o: { leaseMs: number; limit: number; batchIds?: readonly string[] | null }, nowMs?: number): Promise<OutboxClaim[]> {
    return this.#write((cx) => outbox.claim(cx, owner, o, nowMs ?? this.#clock.now()));
  }
  settleOutbox(claim: OutboxClaim, outcome: OutboxOutcome, nowMs?: number): Promise<boolean> {
    return this.#write((cx) => outbox.settle(cx, claim, outcome, nowMs ?? this.#clock.now()));
  }
  outboxState(batchId: string): Promise<OutboxState> {
    return this.#read((cx) => outbox.state(cx, batchId));
  }
  holdNotifyCommand(batchId: string, sender: NotifyCommandSender, leaseMs: number, nowMs?: number): Promise<void> {
    return this.#write((cx) => notifyCommands.holdNotifyCommand(cx, batchId, sender, leaseMs, nowMs ?? this.#clock.now()));
  }
  notifyCommands(batchId: string, nowMs?: number): Promise<NotifyCommandSender[]> {
    return this.#read((cx) => notifyCommands.notifyCommands(cx, batchId, nowMs ?? this.#clock.now()));
  }

  // ---- web sessions (a use is a read; its last use is written at most once a minute)
  openWebSession(idDigest: string, nowMs: number): Promise<void> {
    return this.#write((cx) => webSessions.openSession(cx, idDigest, nowMs));
  }
  useWebSession(idDigest: string, idleMs: number, nowMs: number): Promise<boolean> {
    return webSessions.useSession(this.#cx, idDigest, idleMs, nowMs, { read: (fn) => this.#read(fn), write: (fn) => this.#write(fn) });
  }
  endWebSession(idDigest: string, nowMs: number): Promise<void> {
    return this.#write((cx) => webSessions.endSession(cx, idDigest, nowMs));
  }
  addLoginCode(codeDigest: string, expiresAtMs: number, nowMs: number): Promise<void> {
    return this.#write((cx) => webSessions.addCode(cx, codeDigest, expiresAtMs, nowMs));
  }
  spendLoginCode(codeDigest: string, nowMs: number): Promise<boolean> {
    return this.#write((cx) => webSessions.spendCode(cx, codeDigest, nowMs));
  }

  // ---- forecasts
  keepForecast(f: KeptForecast): Promise<void> {
    return this.#write((cx) => forecasts.keepForecast(cx, f));
  }
  lastForecastOf(batch: ForecastTarget): Promise<KeptForecast | null> {
    return this.#read((cx) => forecasts.lastForecastOf(cx, batch));
  }

  // ---- scores (scores.ts)
  recordVerdicts(batchId: string, itemId: string, verdicts: readonly Verdict[]): Promise<void> {
    return this.#write((cx) => scores.recordVerdicts(cx, batchId, itemId, verdicts));
  }
  recordVerdictsMany(batchId: string, items: readonly ItemVerdictsToRecord[]): Promise<void> {
    return this.#write((cx) => scores.recordVerdictsMany(cx, batchId, items));
  }
  verdictsOf(batchId: string, itemId: string): Promise<Verdict[]> {
    return this.#read((cx) => scores.verdictsOf(cx, batchId, itemId));
  }
  scoreTotals(batchId: string, scorers: readonly ScorerRef[]): Promise<ScorerTotals[]> {
    return this.#read((cx) => scores.scoreTotals(cx, batchId, scorers));
  }
  itemsToScore(batchId: string, scorer: ScorerRef, q: ScoreQuery): Promise<ItemRecord[]> {
    return this.#read((cx) => scores.itemsToScore(cx, batchId, scorer, q));
  }
  verdictsPage(batchId: string, q: { afterSeq: number; limit: number }): Promise<ItemVerdicts[]> {
    return this.#read((cx) => scores.verdictsPage(cx, batchId, q));
  }
  scorersJudged(batchId: string): Promise<ScorerRef[]> {
    return this.#read((cx) => scores.scorersJudged(cx, batchId));
  }
}
