import { LeaseLostError } from '../../errors.js';
import type { PauseOutcome } from '../shapes.js';
import type { DecisionRecord, ItemRecord } from '../types.js';

/**
 * Fenced ownership, the rules both adapters share. A claim gives an item a fencing
 * token one higher than it had; a driver's writes apply only while the item's owner and token
 * are still the ones its claim handed back. A driver that stalled past its lease (a frozen
 * process, a partition from the database) and whose item was claimed again finds another
 * token on its next write: the write changes nothing and the driver stops.
 */

/** What a driver holds an item by: the owner and the token of its claim. */
export type Holding = Pick<ItemRecord, 'owner' | 'fence'>;

/** Whether the item as stored is still held by the driver holding `held`. */
export function stillHeld(stored: Holding, held: Holding): boolean {
  return stored.owner === held.owner && stored.fence === held.fence;
}

/** The error a driver gets when its item is no longer its own, naming who holds it now. */
export function leaseLost(itemId: string, stored: (Holding & { state: string }) | null, held: Holding): LeaseLostError {
  if (!stored) return new LeaseLostError(`item ${itemId} vanished from the database`);
  const who =
    stored.owner !== null
      ? `claimed by worker ${stored.owner}`
      : stored.fence !== held.fence
        ? `claimed again and is ${stored.state} now, held by no worker`
        : `let go (${stored.state} now)`;
  return new LeaseLostError(`item ${itemId} was ${who}; token ${stored.fence}, this driver's ${held.fence}`);
}

/**
 * The outcome of a pause decided already (one decision per paused run): the recorded answer
 * and the key of the respond that carries it. A second attempt to decide records nothing and
 * takes this, so the budget counts the decision once and the key never carries another body.
 */
export function priorOutcome(prior: DecisionRecord, fallbackKey: string): PauseOutcome {
  return {
    kind: 'answer',
    nextKey: prior.respondKey ?? fallbackKey,
    decision: { runId: prior.runId, tool: prior.tool, input: prior.input, answer: prior.answer, by: prior.by, person: prior.person, reason: prior.reason, cost: prior.cost },
  };
}
