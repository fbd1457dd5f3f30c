import { type Clock, isoNow, systemClock } from '../../clock.js';
import pg from 'pg';
import type { BatchOverview, Claim, ClaimRequest, FileClaim, FileClaimRequest, FileHolder, ForecastTarget, ItemAggregate, KeptForecast, Lease, Store } from '../port.js';
import { maskLocation } from '../location.js';
import type { AdmittedRun, BatchAppender, BatchLoader, FinishedModelRun, ItemFilter, ItemQuery, ModelBatchRecord, ModelRunReport, NewBatch, NewItemColumns, BudgetGuard, NewDecision, NewModelRow, PauseOutcome, PauseQuery, RunSnapshot } from '../shapes.js';
import type { BatchRecord, BatchSettings, DownloadedFile, FileStatus, ItemRecord, ItemState, WorkerStart } from '../types.js';
import { appendItems, beginBatchAppend } from './batch-append.js';
import * as load from './batch-load.js';
import * as claims from './claims.js';
import * as decisions from './decisions.js';
import { migrate } from './migrations.js';
import { AnswersListener, connectError, makePool, type Queryable, waitingQueries, withTx } from './pool.js';
import { parsePgTarget, type PgTarget } from './pooler.js';
import { DbWait, type DbWaitOptions } from '../db-wait.js';
import * as read from './reads.js';
import * as fileReads from './files.js';
import * as fileClaims from './file-claims.js';
import * as models from './models.js';
import * as summaries from './summaries.js';
import { getItem } from './flights.js';
import * as t from './transitions.js';
import * as web from './item-pages.js';
import { itemCounts } from './counts.js';
import * as outbox from './outbox.js';
import * as webSessions from './web-sessions.js';
import * as forecasts from './forecasts.js';
import * as scores from './scores.js';
import type { ItemVerdictsToRecord, ScoreQuery } from '../roles/scores.js';
import type { ItemVerdicts, ScorerRef, ScorerTotals, Verdict } from '../../score/types.js';
import * as notifyCommands from './notify-commands.js';
import type { NewOutboxEvent, NotifyCommandSender, OutboxClaim, OutboxOutcome, OutboxState } from '../roles/outbox.js';
import type { ItemPageQuery } from '../item-page-shapes.js';
import type { Holding } from '../common/fencing.js';

/** Options of {@link PostgresStore.open}. */
export interface PostgresStoreOptions extends DbWaitOptions {
  poolSize?: number;
  /** Time for leases and heartbeats given by a test; none: the database's own clock. */
  clock?: Clock;
  /** The lease the workers of this process claim with: the bound its timeouts are tied to (pool.ts). */
  leaseMs?: number;
}

/**
 * The PostgreSQL adapter of the store port: several machines on one batch. Every change is
 * one transaction, every read one statement, each waited out and run again whole when the
 * database fails in passing (db-wait.ts: a reset, refused or stalled connection, a restart, a
 * serialization failure or deadlock), up to a bound said once; claims lock the batch row
 * so the cap holds across machines, and items FOR NO KEY UPDATE SKIP LOCKED. A person's answer is
 * announced with NOTIFY so the worker that carries it on wakes at once.
 */
export class PostgresStore implements Store {
  readonly location: string;
  readonly #pool: pg.Pool;
  /** The pool's statements, each waited out when the database fails in passing. */
  readonly #q: Queryable;
  readonly #wait: DbWait;
  readonly #target: PgTarget;
  readonly #onWait: ((message: string) => void) | undefined;
  #listener: AnswersListener | null = null;
  /** Behind a transaction pooler with no direct URL: answers are found by polling, said once. */
  #saidPolling = false;

  /** Time for leases, heartbeats and the overview's live workers when the caller gives none. */
  readonly #clock: Clock;

