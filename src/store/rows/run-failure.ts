import type { RunSnapshot } from '../shapes.js';

/** The error columns of a run as both adapters store them: the service's code and message, verbatim. */
export interface RunErrorColumns {
  error_code: string | null;
  error: string | null;
}

/** What a run's row keeps of its failure: the service's `error`, or nothing. */
export function runErrorColumns(run: RunSnapshot): RunErrorColumns {
  return { error_code: run.error?.code ?? null, error: run.error?.message ?? null };
}

/**
 * What a finished item's row keeps of its run's failure: the service's code and message when
 * it gave them; else, for a failed run, a message that names the run and its status.
 */
export function itemErrorColumns(run: RunSnapshot, state: 'completed' | 'failed' | 'cancelled'): RunErrorColumns {
  if (state !== 'failed') return { error_code: null, error: null };
  const own = runErrorColumns(run);
  return { error_code: own.error_code, error: own.error ?? `run ${run.id} ended with status ${run.status}` };
}
