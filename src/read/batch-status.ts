import { formatProblem } from '../errors.js';
import { commandHint, type HintPlace } from '../text/command-hint.js';
import { isGoneHere } from '../local-process.js';
import { FAILED_STATES, UNFINISHED_STATES, type ItemState } from '../store/item-states.js';
import type { BatchOverview, OutboxStore, ReadStore, ScoreStore } from '../store/port.js';
import { readScoreRates } from './score-rates.js';
import { describeReceivers } from './receivers.js';
import type { BatchRecord, ItemRecord } from '../store/types.js';
import { deciderOf } from './decider.js';
import { untrustedCost } from '../policy/cost.js';
import { etaSeconds, RATE_WINDOW, ratePerSecond } from './rate.js';
import { budgetOf } from './spend.js';
import type { BatchCard, BatchStatus, NextStep, WorkerStatus } from './status-schema.js';
import { forPersonCount, readWaitGroups, type WaitContext } from './waits.js';

/** How long a worker may go without a heartbeat and still count as live. */
export const STALE_MS = 60_000;

/** How many failed or errored items a status lists by name. */
export const FAILED_LISTED = 10;

/** Items in any of these states. */
export function countIn(counts: Record<ItemState, number>, states: readonly ItemState[]): number {
  return states.reduce((n, s) => n + counts[s], 0);
}

/** Items not finished and not held: queued, or with work at the service. */
export function unfinishedOf(counts: Record<ItemState, number>): number {
  return countIn(counts, UNFINISHED_STATES) - counts.held;
}

/** The workers of an overview with their heartbeat age; `gone` said for this host's ended processes. */
export function workersOf(o: Pick<BatchOverview, 'workers'>, nowMs: number): WorkerStatus[] {
  return o.workers.map((w) => ({
    id: w.id,
    host: w.host,
    pid: w.pid,
    gone: isGoneHere(w),
    startedAt: w.startedAt,
    heartbeatAt: w.heartbeatAt,
    heartbeatAgeMs: Math.max(0, nowMs - w.heartbeatAt),
    items: w.items,
  }));
}

/** One batch as a list of batches shows it. */
export function batchCard(o: BatchOverview): BatchCard {
  const b = o.batch;
  return {
    id: b.id,
    name: b.name,
    kind: b.kind,
    createdAt: b.createdAt,
    cancelledAt: b.cancelledAt,
    total: b.totalItems,
    counts: o.counts,
    held: o.counts.held,
    approvedCost: o.approvedCost,
    files: o.files,
    liveWorkers: o.workers.filter((w) => !isGoneHere(w)).length,
  };
}

/**
 * The command that runs a batch nobody runs, pasteable: `resq resume NAME`, with `--db` when
 * `place` names another database than the default (a batch that ran on the simulator resumes on
 * it by itself: no `--sim`).
 */
export function resumeCommand(batch: Pick<BatchRecord, 'name'>, place: Pick<HintPlace, 'db'> = {}): string {
  return commandHint(['resq', 'resume', batch.name], { db: place.db });
}

/** What must happen for a batch to go on when nothing will by itself, or null. */
export function nextStepOf(batch: BatchRecord, unfinished: number, liveWorkers: number, place: HintPlace = {}): NextStep | null {
  if (unfinished === 0 || liveWorkers > 0 || batch.cancelledAt) return null;
  const command = resumeCommand(batch, place);
  return { why: 'no-worker', text: `no worker running: ${command}`, command };
}

/**
 * What must happen for the batch to go on, read now: null while a live worker carries it (an
 * answer is sent at once) or nothing is left; else `no worker running: resq resume NAME` (with
 * the `--db` of `place`, see {@link resumeCommand}).
 */
export async function readNextStep(store: ReadStore, batch: BatchRecord, nowMs: number, place: HintPlace = {}): Promise<NextStep | null> {
  const ov = await store.overview(batch.id, nowMs, STALE_MS);
  return nextStepOf(batch, unfinishedOf(ov.counts), batchCard(ov).liveWorkers, place);
}

/** Whether a live worker holds the item (its submission is in hand, not unknown). */
function isLive(it: ItemRecord, nowMs: number): boolean {
  return it.owner !== null && (it.leaseUntil ?? 0) >= nowMs;
}

/** Options of {@link readBatchStatus}. */
export interface StatusOptions {
  /** The time the status is read at (ms since the epoch): heartbeat ages, live leases. */
  nowMs: number;
  /** How many held items to list. @default 50 */
  heldLimit?: number;
  /** The database the reader was given: the suggested command (`next`) carries it as `--db`. @default the default database */
  hint?: HintPlace;
  /** The `--limit` of the worker whose summary this is: items it left queued wait for it. @default none */
  limit?: number | undefined;
}

