export { BatchRunner, type RunnerOptions, type RunnerResult } from './batch-runner.js';
export type { RunnerEvent, StateCounts } from './events.js';
export { loadBatch, checkUnchanged, defaultBatchName, type LoadOptions } from './load-batch.js';
export { answerHeldItem, answerFor, type PersonReply } from './answer.js';
export { exportRows, exportFile, flattenRow, CSV_COLUMNS, type ExportRow, type ExportFile, type ExportStatus } from './export-rows.js';
export { batchStatus, type BatchStatus } from './status.js';
export { idempotencyKey } from './keys.js';
export { AdaptiveCap, isAdmissionThrottle } from './adaptive-cap.js';
export { fileRefs, toSnapshot } from './run-snapshot.js';
