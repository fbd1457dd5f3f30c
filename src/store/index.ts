export { Store, type RunSnapshot, type PauseOutcome, type BatchLoader } from './store.js';
export { openDatabase, type Db } from './database.js';
export { migrate, migrations, type Migration } from './migrations.js';
export type { NewBatch } from './batches.js';
export type { NewItem, NewItemColumns, ItemFilter, DuplicateItem } from './items.js';
export type { AdmittedRun } from './runs.js';
export type { NewDecision } from './decisions.js';
export { FILE_RETENTION_MS } from './files.js';
export * from './types.js';
