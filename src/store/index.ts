export type {
  Store,
  StoreLifecycle,
  BatchStore,
  WorkerStore,
  TransitionStore,
  ReadStore,
  FileStore,
  FileClaim,
  FileHolder,
  ModelStore,
  NotebookStore,
  OutboxStore,
  WebSessionStore,
  ForecastStore,
  ScoreStore,
  ScoreQuery,
  KeptForecast,
  OutboxClaim,
  OutboxOutcome,
  OutboxState,
  HeldFact,
  NewOutboxEvent,
  NotifyCommandSender,
  StoreRoles,
  StoreMember,
  Lease,
  ClaimRequest,
  Claim,
  BatchOverview,
  ItemAggregate,
} from './port.js';
export { STORE_ROLES, OPTIONAL_STORE_MEMBERS, STORE_VALUE_MEMBERS, missingStoreMembers } from './port.js';
export { openStore, DEFAULT_DB_WAIT_MS, type OpenStoreOptions } from './open.js';
export { maskLocation, isPostgresUrl } from './location.js';
export { idempotencyKey } from './keys.js';
export { FILE_RETENTION_MS, fileExpiry } from './common/file-expiry.js';
export * from './shapes.js';
export * from './types.js';
export * from './item-page-shapes.js';
