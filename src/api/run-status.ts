/** Statuses of a run that is still moving: everything else is finished for following. */
const IN_PROGRESS_RUN = new Set(['running', 'cancelling']);

/**
 * Statuses that name a failure. The spec lists no failure statuses for research runs,
 * so this is a reading: anything that says failed, errored, cancelled, timed out,
 * expired, aborted or rejected. `requires_action` and `completed` are not failures;
 * any other finished status is not a failure either and is kept verbatim by callers.
 */
const FAILURE_STATUSES = new Set([
  'failed',
  'failure',
  'error',
  'errored',
  'cancelled',
  'canceled',
  'timed_out',
  'timeout',
  'expired',
  'aborted',
  'rejected',
]);

/** Whether a run is finished for following: its status is neither `running` nor `cancelling`. */
export function isRunFinished(run: { status: string }): boolean {
  return !IN_PROGRESS_RUN.has(run.status.toLowerCase());
}

/**
 * Whether a run status names a failure: `failed`, `failure`, `error`, `errored`,
 * `cancelled`/`canceled`, `timed_out`, `timeout`, `expired`, `aborted`, `rejected`
 * (case-insensitive). A cancelled run counts as failed: it produced no answer.
 */
export function isRunFailure(status: string): boolean {
  return FAILURE_STATUSES.has(status.toLowerCase());
}

/** Whether a run is paused waiting for an answer. */
export function isRunWaiting(run: { status: string }): boolean {
  return run.status === 'requires_action';
}

/**
 * Statuses of a model run still in progress. The spec names only `running`; the queue-like
 * ones are accepted too because stopping early on them would report an unfinished job.
 */
const IN_PROGRESS_MODEL_RUN = new Set(['running', 'queued', 'pending', 'starting']);

/** Whether a model run is finished (`succeeded`, `failed`, `cancelled`, or any other end state). */
export function isModelRunFinished(run: { status: string }): boolean {
  return !IN_PROGRESS_MODEL_RUN.has(run.status.toLowerCase());
}
