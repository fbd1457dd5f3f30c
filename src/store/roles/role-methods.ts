import type { BatchStore } from './batches.js';
import type { FileStore } from './files.js';
import type { ForecastStore } from './forecasts.js';
import type { StoreLifecycle } from './lifecycle.js';
import type { ModelStore } from './models.js';
import type { NotebookStore } from './notebook.js';
import type { OutboxStore } from './outbox.js';
import type { ReadStore } from './reads.js';
import type { ScoreStore } from './scores.js';
import type { TransitionStore } from './transitions.js';
import type { WebSessionStore } from './web-sessions.js';
import type { WorkerStore } from './workers.js';

/** The store port's roles by name: `Store` is all of them, each method in exactly one. */
export interface StoreRoles {
  lifecycle: StoreLifecycle;
  batches: BatchStore;
  workers: WorkerStore;
  transitions: TransitionStore;
  reads: ReadStore;
  files: FileStore;
  models: ModelStore;
  notebook: NotebookStore;
  outbox: OutboxStore;
  webSessions: WebSessionStore;
  forecasts: ForecastStore;
  scores: ScoreStore;
}

/** Every member name of every role (the port's whole surface). */
export type StoreMember = { [N in keyof StoreRoles]: keyof StoreRoles[N] }[keyof StoreRoles];

/**
 * Each role's member names at run time (a test holds every adapter to them). The compiler
 * keeps the lists whole: a name not in its role fails `satisfies`, a member left out fails
 * {@link everyMemberListed}.
 */
export const STORE_ROLES = {
  lifecycle: ['location', 'close'],
  batches: ['beginBatchLoad', 'beginBatchAppend', 'appendItems', 'findBatch', 'listBatches', 'latestBatch', 'updateBatchSettings'],
  workers: ['registerWorker', 'heartbeat', 'setCapLimit', 'retireWorker', 'liveWorkers', 'claimItems', 'claimNextInThread', 'releaseItem'],
  transitions: ['markAdmitted', 'markFinished', 'markCancelled', 'markPaused', 'answerHeld', 'redecideHeld', 'markError', 'requeue', 'cancelBatch'],
  reads: [
    'overview', 'getItem', 'listItems', 'itemCounts', 'recentFinishes', 'threadWaits', 'getRun', 'runChain', 'decisionsForItem', 'batchPauses', 'approvedCost', 'budgetSpent',
    'aggregates', 'metaKeys', 'onAnswered', 'itemPage', 'batchLive', 'runMinutes',
  ],
  files: ['markFileDownloaded', 'markFileStatus', 'getFile', 'filesForBatch', 'filesForItem', 'fileCounts', 'filePaths', 'recordFileCopy', 'fileCopies', 'claimFile', 'fileClaimHolder', 'renewFileClaim', 'releaseFileClaim', 'expiryReport'],
  models: [
    'loadModelBatch', 'modelBatch', 'modelRun', 'modelRuns', 'markModelSubmitting', 'markModelAdmitted', 'markModelFinished',
    'markModelError', 'markModelUnsent', 'addModelPolls', 'modelCredits', 'modelPolls', 'setModelMode',
  ],
  notebook: ['queryItems', 'itemStats', 'batchTotals', 'itemSeconds', 'runTimes', 'batchDecisions'],
  outbox: ['addOutboxEvent', 'collateHeld', 'claimOutbox', 'settleOutbox', 'outboxState', 'holdNotifyCommand', 'notifyCommands'],
  webSessions: ['openWebSession', 'useWebSession', 'endWebSession', 'addLoginCode', 'spendLoginCode'],
  forecasts: ['keepForecast', 'lastForecastOf'],
  scores: ['recordVerdicts', 'recordVerdictsMany', 'verdictsOf', 'scoreTotals', 'itemsToScore', 'verdictsPage', 'scorersJudged'],
} as const satisfies { readonly [N in keyof StoreRoles]: readonly (keyof StoreRoles[N])[] };

/** Members a role has that {@link STORE_ROLES} leaves out: never while every list is whole. */
export type UnlistedMember = { [N in keyof StoreRoles]: Exclude<keyof StoreRoles[N], (typeof STORE_ROLES)[N][number]> }[keyof StoreRoles];

// A member added to a role but not to its list above fails to compile here, naming the member.
const everyMemberListed: [UnlistedMember] extends [never] ? true : UnlistedMember = true;

/** Members an adapter may leave out (optional in their role). */
export const OPTIONAL_STORE_MEMBERS = ['onAnswered'] as const satisfies readonly StoreMember[];

/** Members that are values, not methods. */
export const STORE_VALUE_MEMBERS = ['location'] as const satisfies readonly StoreMember[];

/**
 * What `store` lacks of the port, as `role.member: typeof` lines (empty when it is whole): every
 * member a function (a value member a string), an optional one absent or a function. The
 * compiler checks a store's type; this checks the object a store adapter hands back.
 */
export function missingStoreMembers(store: object): string[] {
  const optional = new Set<string>(OPTIONAL_STORE_MEMBERS);
  const values = new Set<string>(STORE_VALUE_MEMBERS);
  const bag = store as Record<string, unknown>;
  const missing: string[] = [];
  for (const [role, members] of Object.entries(STORE_ROLES))
    for (const m of members) {
      const v = bag[m];
      const want = values.has(m) ? 'string' : 'function';
      if (typeof v === want || (optional.has(m) && v === undefined)) continue;
      missing.push(`${role}.${m}: ${typeof v}`);
    }
  return missing;
}