/** What decides whether a queued item of the batch can start now, beyond its thread (see {@link WaitContext}). */
export function waitContextOf(batch: Pick<BatchRecord, 'cancelledAt' | 'settings'>, liveWorkers: number, live: { inFlight: number; capLimit: number | null }, limit?: number): WaitContext {
  return { cancelled: batch.cancelledAt !== null, liveWorkers, inFlight: live.inFlight, cap: live.capLimit ?? batch.settings.concurrency, limit };
}

/** The read model's {@link WaitContext} of a batch, read now. */
export async function readWaitContext(store: ReadStore, batch: BatchRecord, nowMs: number): Promise<WaitContext> {
  const [ov, live] = await Promise.all([store.overview(batch.id, nowMs, STALE_MS), store.batchLive(batch.id, 0)]);
  return waitContextOf(ov.batch, batchCard(ov).liveWorkers, live);
}

/**
 * A batch's status, computed once for every window: counts, runs in flight against the cap
 * and the adaptive cap, workers (gone ones said), the held queue with who decided each item's
 * earlier pauses, rate and ETA (see {@link ratePerSecond}; no ETA while no live worker runs
 * the batch, and the step that goes on; items that wait for a person left out), why the queued
 * items wait (see {@link readWaitGroups}), failed items, unknown submissions, files, and the
 * cost approved so far against the batch budget, and each scorer's pass rate (see {@link readScoreRates}).
 */
export async function readBatchStatus(store: ReadStore & Pick<ScoreStore, 'scorersJudged' | 'scoreTotals'> & Partial<Pick<OutboxStore, 'outboxState' | 'notifyCommands'>>, batch: BatchRecord, o: StatusOptions): Promise<BatchStatus> {
  const nowMs = o.nowMs;
  const [ov, live, recent] = await Promise.all([store.overview(batch.id, nowMs, STALE_MS), store.batchLive(batch.id, o.heldLimit ?? 50), store.recentFinishes(batch.id, RATE_WINDOW)]);
  const card = batchCard(ov);
  const counts = ov.counts;
  const unfinished = unfinishedOf(counts);
  const rate = ratePerSecond(recent);
  // The held items' pauses and earlier decisions, read side by side (not one item after another).
  const heldItems = await Promise.all(
    live.held.map(async (h) => {
      const [item, decisions] = await Promise.all([store.getItem(batch.id, h.id), store.decisionsForItem(batch.id, h.id)]);
      const run = item?.runId ? await store.getRun(item.runId) : null;
      const input = run?.requiredAction?.input ?? null;
      return { ...h, runId: item?.state === 'held' ? (item.runId ?? null) : null, input, untrustedCost: untrustedCost(input), decisions: decisions.map(deciderOf) };
    }),
  );
  const waiting = await readWaitGroups(store, batch, counts.queued, waitContextOf(ov.batch, card.liveWorkers, live, o.limit));
  const etaLeavesOut = forPersonCount(waiting);
  const unknownSubmission = (await store.listItems(batch.id, { states: ['submitting'] })).filter((it) => !isLive(it, nowMs)).map((it) => it.id);
  const failed = await store.listItems(batch.id, { states: FAILED_STATES, limit: FAILED_LISTED });
  const outbox = batch.settings.notify && store.outboxState ? await store.outboxState(batch.id) : null;
  // Only the fact that a live sender runs a command of its own is stored: who, never what.
  const commands = outbox && store.notifyCommands ? (await store.notifyCommands(batch.id, nowMs)).map(({ host, pid }) => ({ host, pid })) : [];
  return {
    ...card,
    concurrency: batch.settings.concurrency,
    inFlight: live.inFlight,
    capLimit: live.capLimit,
    workers: workersOf(ov, nowMs),
    heldItems,
    unfinished,
    ratePerS: rate === null ? null : Number(rate.toFixed(3)),
    etaS: etaSeconds(rate, unfinished, card.liveWorkers > 0, etaLeavesOut),
    etaLeavesOut,
    waiting,
    next: nextStepOf(batch, unfinished, card.liveWorkers, o.hint),
    notify: outbox ? { receivers: describeReceivers(batch.settings.notify, commands), commands, undelivered: outbox.undelivered, lastError: outbox.lastError } : null,
    unknownSubmission,
    invalidRows: batch.invalidRows.length,
    skipped: batch.invalidRows.slice(0, 100).map(formatProblem),
    failed: failed.map((it) => ({ id: it.id, question: it.question, status: it.state === 'error' ? 'error' : 'failed', errorCode: it.errorCode, error: it.error })),
    failedTotal: countIn(counts, FAILED_STATES),
    budget: budgetOf(batch.policy),
    // Decisions are held to the budget group's spend (its agent judge's approvals too): so is what status says of it.
    budgetSpent: await store.budgetSpent(batch.id),
    scores: await readScoreRates(store, batch),
  };
}