  private constructor(url: string, target: PgTarget, pool: pg.Pool, opts: PostgresStoreOptions) {
    this.#clock = opts.clock ?? systemClock;
    this.#pool = pool;
    this.#target = target;
    this.#onWait = opts.onWait;
    this.location = maskLocation(url);
    this.#wait = new DbWait(this.location, opts);
    this.#q = waitingQueries(pool, this.#wait);
  }

  /**
   * Connects (the password never reaches a message) and applies pending migrations under an
   * advisory lock, on a connection of their own: no statement timeout cuts a long migration short.
   * The URL's `pooler=transaction` and `direct=HOST[:PORT]` say a transaction pooler is in
   * between (pooler.ts): no named statements or session state through it, LISTEN direct.
   */
  static async open(url: string, opts: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const target = parsePgTarget(url);
    const pool = makePool(target.url, { max: opts.poolSize ?? 10, pooler: target.pooler, ...(opts.leaseMs !== undefined ? { leaseMs: opts.leaseMs } : {}) });
    const c = new pg.Client({ connectionString: target.url });
    c.on('error', () => {});
    try {
      await c.connect();
      const { onWait } = opts;
      await migrate(c, undefined, onWait && ((names) => onWait(`upgrading the database ${maskLocation(url)} to this resq's schema (${names.join(', ')}): a large one takes a while`)));
    } catch (e) {
      await pool.end().catch(() => {});
      throw connectError(url, e);
    } finally {
      await c.end().catch(() => {});
    }
    return new PostgresStore(url, target, pool, opts);
  }

  /**
   * The time a lease or heartbeat is written with: the caller's, a test clock's, or null —
   * the database's own clock as the statement runs (claims.ts `dbNow`), as in production.
   */
  #at(nowMs: number | undefined): number | null {
    return nowMs ?? (this.#clock === systemClock ? null : this.#clock.now());
  }

