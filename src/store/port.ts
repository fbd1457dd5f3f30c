import type { BatchStore } from './roles/batches.js';
import type { FileStore } from './roles/files.js';
import type { ForecastStore } from './roles/forecasts.js';
import type { StoreLifecycle } from './roles/lifecycle.js';
import type { ModelStore } from './roles/models.js';
import type { NotebookStore } from './roles/notebook.js';
import type { OutboxStore } from './roles/outbox.js';
import type { ReadStore } from './roles/reads.js';
import type { ScoreStore } from './roles/scores.js';
import type { TransitionStore } from './roles/transitions.js';
import type { WebSessionStore } from './roles/web-sessions.js';
import type { WorkerStore } from './roles/workers.js';

export type { BatchStore } from './roles/batches.js';
export type { FileClaim, FileClaimRequest, FileHolder, FileStore } from './roles/files.js';
export type { ForecastStore, ForecastTarget, KeptForecast, KeptSpread } from './roles/forecasts.js';
export type { StoreLifecycle } from './roles/lifecycle.js';
export type { ModelStore } from './roles/models.js';
export type { NotebookStore } from './roles/notebook.js';
export type { HeldFact, NewOutboxEvent, NotifyCommandSender, OutboxClaim, OutboxOutcome, OutboxState, OutboxStore } from './roles/outbox.js';
export type { BatchOverview, ItemAggregate, ReadStore, RecentFinishes, ThreadWaits } from './roles/reads.js';
export type { ItemVerdictsToRecord, ScoreQuery, ScoreStore } from './roles/scores.js';
export type { TransitionStore } from './roles/transitions.js';
export type { Claim, ClaimRequest, Lease, WorkerStore } from './roles/workers.js';
export type { WebSessionStore } from './roles/web-sessions.js';
export { missingStoreMembers, OPTIONAL_STORE_MEMBERS, STORE_ROLES, STORE_VALUE_MEMBERS, type StoreMember, type StoreRoles, type UnlistedMember } from './roles/role-methods.js';

/**
 * The store port: every state change resq makes is one of these operations, each one
 * transaction; every read is one of these projections. The runner, files, models, CLI and
 * notebook helpers see only this interface: no SQL, no database handle, no transaction.
 * Adapters: SQLite (src/store/sqlite) and PostgreSQL (src/store/postgres). A busy database
 * makes an operation wait and retry inside the adapter; it never surfaces as an item's state.
 *
 * The port is the sum of its roles (src/store/roles/, each method in exactly one): an
 * adapter implements it whole, a caller names only the roles it uses.
 */
export interface Store extends StoreLifecycle, BatchStore, WorkerStore, TransitionStore, ReadStore, FileStore, ModelStore, NotebookStore, OutboxStore, WebSessionStore, ForecastStore, ScoreStore {}
