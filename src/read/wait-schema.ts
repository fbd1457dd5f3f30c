import { z } from 'zod';
import { ITEM_STATES } from '../store/item-states.js';

// Why a queued item does not start: the shapes every window renders (`resq status`
// and `show`, the exit summary of run/resume, the page and its JSON API).

/**
 * Why a queued item waits. `thread-held` / `thread-running` / `thread-queued`: behind an earlier
 * item of its thread, held for a person / at the service / queued itself; `cancelled`: its
 * batch was cancelled, it will not be sent; `limit`: left by the `--limit` of the worker that
 * ended; `no-worker`: no live worker carries the batch; `cap`: every slot of the cap is taken;
 * `ready`: a live worker starts it at its next claim.
 */
export const WaitReasonSchema = z.enum(['thread-held', 'thread-running', 'thread-queued', 'cancelled', 'limit', 'no-worker', 'cap', 'ready']);
export type WaitReason = z.infer<typeof WaitReasonSchema>;

/** A queued item named with why it waits: the item of its thread it waits behind, if that is why. */
export const WaitingItemSchema = z.object({
  id: z.string(),
  threadKey: z.string().nullable(),
  /** The earlier item of its thread it waits behind (the first unfinished one), or null. */
  behindId: z.string().nullable(),
  /** That item's state. */
  behindState: z.enum(ITEM_STATES).nullable(),
});
export type WaitingItem = z.infer<typeof WaitingItemSchema>;

/** The queued items that wait for one reason: how many, the first few named, in words. */
export const WaitGroupSchema = z.object({
  reason: WaitReasonSchema,
  count: z.number().int(),
  /** They cannot start until a person acts (answers a held item, resumes, retries): the ETA leaves them out. */
  forPerson: z.boolean(),
  /** The first few in file order. */
  first: z.array(WaitingItemSchema),
  /** The words every window shows: `2 queued behind held items of their thread: q302, q303 wait for q301 (held) in thread T`. */
  text: z.string(),
});
export type WaitGroup = z.infer<typeof WaitGroupSchema>;

/** Why one queued item waits, as `resq show` and the item page say it. */
export const ItemWaitSchema = WaitingItemSchema.extend({
  reason: WaitReasonSchema,
  forPerson: z.boolean(),
  /** In words, with the command that shows the item it waits behind when there is one. */
  text: z.string(),
});
export type ItemWait = z.infer<typeof ItemWaitSchema>;