  #tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return withTx(this.#pool, fn, this.#wait);
  }

  async close(): Promise<void> {
    await this.#listener?.close();
    this.#listener = null;
    await this.#pool.end();
  }

  // ---- batches
  beginBatchLoad(batch: NewBatch): Promise<BatchLoader> {
    return load.beginBatchLoad(this.#pool, batch, this.#clock);
  }
  beginBatchAppend(batchId: string): Promise<BatchAppender> {
    return beginBatchAppend(this.#pool, batchId, this.#clock);
  }
  appendItems(batchId: string, cols: NewItemColumns): Promise<{ appended: number }> {
    return this.#tx((c) => appendItems(c, batchId, cols, this.#clock));
  }
  loadModelBatch(batch: NewBatch, model: Omit<ModelBatchRecord, 'batchId'>, rows: readonly NewModelRow[]): Promise<void> {
    return this.#tx((c) => load.loadModelBatch(c, batch, model, rows, this.#clock));
  }
  findBatch(nameOrId: string) {
    return read.findBatch(this.#q, nameOrId);
  }
  listBatches(kind?: BatchRecord['kind']) {
    return read.listBatches(this.#q, kind);
  }
  latestBatch(kind?: BatchRecord['kind']) {
    return read.latestBatch(this.#q, kind);
  }
  updateBatchSettings(id: string, settings: BatchSettings, policy: unknown, baseUrl: string | null): Promise<void> {
    return load.updateBatchSettings(this.#q, id, settings, policy, baseUrl, this.#clock);
  }
  cancelBatch(batchId: string, nowMs?: number): Promise<number> {
    return this.#tx((c) => claims.cancel(c, batchId, this.#at(nowMs)));
  }
  async overview(batchId: string, nowMs?: number, staleMs = 60_000): Promise<BatchOverview> {
    const batch = await read.findBatch(this.#q, batchId);
    if (!batch) throw new Error(`batch ${batchId} not found`);
    const [counts, approvedCost, files, workers] = await Promise.all([
      itemCounts(this.#q, batchId),
      decisions.approvedCost(this.#q, batchId),
      fileReads.fileCounts(this.#q, batchId),
      claims.live(this.#q, batchId, staleMs, this.#at(nowMs)),
    ]);
    return { batch, counts, approvedCost, files, workers };
  }

  // ---- workers and claims
  registerWorker(batchId: string, w: WorkerStart, nowMs?: number) {
    return this.#tx((c) => claims.register(c, batchId, w, this.#at(nowMs)));
  }
  heartbeat(lease: Lease, nowMs?: number) {
    return this.#tx((c) => claims.heartbeat(c, lease, this.#at(nowMs)));
  }
  setCapLimit(batchId: string, capLimit: number | null): Promise<void> {
    return claims.setCapLimit(this.#q, batchId, capLimit);
  }
  retireWorker(workerId: string, nowMs?: number): Promise<void> {
    return this.#tx((c) => claims.retire(c, workerId, this.#at(nowMs)));
  }
  liveWorkers(batchId: string, staleMs: number, nowMs?: number) {
    return claims.live(this.#q, batchId, staleMs, this.#at(nowMs));
  }
  claimItems(batchId: string, req: ClaimRequest, nowMs?: number): Promise<Claim> {
    return this.#tx((c) => claims.claim(c, batchId, req, this.#at(nowMs)));
  }
  claimNextInThread(batchId: string, threadKey: string, afterSeq: number, req: Lease & { cap: number }, nowMs?: number) {
    return this.#tx((c) => claims.claimNextInThread(c, batchId, threadKey, afterSeq, req, this.#at(nowMs)));
  }
  releaseItem(batchId: string, itemId: string, workerId: string, fence?: number): Promise<void> {
    return this.#tx((c) => claims.release(c, batchId, itemId, workerId, fence));
  }
  /**
   * Listens for answers on the URL itself, or behind a transaction pooler on its `direct=`
   * server (a pooler hands LISTEN's connection to other clients); with neither, nothing is
   * listened for, said once: the runner's regular poll finds answers.
   */
  onAnswered(batchId: string, cb: () => void): () => void {
    const { pooler, directUrl, url } = this.#target;
    if (pooler && !directUrl) {
      if (!this.#saidPolling) this.#onWait?.(`the database ${this.location} is behind a transaction pooler and no direct=HOST:PORT was given: answers from other machines are found by polling, not at once`);
      this.#saidPolling = true;
      return () => {};
    }
    this.#listener ??= new AnswersListener(directUrl ?? url);
    return this.#listener.subscribe(batchId, cb);
  }

  /** Resolves once answers are being listened for (tests wait on it before answering). */
  async listening(): Promise<void> {
    await this.#listener?.ready();
  }

  // ---- agent runs
  markAdmitted(item: ItemRecord, run: AdmittedRun) {
    return this.#tx((c) => t.markAdmitted(c, item, run, this.#clock));
  }
  markFinished(item: ItemRecord, run: RunSnapshot, state: 'completed' | 'failed' | 'cancelled') {
    return this.#tx((c) => t.markFinished(c, item, run, state, this.#clock));
  }
  markCancelled(batchId: string, itemId: string) {
    return this.#tx((c) => t.markCancelled(c, batchId, itemId, this.#clock));
  }
  markPaused(item: ItemRecord, run: RunSnapshot, decide: (approvedCost: number) => PauseOutcome) {
    return this.#tx((c) => t.markPaused(c, item, run, decide, this.#clock));
  }
  answerHeld(batchId: string, itemId: string, decision: NewDecision, nextKey: string, budget?: BudgetGuard): Promise<{ overBudget: boolean }> {
    // Announced with NOTIFY, delivered at commit (transitions.ts).
    return this.#tx((c) => t.answerHeld(c, batchId, itemId, decision, nextKey, this.#clock, budget));
  }
  redecideHeld(batchId: string, itemId: string, decide: (approvedCost: number) => PauseOutcome) {
    return this.#tx((c) => t.redecideHeld(c, batchId, itemId, decide, this.#clock));
  }
  markError(batchId: string, itemId: string, message: string, code?: string | null, held?: Holding) {
    return this.#tx((c) => t.markError(c, batchId, itemId, message, code ?? null, held, this.#clock));
  }
  requeue(batchId: string, itemIds: readonly string[] | null, states: readonly ItemState[]) {
    return this.#tx((c) => claims.requeue(c, batchId, itemIds, states, isoNow(this.#clock)));
  }

  // ---- reads
  getItem(batchId: string, itemId: string) {
    return getItem(this.#q, batchId, itemId);
  }
  listItems(batchId: string, f?: ItemFilter) {
    return read.listItems(this.#q, batchId, f);
  }
  itemCounts(batchId: string) {
    return itemCounts(this.#q, batchId);
  }
  threadWaits(batchId: string, limit: number, o: { itemId?: string; heldOnly?: boolean } = {}) {
    return read.threadWaits(this.#q, batchId, limit, o);
  }
  recentFinishes(batchId: string, limit: number) {
    return read.recentFinishes(this.#q, batchId, limit);
  }
  getRun(runId: string) {
    return read.getRun(this.#q, runId);
  }
  runChain(batchId: string, itemId: string) {
    return read.runChain(this.#q, batchId, itemId);
  }
  decisionsForItem(batchId: string, itemId: string) {
    return decisions.decisionsForItem(this.#q, batchId, itemId);
  }
  batchPauses(batchId: string, q?: PauseQuery) {
    return summaries.batchPauses(this.#q, batchId, q);
  }
  approvedCost(batchId: string) {
    return decisions.approvedCost(this.#q, batchId);
  }
  budgetSpent(batchId: string) {
    return decisions.budgetSpent(this.#q, batchId);
  }
  aggregates(batchId: string, afterSeq: number, limit: number, states?: readonly ItemState[]): Promise<ItemAggregate[]> {
    return read.aggregates(this.#q, batchId, afterSeq, limit, states);
  }
  metaKeys(batchId: string): Promise<string[]> {
    return read.metaKeys(this.#q, batchId);
  }

  // ---- files
  markFileDownloaded(batchId: string, fileId: string, v: DownloadedFile, claim?: FileClaim) {
    return fileReads.markFileDownloaded(this.#q, batchId, fileId, v, claim);
  }
  markFileStatus(batchId: string, fileId: string, status: Exclude<FileStatus, 'downloaded'>, error: string | null, claim?: FileClaim) {
    return fileReads.markFileStatus(this.#q, batchId, fileId, status, error, claim);
  }
  getFile(batchId: string, fileId: string) {
    return fileReads.getFile(this.#q, batchId, fileId);
  }
  filesForBatch(batchId: string, statuses?: readonly FileStatus[]) {
    return fileReads.filesForBatch(this.#q, batchId, statuses);
  }
  filesForItem(batchId: string, itemId: string) {
    return fileReads.filesForItem(this.#q, batchId, itemId);
  }
  fileCounts(batchId: string) {
    return fileReads.fileCounts(this.#q, batchId);
  }
  filePaths(batchId: string) {
    return fileReads.filePaths(this.#q, batchId);
  }
  recordFileCopy(batchId: string, fileId: string, c: { host: string; path: string; bytes: number; sha256: string }, keep?: 'keep') {
    return fileReads.recordFileCopy(this.#q, batchId, fileId, c, isoNow(this.#clock), keep);
  }
  fileCopies(batchId: string) {
    return fileReads.fileCopies(this.#q, batchId);
  }
  expiryReport(batchId: string, warnBefore: string) {
    return fileReads.expiryReport(this.#q, batchId, warnBefore);
  }
  claimFile(batchId: string, fileId: string, holder: FileHolder, req: FileClaimRequest) {
    return fileClaims.claimFile(this.#q, batchId, fileId, holder, req, this.#at(req.nowMs));
  }
  fileClaimHolder(batchId: string, fileId: string) {
    return fileClaims.fileClaimHolder(this.#q, batchId, fileId);
  }
  renewFileClaim(batchId: string, fileId: string, claim: FileClaim, leaseMs: number, nowMs?: number) {
    return fileClaims.renewFileClaim(this.#q, batchId, fileId, claim, leaseMs, this.#at(nowMs));
  }
  releaseFileClaim(batchId: string, fileId: string, claim: FileClaim) {
    return fileClaims.releaseFileClaim(this.#q, batchId, fileId, claim);
  }

  // ---- models
  modelBatch(batchId: string) {
    return models.modelBatch(this.#q, batchId);
  }
  modelRun(batchId: string, itemId: string) {
    return models.modelRun(this.#q, batchId, itemId);
  }
  modelRuns(batchId: string, afterSeq: number, limit: number) {
    return models.modelRuns(this.#q, batchId, afterSeq, limit);
  }
  markModelSubmitting(batchId: string, itemId: string, key: string, mode: ModelBatchRecord['mode'], resend: boolean) {
    return this.#tx((c) => models.markModelSubmitting(c, batchId, itemId, key, mode, resend, this.#clock));
  }
  markModelAdmitted(batchId: string, itemId: string, httpStatus: number, run: ModelRunReport) {
    return this.#tx((c) => models.markModelAdmitted(c, batchId, itemId, httpStatus, run, this.#clock));
  }
  markModelFinished(batchId: string, itemId: string, run: FinishedModelRun, o: { httpStatus: number | null; failed: boolean; polls: number }) {
    return this.#tx((c) => models.markModelFinished(c, batchId, itemId, run, o, this.#clock));
  }
  markModelError(batchId: string, itemId: string, message: string, polls = 0) {
    return this.#tx((c) => models.markModelError(c, batchId, itemId, message, polls, this.#clock));
  }
  markModelUnsent(batchId: string, itemId: string) {
    return this.#tx((c) => models.markModelUnsent(c, batchId, itemId, this.#clock));
  }
  addModelPolls(batchId: string, itemId: string, polls: number): Promise<void> {
    return models.addModelPolls(this.#q, batchId, itemId, polls);
  }
  modelCredits(batchId: string) {
    return models.modelCredits(this.#q, batchId);
  }
  modelPolls(batchId: string): Promise<number> {
    return models.modelPolls(this.#q, batchId);
  }
  setModelMode(batchId: string, mode: ModelBatchRecord['mode']): Promise<void> {
    return models.setModelMode(this.#q, batchId, mode);
  }

  // ---- notebook projections
  queryItems(batchId: string, q?: ItemQuery) {
    return summaries.queryItems(this.#q, batchId, q);
  }
  itemStats(batchId: string) {
    return summaries.itemStats(this.#q, batchId);
  }
  batchTotals(batchId: string) {
    return summaries.batchTotals(this.#q, batchId);
  }
  itemSeconds(batchId: string) {
    return summaries.itemSeconds(this.#q, batchId);
  }
  runTimes(batchId: string) {
    return summaries.runTimes(this.#q, batchId);
  }
  batchDecisions(batchId: string) {
    return summaries.batchDecisions(this.#q, batchId);
  }

  // ---- web view projections
  itemPage(batchId: string, q: ItemPageQuery) {
    return web.itemPage(this.#q, batchId, q);
  }
  batchLive(batchId: string, heldLimit: number) {
    return web.batchLive(this.#q, batchId, heldLimit);
  }
  runMinutes(batchId: string) {
    return web.runMinutes(this.#q, batchId);
  }

  // ---- outbox (notifications)
  addOutboxEvent(batchId: string, event: NewOutboxEvent, nowMs?: number): Promise<boolean> {
    return outbox.addEvent(this.#q, batchId, event, this.#at(nowMs));
  }
  collateHeld(batchId: string, o: { digestMs: number; remindMs: number | null }, nowMs?: number): Promise<number> {
    return this.#tx((c) => outbox.collateHeld(c, batchId, o, this.#at(nowMs)));
  }
  claimOutbox(owner: string, o: { leaseMs: number; limit: number; batchIds?: readonly string[] | null }, nowMs?: number): Promise<OutboxClaim[]> {
    return this.#tx((c) => outbox.claim(c, owner, o, this.#at(nowMs)));
  }
  settleOutbox(claim: OutboxClaim, outcome: OutboxOutcome, nowMs?: number): Promise<boolean> {
    return outbox.settle(this.#q, claim, outcome, this.#at(nowMs));
  }
  outboxState(batchId: string): Promise<OutboxState> {
    return outbox.state(this.#q, batchId);
  }
  holdNotifyCommand(batchId: string, sender: NotifyCommandSender, leaseMs: number, nowMs?: number): Promise<void> {
    return notifyCommands.holdNotifyCommand(this.#q, batchId, sender, leaseMs, this.#at(nowMs));
  }
  notifyCommands(batchId: string, nowMs?: number): Promise<NotifyCommandSender[]> {
    return notifyCommands.notifyCommands(this.#q, batchId, this.#at(nowMs));
  }

  // ---- web sessions
  openWebSession(idDigest: string, nowMs: number): Promise<void> {
    return webSessions.openSession(this.#q, idDigest, nowMs);
  }
  useWebSession(idDigest: string, idleMs: number, nowMs: number): Promise<boolean> {
    return webSessions.useSession(this.#q, idDigest, idleMs, nowMs);
  }
  endWebSession(idDigest: string, nowMs: number): Promise<void> {
    return webSessions.endSession(this.#q, idDigest, nowMs);
  }
  addLoginCode(codeDigest: string, expiresAtMs: number, nowMs: number): Promise<void> {
    return webSessions.addCode(this.#q, codeDigest, expiresAtMs, nowMs);
  }
  spendLoginCode(codeDigest: string, nowMs: number): Promise<boolean> {
    return webSessions.spendCode(this.#q, codeDigest, nowMs);
  }

  // ---- forecasts
  keepForecast(f: KeptForecast): Promise<void> {
    return forecasts.keepForecast(this.#q, f);
  }
  lastForecastOf(batch: ForecastTarget): Promise<KeptForecast | null> {
    return forecasts.lastForecastOf(this.#q, batch);
  }

  // ---- scores (scores.ts)
  recordVerdicts(batchId: string, itemId: string, verdicts: readonly Verdict[]): Promise<void> {
    return scores.recordVerdicts(this.#q, batchId, itemId, verdicts);
  }
  recordVerdictsMany(batchId: string, items: readonly ItemVerdictsToRecord[]): Promise<void> {
    return this.#tx((c) => scores.recordVerdictsMany(c, batchId, items));
  }
  verdictsOf(batchId: string, itemId: string): Promise<Verdict[]> {
    return scores.verdictsOf(this.#q, batchId, itemId);
  }
  scoreTotals(batchId: string, scorers: readonly ScorerRef[]): Promise<ScorerTotals[]> {
    return scores.scoreTotals(this.#q, batchId, scorers);
  }
  itemsToScore(batchId: string, scorer: ScorerRef, q: ScoreQuery): Promise<ItemRecord[]> {
    return scores.itemsToScore(this.#q, batchId, scorer, q);
  }
  verdictsPage(batchId: string, q: { afterSeq: number; limit: number }): Promise<ItemVerdicts[]> {
    return scores.verdictsPage(this.#q, batchId, q);
  }
  scorersJudged(batchId: string): Promise<ScorerRef[]> {
    return scores.scorersJudged(this.#q, batchId);
  }
}
