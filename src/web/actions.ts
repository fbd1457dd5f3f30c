import type { PersonReply } from '../runner/operations/answer.js';
import type { BulkAnswerResult } from '../runner/operations/answer-bulk.js';
import type { CancelService } from '../runner/operations/cancel.js';
import type { RetryState } from '../runner/operations/retry.js';
import type { BatchRecord, ReadStore, TransitionStore } from '../store/index.js';

/** What the page may change, each through the library's batch operation the CLI calls. */
export interface WebActions {
  /** Records a person's answer to a held item (with their name); returns the answer as it will be sent. */
  answer(batch: BatchRecord, itemId: string, person: string, reply: PersonReply): Promise<Record<string, unknown>>;
  /** Answers each named held item with the same reply, one decision each; those answered meanwhile are skipped, naming who answered. */
  answerMany(batch: BatchRecord, ids: readonly string[], person: string, reply: PersonReply): Promise<BulkAnswerResult>;
  /** Puts finished items back in the queue for the batch's workers; returns how many. */
  retry(batch: BatchRecord, o: { states?: RetryState[]; items?: string[] }): Promise<number>;
  /** Stops the batch: nothing queued is sent; runs in flight are cancelled where the service allows it. */
  cancel(batch: BatchRecord): Promise<{ queued: number; cancelled: number; left: number; reason: string | null }>;
}

/** Options of {@link libraryActions}. */
export interface LibraryActionsOptions {
  /**
   * Opens the service of a batch, to cancel its runs in flight (the API key stays in the
   * server). Without it, a cancel stops the batch and leaves runs in flight to finish.
   */
  connect?: (batch: BatchRecord) => Promise<CancelService>;
}

/** The library's operations (src/runner/operations) over one store: the same checks as the CLI's. */
export function libraryActions(store: ReadStore & TransitionStore, o: LibraryActionsOptions = {}): WebActions {
  return {
    async answer(batch, itemId, person, reply) {
      const { answerHeldItem } = await import('../runner/operations/answer.js');
      return (await answerHeldItem(store, batch, itemId, reply, { person })).answer;
    },
    async answerMany(batch, ids, person, reply) {
      const { answerHeldItems } = await import('../runner/operations/answer-bulk.js');
      return answerHeldItems(store, batch, { ids }, reply, { person });
    },
    async retry(batch, s) {
      const { retryItems, retrySelection } = await import('../runner/operations/retry.js');
      // The selection `resq retry` makes from the same request: named items whatever they ended in.
      const report = await retryItems(store, batch, retrySelection(s));
      return report.moved.length;
    },
    async cancel(batch) {
      const { cancelBatch } = await import('../runner/operations/cancel.js');
      const connect = o.connect;
      const r = await cancelBatch(store, batch, connect ? { connect: () => connect(batch) } : {});
      return { queued: r.queued, cancelled: r.cancelled.length, left: r.left.length, reason: r.reason };
    },
  };
}
