import type { AdmittedRun, NewDecision, RunSnapshot } from '../shapes.js';
import type { ItemRecord } from '../types.js';
import { itemErrorColumns } from '../rows/run-failure.js';

/**
 * The columns each transition of an agent item writes, by their items column names, shared
 * by both adapters (each writes them its own way: the SQLite adapter's flights.ts patchFlight /
 * landFlight / startFlight, the PostgreSQL adapter's updateItem). `at` is the store's clock as ISO text;
 * `also`, columns an adapter writes with the patch (a module constant such as {@link UNLEASED},
 * spread in: no second object per transition). Pure.
 */

/** An item's lease gone as its flight lands (held or ended). */
export const UNLEASED = { owner: null, lease_until: null } as const;

/** An item no longer held for a person (in flight again, or never held). */
export const UNHELD = { hold_reason: null } as const;

/** A run admitted (first, or after a respond): the item is `running` it, no key or answer pending. */
export function admittedPatch<A extends object = object>(item: ItemRecord, run: AdmittedRun, also?: A) {
  return {
    state: 'running' as const,
    run_id: run.id,
    thread_id: run.threadId ?? item.threadId,
    run_status: run.status,
    pending_key: null,
    pending_answer: null,
    ...also,
  };
}

/** A run ended in `state`: its status, answer text, thread and (failed) error, the item finished at `at`. */
export function finishedPatch<A extends object = object>(item: ItemRecord, run: RunSnapshot, state: 'completed' | 'failed' | 'cancelled', at: string, also?: A) {
  return {
    state,
    run_status: run.status,
    text: run.output?.text ?? null,
    thread_id: run.threadId ?? item.threadId,
    ...itemErrorColumns(run, state),
    finished_at: at,
    ...also,
  };
}

/** What a paused run shows, kept on the item whichever way the pause is decided. */
export function pauseSeen(run: RunSnapshot): { run_status: string; text: string | null } {
  return { run_status: run.status, text: run.output?.text ?? null };
}

/** A pause answered: `waiting` on the respond keyed `nextKey` that carries the decision's answer, one step on. */
export function answeredPatch<A extends object = object>(item: ItemRecord, decision: Pick<NewDecision, 'answer'>, nextKey: string, seen?: Partial<ReturnType<typeof pauseSeen>>, also?: A) {
  return { state: 'waiting' as const, step: item.step + 1, pending_key: nextKey, pending_answer: decision.answer, ...seen, ...also };
}

/** A pause held for a person, with the reason. */
export function heldPatch<A extends object = object>(seen: ReturnType<typeof pauseSeen>, reason: string, also?: A) {
  return { state: 'held' as const, ...seen, hold_reason: reason, ...also };
}

/** An unfinished item cancelled at `at`. */
export function cancelledPatch<A extends object = object>(at: string, also?: A) {
  return { state: 'cancelled' as const, pending_key: null, finished_at: at, ...also };
}

/** An item ended in `error` at `at` (a permanent client-side fault), with its code when known. */
export function errorPatch<A extends object = object>(message: string, code: string | null, at: string, also?: A) {
  return { state: 'error' as const, error: message, error_code: code, pending_key: null, finished_at: at, ...also };
}
