import type { PersonReply } from '../runner/answer.js';
import type { BatchRecord, ItemState, Store } from '../store/index.js';

/** What the page may change, each through the library's batch operation the CLI calls. */
export interface WebActions {
  /** Records a person's answer to a held item; returns the answer as it will be sent. */
  answer(batch: BatchRecord, itemId: string, person: string, reply: PersonReply): Promise<Record<string, unknown>>;
  /** Puts finished items back in the queue for the batch's workers; returns how many. */
  retry(batch: BatchRecord, o: { states?: ItemState[]; items?: string[] }): Promise<number>;
  /** Stops the batch: nothing queued is sent; runs in flight are cancelled where the service allows it. */
  cancel(batch: BatchRecord): Promise<{ queued: number; cancelled: number; left: number; reason: string | null }>;
}

/** The library's operations over one store. */
export function libraryActions(store: Store): WebActions {
  return {
    async answer(batch, itemId, _person, reply) {
      const { answerHeldItem } = await import('../runner/answer.js');
      return answerHeldItem(store, batch, itemId, reply);
    },
    async retry(batch, o) {
      return (await store.requeue(batch.id, o.items ?? null, o.states ?? ['failed', 'error'])).length;
    },
    async cancel(batch) {
      const queued = await store.cancelBatch(batch.id);
      return { queued, cancelled: 0, left: 0, reason: null };
    },
  };
}
