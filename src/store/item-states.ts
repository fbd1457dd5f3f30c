// The item states and the lists of them, defined once: the scheduler, both store adapters
// (their SQL included), retry and the notebook helpers all use these.

/** Every item state, in the order of an item's life. */
export const ITEM_STATES = ['queued', 'submitting', 'running', 'waiting', 'held', 'completed', 'failed', 'error', 'cancelled'] as const;

/** Where an item is in its life. `invalid` rows are kept only with --skip-invalid (not items). */
export type ItemState = (typeof ITEM_STATES)[number];

/** The colour each state is drawn in, in the notebook's charts and on the page alike. */
export const STATE_COLORS: Readonly<Record<ItemState, string>> = {
  queued: '#bab0ac',
  submitting: '#4e79a7',
  running: '#4e79a7',
  waiting: '#76b7b2',
  held: '#edc948',
  completed: '#59a14f',
  failed: '#e15759',
  error: '#9c2f2f',
  cancelled: '#79706e',
};

/** States an item never leaves (but for a retry, which starts a new attempt). */
export const TERMINAL_STATES: readonly ItemState[] = ['completed', 'failed', 'error', 'cancelled'];

/** States an item ends in after its work at the service: what a rate of work counts (cancelled is left out). */
export const ENDED_STATES: readonly ItemState[] = ['completed', 'failed', 'error'];

/** Item states `--failed` exports and status lists: failed at the service, or refused (error). */
export const FAILED_STATES: readonly ItemState[] = ['failed', 'error'];

/** States in which the item has, or may have, a request or run at the service. */
export const ACTIVE_STATES: readonly ItemState[] = ['submitting', 'running', 'waiting'];

/** States of an item not finished yet: queued, at the service, or held for a person. */
export const UNFINISHED_STATES: readonly ItemState[] = ITEM_STATES.filter((s) => !TERMINAL_STATES.includes(s));

/** Whether an item in this state is finished for good (no worker touches it again). */
export function isTerminal(state: ItemState): boolean {
  return TERMINAL_STATES.includes(state);
}

/**
 * A state list as an SQL list, `('submitting', 'running', 'waiting')`, for both adapters'
 * queries. Only these fixed names are ever inlined, never a value from outside.
 */
export function sqlStates(states: readonly string[]): string {
  return `(${states.map((s) => `'${s}'`).join(', ')})`;
}

/** A count of 0 for every item state. */
export function zeroCounts(): Record<ItemState, number> {
  return Object.fromEntries(ITEM_STATES.map((s) => [s, 0])) as Record<ItemState, number>;
}
